//! One shared secret, compared in constant time.

use super::AuthConfigError;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// The shortest token accepted, in characters.
pub(crate) const MIN_LEN: usize = 16;

/// The token's SHA-256, not the token: comparing digests of equal length in constant time
/// reveals neither the token's bytes nor its length through timing.
pub(crate) struct StaticToken {
    digest: [u8; 32],
}

impl StaticToken {
    pub fn new(token: &str) -> Result<Self, AuthConfigError> {
        let token = token.trim();
        if token.chars().count() < MIN_LEN {
            return Err(AuthConfigError(format!(
                "the static token has {} characters; use at least {MIN_LEN} random ones \
                 (e.g. `openssl rand -hex 32`)",
                token.chars().count()
            )));
        }
        Ok(Self {
            digest: Sha256::digest(token.as_bytes()).into(),
        })
    }

    pub fn matches(&self, presented: &str) -> bool {
        let presented: [u8; 32] = Sha256::digest(presented.as_bytes()).into();
        self.digest.ct_eq(&presented).into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_same_token_matches() {
        let token = StaticToken::new("  0123456789abcdef0123\n").unwrap();
        assert!(token.matches("0123456789abcdef0123"));
        assert!(!token.matches("0123456789abcdef012"));
        assert!(!token.matches("0123456789abcdef01234"));
        assert!(!token.matches(""));
    }

    #[test]
    fn a_short_token_is_refused_with_its_length() {
        let error = StaticToken::new("secret").err().unwrap();
        assert!(error.0.contains("6 characters"), "{error}");
    }
}
