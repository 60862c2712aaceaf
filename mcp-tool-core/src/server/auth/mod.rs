//! Who may call a server over HTTP: a bearer token on every request to `/mcp`.
//!
//! Two ways to check it, set with [`ToolServerBuilder::http_auth`](super::ToolServerBuilder::http_auth):
//!
//! - [`HttpAuth::jwt`]: the server is an OAuth 2.1 resource server, as the MCP authorization
//!   spec describes. Tokens are JWTs from an authorization server, checked against its key set
//!   (JWKS) for signature, issuer, audience and expiry, and for scopes when some are required.
//!   The server publishes its protected-resource metadata (RFC 9728) so that clients find the
//!   authorization server, and names it in every `401`.
//! - [`HttpAuth::static_token`]: one shared secret, for a few clients set up by hand.
//!
//! Either way an HTTP session belongs to the token holder (JWT issuer and subject) that
//! opened it: another one's requests for it get `404`. And stdio is not concerned: whoever starts the process already holds its pipes.

mod builder;
mod jwks;
mod jwt;
mod metadata;
mod middleware;
mod session_owners;
mod static_token;

pub use jwks::JwksSource;
pub use jwt::JwtAuth;
pub(crate) use middleware::protect;

use static_token::StaticToken;
use std::sync::Arc;

/// How HTTP requests prove they may call the server; see the [module docs](self).
#[derive(Clone)]
pub struct HttpAuth {
    pub(crate) check: Arc<Check>,
}

pub(crate) enum Check {
    Static(StaticToken),
    Jwt(Box<jwt::Verifier>),
}

impl std::fmt::Debug for HttpAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the token itself.
        match &*self.check {
            Check::Static(_) => f.write_str("HttpAuth::StaticToken"),
            Check::Jwt(v) => f
                .debug_struct("HttpAuth::Jwt")
                .field("issuer", &v.config.issuer)
                .field("resource", &v.config.resource)
                .finish_non_exhaustive(),
        }
    }
}

impl HttpAuth {
    /// Requests must carry `Authorization: Bearer <token>` with exactly this token. The
    /// comparison takes the same time whatever the token sent, so timing tells an attacker
    /// nothing about how much of a guess was right.
    ///
    /// # Errors
    ///
    /// A token shorter than [`MIN_STATIC_TOKEN_LEN`](Self::MIN_STATIC_TOKEN_LEN) characters
    /// (after trimming white space), which could be guessed.
    pub fn static_token(token: impl AsRef<str>) -> Result<Self, AuthConfigError> {
        Ok(Self {
            check: Arc::new(Check::Static(StaticToken::new(token.as_ref())?)),
        })
    }

    /// The shortest static token accepted: 16 characters.
    pub const MIN_STATIC_TOKEN_LEN: usize = static_token::MIN_LEN;

    /// Requests must carry a JWT access token that `config` accepts; see [`JwtAuth`].
    pub fn jwt(config: JwtAuth) -> Result<Self, AuthConfigError> {
        Ok(Self {
            check: Arc::new(Check::Jwt(Box::new(jwt::Verifier::new(config)?))),
        })
    }
}

/// An authentication setting that cannot work, found when it is made rather than on the
/// first request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct AuthConfigError(pub(crate) String);
