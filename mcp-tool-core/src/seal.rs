//! Sealing: small byte strings signed with the server's keys (HMAC-SHA256), so that what a
//! server hands a client (a cursor, a request's saved state) comes back unaltered, and any
//! replica configured with the same keys accepts it.
//!
//! A sealed token is URL-safe base64 (no padding) of
//! `version (1 byte) | key id length (1 byte) | key id | payload | tag (32 bytes)`, where the
//! tag is HMAC-SHA256 over a purpose label and everything before the tag. The payload is
//! signed, not encrypted: a client can read it, it cannot change it or make one up.
//!
//! Keys rotate by id: [`SigningKeys`] seals with its first key and opens tokens sealed with
//! any of its keys. To rotate, put the new key first, keep the old one after it for as long as
//! tokens sealed with it may come back, then drop it.
//!
//! ```
//! use mcp_tool::seal::{SealError, SigningKeys};
//!
//! let keys = SigningKeys::parse("k2:a-secret-of-at-least-32-bytes-long!!").unwrap();
//! let token = keys.seal("example", b"offset=20");
//! assert_eq!(keys.open("example", &token).unwrap(), b"offset=20");
//! // Another purpose, another key, or an altered token: refused.
//! assert_eq!(keys.open("other", &token), Err(SealError::Forged));
//! let stranger = SigningKeys::parse("k2:another-secret-of-at-least-32-bytes").unwrap();
//! assert_eq!(stranger.open("example", &token), Err(SealError::Forged));
//! ```

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::fmt;
use std::sync::{Arc, OnceLock};

type HmacSha256 = Hmac<Sha256>;

/// Format version of a sealed token (its first byte).
const VERSION: u8 = 1;
const TAG_LEN: usize = 32;
/// A configured secret shorter than this is refused: HMAC-SHA256 is as strong as its key.
pub const MIN_SECRET_BYTES: usize = 32;
const MAX_ID_LEN: usize = 32;

/// One key: an id, written into every token it seals, and a secret.
#[derive(Clone)]
pub struct SigningKey {
    id: String,
    secret: Arc<[u8]>,
}

impl fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the secret: builders and servers get logged with `{:?}`.
        f.debug_struct("SigningKey")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

impl SigningKey {
    /// A key with this id (1 to 32 characters of `A-Z a-z 0-9 _ - .`) and a secret of at least
    /// [`MIN_SECRET_BYTES`] bytes.
    ///
    /// # Errors
    ///
    /// [`KeyError::BadId`] or [`KeyError::ShortSecret`].
    pub fn new(id: impl Into<String>, secret: impl AsRef<[u8]>) -> Result<Self, KeyError> {
        let id = id.into();
        let id_ok = !id.is_empty()
            && id.len() <= MAX_ID_LEN
            && id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_-.".contains(&b));
        if !id_ok {
            return Err(KeyError::BadId { id });
        }
        let secret = secret.as_ref();
        if secret.len() < MIN_SECRET_BYTES {
            return Err(KeyError::ShortSecret {
                id,
                len: secret.len(),
            });
        }
        Ok(Self {
            id,
            secret: secret.into(),
        })
    }

    /// A key with a secret of 32 random bytes from the operating system, and a random id.
    pub fn random() -> Self {
        let mut bytes = [0u8; 36];
        getrandom::fill(&mut bytes).expect("the operating system's random number generator");
        let id: String = bytes[32..].iter().map(|b| format!("{b:02x}")).collect();
        Self {
            id: format!("random-{id}"),
            secret: bytes[..32].into(),
        }
    }

    /// The id written into every token this key seals.
    pub fn id(&self) -> &str {
        &self.id
    }

    fn mac(&self, purpose: &str, signed: &[u8]) -> HmacSha256 {
        let mut mac =
            HmacSha256::new_from_slice(&self.secret).expect("HMAC accepts keys of any length");
        // The purpose is signed, not sent: a token sealed for one use (a cursor) is refused
        // for another (a request's state) even under the same key.
        mac.update(b"mcp-tool seal\0");
        mac.update(purpose.as_bytes());
        mac.update(b"\0");
        mac.update(signed);
        mac
    }
}

