//! The authorization server's public keys: a fixed set, or fetched from its JWKS URL, kept,
//! and fetched again when they age or a token names a key the server has not seen (keys
//! are rotated by publishing the new one before signing with it).

use super::AuthConfigError;
use jsonwebtoken::jwk::{Jwk, JwkSet, PublicKeyUse};
use jsonwebtoken::{Algorithm, AlgorithmFamily, DecodingKey};
use std::collections::HashMap;
use std::str::FromStr;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

/// Where the keys that sign access tokens come from.
///
/// ```
/// use mcp_tool::auth::JwksSource;
/// use std::time::Duration;
///
/// let remote = JwksSource::url("https://auth.example.com/.well-known/jwks.json")
///     .unwrap()
///     .max_age(Duration::from_secs(600));
/// let fixed = JwksSource::from_json(r#"{"keys": [{"kty": "EC", "crv": "P-256", "kid": "k1",
///     "x": "MKBCTNIcKUSDii11ySs3526iDZ8AiTo7Tu6KPAqv7D4",
///     "y": "4Etl6SRW2YiLUrN5vfvVHuhp7x8PxltmWWlbbM4IFyM"}]}"#).unwrap();
/// # let _ = (remote, fixed);
/// ```
#[derive(Debug, Clone)]
pub struct JwksSource {
    kind: Kind,
}

#[derive(Debug, Clone)]
enum Kind {
    Fixed(Arc<KeySet>),
    Url {
        url: reqwest::Url,
        max_age: Duration,
        min_refresh: Duration,
    },
}

impl JwksSource {
    /// How long fetched keys are used before they are fetched again: 1 hour.
    pub const DEFAULT_MAX_AGE: Duration = Duration::from_secs(3600);

    /// How soon after a fetch a token with an unknown key id may cause another: 10 s, so
    /// that tokens with made-up key ids cannot make the server hammer the authorization server.
    pub const DEFAULT_MIN_REFRESH_INTERVAL: Duration = Duration::from_secs(10);

    /// A fixed key set, as JWKS JSON (`{"keys": [...]}`), e.g. read from a file.
    ///
    /// # Errors
    ///
    /// Text that is not a JWK set, or a set without any key that can verify signatures
    /// (symmetric and encryption keys are left out).
    pub fn from_json(json: &str) -> Result<Self, AuthConfigError> {
        let set: JwkSet = serde_json::from_str(json)
            .map_err(|e| AuthConfigError(format!("the JWKS is not a JWK set: {e}")))?;
        let keys = KeySet::new(&set);
        if keys.is_empty() {
            return Err(AuthConfigError(
                "the JWKS has no public signature key (RSA, EC or Ed25519)".into(),
            ));
        }
        Ok(Self {
            kind: Kind::Fixed(Arc::new(keys)),
        })
    }

    /// Keys fetched from the authorization server's `jwks_uri` when first needed, then again
    /// after [`max_age`](Self::max_age), or when a token names a key id not in the set.
    ///
    /// # Errors
    ///
    /// Not a URL, or not `https` (plain `http` only to a loopback address, for tests and
    /// local authorization servers).
    pub fn url(url: &str) -> Result<Self, AuthConfigError> {
        let parsed = reqwest::Url::parse(url)
            .map_err(|e| AuthConfigError(format!("the JWKS URL `{url}` is not a URL: {e}")))?;
        let loopback = parsed.host_str().is_some_and(|host| {
            host == "localhost"
                || host
                    .trim_matches(['[', ']'])
                    .parse::<std::net::IpAddr>()
                    .is_ok_and(|ip| ip.is_loopback())
        });
        if parsed.scheme() != "https" && !(parsed.scheme() == "http" && loopback) {
            return Err(AuthConfigError(format!(
                "the JWKS URL `{url}` must be https (http only on a loopback address): \
                 keys fetched in the clear could be replaced on the way"
            )));
        }
        Ok(Self {
            kind: Kind::Url {
                url: parsed,
                max_age: Self::DEFAULT_MAX_AGE,
                min_refresh: Self::DEFAULT_MIN_REFRESH_INTERVAL,
            },
        })
    }

    /// How long fetched keys are used before being fetched again; default
    /// [`DEFAULT_MAX_AGE`](Self::DEFAULT_MAX_AGE). No effect on a fixed set.
    pub fn max_age(mut self, age: Duration) -> Self {
        if let Kind::Url { max_age, .. } = &mut self.kind {
            *max_age = age;
        }
        self
    }

    /// How soon after a fetch an unknown key id may cause another; default
    /// [`DEFAULT_MIN_REFRESH_INTERVAL`](Self::DEFAULT_MIN_REFRESH_INTERVAL). No effect on a
    /// fixed set.
    pub fn min_refresh_interval(mut self, interval: Duration) -> Self {
        if let Kind::Url { min_refresh, .. } = &mut self.kind {
            *min_refresh = interval;
        }
        self
    }
}

/// A verification key and the algorithms a token signed with it may name.
pub(crate) struct Key {
    pub decoding: DecodingKey,
    pub algorithms: Vec<Algorithm>,
}

/// Usable keys by key id; keys without an id are used only when the set has one key.
#[derive(Default)]
pub(crate) struct KeySet {
    by_kid: HashMap<String, Arc<Key>>,
    all: Vec<Arc<Key>>,
}

impl std::fmt::Debug for KeySet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeySet")
            .field("kids", &self.by_kid.keys().collect::<Vec<_>>())
            .field("keys", &self.all.len())
            .finish()
    }
}

impl KeySet {
    fn new(set: &JwkSet) -> Self {
        let mut keys = Self::default();
        for jwk in &set.keys {
            match usable(jwk) {
                Ok(key) => {
                    let key = Arc::new(key);
                    if let Some(kid) = &jwk.common.key_id {
                        keys.by_kid.insert(kid.clone(), Arc::clone(&key));
                    }
                    keys.all.push(key);
                }
                Err(why) => tracing::debug!(kid = ?jwk.common.key_id, "JWKS key skipped: {why}"),
            }
        }
        keys
    }

    fn is_empty(&self) -> bool {
        self.all.is_empty()
    }

    fn find(&self, kid: Option<&str>) -> Option<Arc<Key>> {
        match kid {
            Some(kid) => self.by_kid.get(kid).cloned(),
            None if self.all.len() == 1 => self.all.first().cloned(),
            None => None,
        }
    }
}

fn usable(jwk: &Jwk) -> Result<Key, String> {
    if let Some(use_) = &jwk.common.public_key_use
        && *use_ != PublicKeyUse::Signature
    {
        return Err("not a signature key".into());
    }
    let decoding = DecodingKey::from_jwk(jwk).map_err(|e| e.to_string())?;
    let family = decoding.family();
    if family == AlgorithmFamily::Hmac {
        // A shared secret in a published key set would let anyone sign.
        return Err("symmetric keys are not accepted".into());
    }
    let algorithms = match &jwk.common.key_algorithm {
        Some(alg) => {
            let alg = Algorithm::from_str(&alg.to_string()).map_err(|e| e.to_string())?;
            if !family.algorithms().contains(&alg) {
                return Err(format!("`alg` {alg:?} does not fit the key type"));
            }
            vec![alg]
        }
        None => family.algorithms().to_vec(),
    };
    Ok(Key {
        decoding,
        algorithms,
    })
}

/// Why no key was found for a token.
#[derive(Debug)]
pub(crate) enum KeyProblem {
    /// The token's `kid` is not in the set, even after fetching it again.
    UnknownKid(String),
    /// The token names no `kid` and the set has more than one key.
    NoKid,
    /// The keys could not be fetched and none are known.
    Unavailable(String),
}

/// The keys of a [`JwksSource`], as verification uses them.
pub(crate) struct Keys {
    kind: Kind,
    remote: Option<Remote>,
}

struct Remote {
    client: reqwest::Client,
    current: RwLock<Fetched>,
    /// One fetch at a time: requests that find the keys missing wait for it, then re-check.
    fetching: tokio::sync::Mutex<()>,
}

#[derive(Default, Clone)]
struct Fetched {
    keys: Option<Arc<KeySet>>,
    at: Option<Instant>,
}