/// The keys a server seals and opens with: it seals with the first and opens with any.
/// Cheap to clone.
#[derive(Clone, Debug)]
pub struct SigningKeys {
    keys: Arc<[SigningKey]>,
}

impl Default for SigningKeys {
    /// [`SigningKeys::process_default`].
    fn default() -> Self {
        Self::process_default()
    }
}

impl SigningKeys {
    /// These keys, the first one sealing.
    ///
    /// # Errors
    ///
    /// [`KeyError::Empty`] for no key, [`KeyError::DuplicateId`] when two keys share an id.
    pub fn new(keys: impl IntoIterator<Item = SigningKey>) -> Result<Self, KeyError> {
        let keys: Vec<SigningKey> = keys.into_iter().collect();
        if keys.is_empty() {
            return Err(KeyError::Empty);
        }
        for (i, key) in keys.iter().enumerate() {
            if keys[..i].iter().any(|k| k.id == key.id) {
                return Err(KeyError::DuplicateId { id: key.id.clone() });
            }
        }
        Ok(Self { keys: keys.into() })
    }

    /// Keys from configuration text: `id:secret` entries separated by commas, the sealing key
    /// first, e.g. `2026-11:<secret>,2026-10:<old secret>`. Whitespace around entries is
    /// ignored; a secret is the text after the first `:` (at least [`MIN_SECRET_BYTES`] bytes;
    /// `openssl rand -base64 32` makes a good one).
    ///
    /// # Errors
    ///
    /// [`KeyError::Syntax`] for an entry without `:`, and the errors of [`SigningKey::new`]
    /// and [`SigningKeys::new`].
    pub fn parse(text: &str) -> Result<Self, KeyError> {
        let keys = text
            .split(',')
            .map(str::trim)
            .filter(|entry| !entry.is_empty())
            .map(|entry| match entry.split_once(':') {
                Some((id, secret)) => SigningKey::new(id.trim(), secret.trim()),
                None => Err(KeyError::Syntax {
                    entry_start: entry.chars().take(8).collect(),
                }),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Self::new(keys)
    }

    /// One random key, made once per process and shared by every server in it that is not
    /// given keys: tokens survive nothing but this process, and no other process accepts them.
    pub fn process_default() -> Self {
        static KEYS: OnceLock<SigningKeys> = OnceLock::new();
        KEYS.get_or_init(|| Self {
            keys: Arc::new([SigningKey::random()]),
        })
        .clone()
    }

    /// The id of the key that seals.
    pub fn sealing_key_id(&self) -> &str {
        &self.keys[0].id
    }

    /// The ids of every key, the sealing one first.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.keys.iter().map(|k| k.id.as_str())
    }

    /// Seals `payload` for `purpose` (a fixed label of the caller's, such as `"cursor"`) with
    /// the first key.
    pub fn seal(&self, purpose: &str, payload: &[u8]) -> String {
        let key = &self.keys[0];
        let mut token = Vec::with_capacity(2 + key.id.len() + payload.len() + TAG_LEN);
        token.push(VERSION);
        token.push(key.id.len() as u8);
        token.extend_from_slice(key.id.as_bytes());
        token.extend_from_slice(payload);
        let tag = key.mac(purpose, &token).finalize().into_bytes();
        token.extend_from_slice(&tag);
        URL_SAFE_NO_PAD.encode(token)
    }

    /// The payload of a token sealed for `purpose` by any of these keys.
    ///
    /// # Errors
    ///
    /// [`SealError::Malformed`] when the text is not a sealed token of this format,
    /// [`SealError::UnknownKey`] when its key id is none of these keys, and
    /// [`SealError::Forged`] when its tag does not match (altered, made up, sealed for another
    /// purpose or with another secret). The tag is compared in constant time.
    pub fn open(&self, purpose: &str, token: &str) -> Result<Vec<u8>, SealError> {
        let bytes = URL_SAFE_NO_PAD
            .decode(token.trim())
            .map_err(|_| SealError::Malformed)?;
        let (&version, rest) = bytes.split_first().ok_or(SealError::Malformed)?;
        if version != VERSION {
            return Err(SealError::Malformed);
        }
        let (&id_len, rest) = rest.split_first().ok_or(SealError::Malformed)?;
        let id_len = usize::from(id_len);
        if rest.len() < id_len + TAG_LEN {
            return Err(SealError::Malformed);
        }
        let id = std::str::from_utf8(&rest[..id_len]).map_err(|_| SealError::Malformed)?;
        let key = self
            .keys
            .iter()
            .find(|k| k.id == id)
            .ok_or_else(|| SealError::UnknownKey { id: id.to_owned() })?;
        let (signed, tag) = bytes.split_at(bytes.len() - TAG_LEN);
        key.mac(purpose, signed)
            .verify_slice(tag)
            .map_err(|_| SealError::Forged)?;
        Ok(signed[2 + id_len..].to_vec())
    }
}

/// The payload of a sealed token, read without checking its seal: for code that runs after
/// [`SigningKeys::open`] accepted the same token (the runtime opens a cursor before the tool
/// deserializes it). Never trust what this returns on its own.
///
/// # Errors
///
/// [`SealError::Malformed`] when the text is not a sealed token of this format.
pub fn payload_unverified(token: &str) -> Result<Vec<u8>, SealError> {
    let bytes = URL_SAFE_NO_PAD
        .decode(token.trim())
        .map_err(|_| SealError::Malformed)?;
    match bytes.as_slice() {
        [VERSION, id_len, rest @ ..] if rest.len() >= usize::from(*id_len) + TAG_LEN => {
            Ok(rest[usize::from(*id_len)..rest.len() - TAG_LEN].to_vec())
        }
        _ => Err(SealError::Malformed),
    }
}

/// Why a token was not opened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SealError {
    /// Not a sealed token of this format (cut short, not base64, another version).
    #[error("not a sealed token of this format")]
    Malformed,
    /// Sealed with a key of this id, which is not among the keys this server accepts (retired,
    /// or another server's).
    #[error("sealed with key `{id}`, which this server does not accept")]
    UnknownKey {
        /// The key id the token names.
        id: String,
    },
    /// The tag does not match: the token was altered, made up, or sealed with another secret
    /// or for another purpose.
    #[error("the seal does not match: altered, forged, or sealed with another secret")]
    Forged,
}

/// Why keys were not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    /// No key at all.
    #[error("no signing key given")]
    Empty,
    /// An id that is empty, too long, or not made of `A-Z a-z 0-9 _ - .`.
    #[error("signing key id `{id}` must be 1 to 32 characters of A-Z a-z 0-9 _ - .")]
    BadId {
        /// The id given.
        id: String,
    },
    /// A secret shorter than [`MIN_SECRET_BYTES`].
    #[error(
        "signing key `{id}` has a {len}-byte secret; use at least 32 bytes \
         (e.g. `openssl rand -base64 32`)"
    )]
    ShortSecret {
        /// The key's id.
        id: String,
        /// The secret's length in bytes.
        len: usize,
    },
    /// Two keys with one id.
    #[error("two signing keys have the id `{id}`")]
    DuplicateId {
        /// The id given twice.
        id: String,
    },
    /// An entry of [`SigningKeys::parse`] without `id:`.
    #[error("signing key entry starting `{entry_start}` is not `id:secret`")]
    Syntax {
        /// The entry's first characters (not all of it: it may be a secret).
        entry_start: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET_A: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-A";
    const SECRET_B: &str = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb-B";

    fn keys(spec: &str) -> SigningKeys {
        SigningKeys::parse(spec).unwrap()
    }

    #[test]
    fn seals_and_opens_with_the_same_keys() {
        let k = keys(&format!("a:{SECRET_A}"));
        for payload in [&b""[..], b"x", &[0u8, 255, 7][..], &[42u8; 300][..]] {
            let token = k.seal("cursor", payload);
            assert!(
                token
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
                "{token}"
            );
            assert_eq!(k.open("cursor", &token).unwrap(), payload);
        }
    }

    #[test]
    fn every_altered_byte_is_refused() {
        let k = keys(&format!("a:{SECRET_A}"));
        let token = k.seal("cursor", b"position 20");
        let raw = URL_SAFE_NO_PAD.decode(&token).unwrap();
        for i in 0..raw.len() {
            let mut altered = raw.clone();
            altered[i] ^= 0x01;
            let result = k.open("cursor", &URL_SAFE_NO_PAD.encode(&altered));
            assert!(result.is_err(), "byte {i} altered and still accepted");
        }
        // Cut short, or garbage.
        assert!(k.open("cursor", &token[..token.len() - 2]).is_err());
        assert_eq!(k.open("cursor", "!!"), Err(SealError::Malformed));
        assert_eq!(k.open("cursor", ""), Err(SealError::Malformed));
    }

    #[test]
    fn another_secret_or_purpose_is_refused() {
        let token = keys(&format!("a:{SECRET_A}")).seal("cursor", b"p");
        assert_eq!(
            keys(&format!("a:{SECRET_B}")).open("cursor", &token),
            Err(SealError::Forged)
        );
        assert_eq!(
            keys(&format!("b:{SECRET_A}")).open("cursor", &token),
            Err(SealError::UnknownKey { id: "a".into() })
        );
        assert_eq!(
            keys(&format!("a:{SECRET_A}")).open("state", &token),
            Err(SealError::Forged)
        );
    }

    #[test]
    fn a_forged_token_under_a_known_id_is_refused() {
        // Someone who knows the format and the key id but not the secret.
        let mut raw = vec![VERSION, 1, b'a'];
        raw.extend_from_slice(b"position 9999");
        raw.extend_from_slice(&[0u8; TAG_LEN]);
        let forged = URL_SAFE_NO_PAD.encode(raw);
        assert_eq!(
            keys(&format!("a:{SECRET_A}")).open("cursor", &forged),
            Err(SealError::Forged)
        );
    }

    #[test]
    fn rotation_seals_with_the_first_and_opens_with_any() {
        let old = keys(&format!("old:{SECRET_A}"));
        let rotated = keys(&format!("new:{SECRET_B}, old:{SECRET_A}"));
        let retired = keys(&format!("new:{SECRET_B}"));
        let old_token = old.seal("cursor", b"1");
        assert_eq!(rotated.open("cursor", &old_token).unwrap(), b"1");
        let new_token = rotated.seal("cursor", b"2");
        assert_eq!(rotated.sealing_key_id(), "new");
        assert_eq!(retired.open("cursor", &new_token).unwrap(), b"2");
        assert_eq!(
            retired.open("cursor", &old_token),
            Err(SealError::UnknownKey { id: "old".into() })
        );
        assert_eq!(
            old.open("cursor", &new_token),
            Err(SealError::UnknownKey { id: "new".into() })
        );
    }

    #[test]
    fn bad_configuration_is_a_clear_error() {
        assert_eq!(SigningKeys::parse("").unwrap_err(), KeyError::Empty);
        assert_eq!(
            SigningKeys::parse("a:short").unwrap_err(),
            KeyError::ShortSecret {
                id: "a".into(),
                len: 5
            }
        );
        assert!(matches!(
            SigningKeys::parse(&format!("a b:{SECRET_A}")),
            Err(KeyError::BadId { .. })
        ));
        assert_eq!(
            SigningKeys::parse(&format!("a:{SECRET_A},a:{SECRET_B}")).unwrap_err(),
            KeyError::DuplicateId { id: "a".into() }
        );
        let e = SigningKeys::parse(SECRET_A).unwrap_err();
        assert_eq!(
            e,
            KeyError::Syntax {
                entry_start: "aaaaaaaa".into()
            }
        );
        // The message never carries the whole secret.
        assert!(!e.to_string().contains(SECRET_A));
        assert!(!format!("{:?}", keys(&format!("a:{SECRET_A}"))).contains(SECRET_A));
    }

    #[test]
    fn random_keys_differ_and_the_process_default_is_stable() {
        let a = SigningKeys::new([SigningKey::random()]).unwrap();
        let b = SigningKeys::new([SigningKey::random()]).unwrap();
        assert_ne!(a.sealing_key_id(), b.sealing_key_id());
        let token = a.seal("cursor", b"p");
        assert!(b.open("cursor", &token).is_err());
        let d1 = SigningKeys::process_default();
        let d2 = SigningKeys::default();
        assert_eq!(d1.sealing_key_id(), d2.sealing_key_id());
        assert_eq!(d2.open("cursor", &d1.seal("cursor", b"p")).unwrap(), b"p");
    }
}