impl Keys {
    pub fn new(source: JwksSource) -> Result<Self, AuthConfigError> {
        let remote = match &source.kind {
            Kind::Fixed(_) => None,
            Kind::Url { .. } => Some(Remote {
                client: reqwest::Client::builder()
                    .timeout(Duration::from_secs(10))
                    .build()
                    .map_err(|e| {
                        AuthConfigError(format!("no HTTP client for the JWKS URL: {e}"))
                    })?,
                current: RwLock::default(),
                fetching: tokio::sync::Mutex::new(()),
            }),
        };
        Ok(Self {
            kind: source.kind,
            remote,
        })
    }

    /// The key for a token whose header names `kid`.
    pub async fn find(&self, kid: Option<&str>) -> Result<Arc<Key>, KeyProblem> {
        let (url, max_age, min_refresh, remote) = match (&self.kind, &self.remote) {
            (Kind::Fixed(set), _) => return found(set, kid),
            (
                Kind::Url {
                    url,
                    max_age,
                    min_refresh,
                },
                Some(remote),
            ) => (url, *max_age, *min_refresh, remote),
            (Kind::Url { .. }, None) => unreachable!("a URL source always has its client"),
        };
        let wanted = |fetched: &Fetched| -> Option<Arc<Key>> {
            let fresh = fetched.at.is_some_and(|at| at.elapsed() < max_age);
            fetched
                .keys
                .as_ref()
                .filter(|_| fresh)
                .and_then(|k| k.find(kid))
        };
        let snapshot = remote.current();
        if let Some(key) = wanted(&snapshot) {
            return Ok(key);
        }
        let _one_fetch = remote.fetching.lock().await;
        let before = remote.current();
        if let Some(key) = wanted(&before) {
            return Ok(key); // fetched while this request waited
        }
        let stale = before.at.is_none_or(|at| at.elapsed() >= max_age);
        let may_refresh = before.at.is_none_or(|at| at.elapsed() >= min_refresh);
        if stale || may_refresh {
            match remote.fetch(url).await {
                Ok(set) => {
                    let set = Arc::new(set);
                    *remote.current.write().unwrap_or_else(|p| p.into_inner()) = Fetched {
                        keys: Some(Arc::clone(&set)),
                        at: Some(Instant::now()),
                    };
                    return found(&set, kid);
                }
                Err(e) => {
                    tracing::warn!(url = %url, error = %e, "fetching the JWKS failed");
                    if before.keys.is_none() {
                        return Err(KeyProblem::Unavailable(e));
                    }
                    // Keys a little past their age beat refusing every client.
                }
            }
        }
        match &before.keys {
            Some(set) => found(set, kid),
            None => Err(KeyProblem::Unavailable("no keys fetched yet".into())),
        }
    }
}

fn found(set: &KeySet, kid: Option<&str>) -> Result<Arc<Key>, KeyProblem> {
    set.find(kid).ok_or_else(|| match kid {
        Some(kid) => KeyProblem::UnknownKid(kid.to_owned()),
        None => KeyProblem::NoKid,
    })
}

/// The largest JWKS document read: real ones are a few kB.
const MAX_JWKS_BYTES: usize = 1 << 20;

impl Remote {
    fn current(&self) -> Fetched {
        self.current
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    async fn fetch(&self, url: &reqwest::Url) -> Result<KeySet, String> {
        let mut response = self
            .client
            .get(url.clone())
            .header(reqwest::header::ACCEPT, "application/json")
            .send()
            .await
            .map_err(|e| e.to_string())?;
        if !response.status().is_success() {
            return Err(format!("HTTP {}", response.status()));
        }
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|e| e.to_string())? {
            if body.len() + chunk.len() > MAX_JWKS_BYTES {
                return Err(format!("the JWKS is larger than {MAX_JWKS_BYTES} bytes"));
            }
            body.extend_from_slice(&chunk);
        }
        let set: JwkSet =
            serde_json::from_slice(&body).map_err(|e| format!("not a JWK set: {e}"))?;
        let keys = KeySet::new(&set);
        tracing::debug!(url = %url, ?keys, "fetched the JWKS");
        Ok(keys)
    }
}
