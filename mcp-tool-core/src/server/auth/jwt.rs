//! JWT access tokens: signature against the JWKS, then issuer, audience, expiry and scopes.

use super::AuthConfigError;
use super::jwks::{JwksSource, KeyProblem, Keys};
use super::metadata;
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Validation, decode, decode_header};
use serde_json::{Map, Value};
use std::time::Duration;

/// An OAuth 2.1 resource server's settings: which tokens this server accepts.
///
/// ```
/// use mcp_tool::auth::{HttpAuth, JwksSource, JwtAuth};
///
/// let auth = HttpAuth::jwt(
///     JwtAuth::new(
///         "https://traces.example.com/mcp",
///         "https://auth.example.com",
///         JwksSource::url("https://auth.example.com/.well-known/jwks.json").unwrap(),
///     )
///     .required_scopes(["traces:read"]),
/// )
/// .unwrap();
/// # let _ = auth;
/// ```
#[derive(Debug, Clone)]
pub struct JwtAuth {
    pub(crate) resource: String,
    pub(crate) issuer: String,
    pub(crate) audiences: Vec<String>,
    pub(crate) authorization_servers: Vec<String>,
    pub(crate) scopes: Vec<String>,
    pub(crate) leeway: Duration,
    pub(crate) resource_name: Option<String>,
    keys: JwksSource,
}

impl JwtAuth {
    /// The clock skew allowed on `exp` and `nbf`: 60 s.
    pub const DEFAULT_LEEWAY: Duration = Duration::from_secs(60);

    /// Tokens signed by a key of `keys`, issued by `issuer` (the `iss` claim, exactly) for
    /// `resource` (the `aud` claim must name it). `resource` is this server's canonical URL
    /// as clients reach it, e.g. `https://traces.example.com/mcp`: the MCP spec has clients
    /// ask for tokens for it (RFC 8707), and the protected-resource metadata names it.
    pub fn new(resource: impl Into<String>, issuer: impl Into<String>, keys: JwksSource) -> Self {
        let resource = resource.into();
        let issuer = issuer.into();
        Self {
            audiences: vec![resource.clone()],
            authorization_servers: vec![issuer.clone()],
            resource,
            issuer,
            scopes: Vec::new(),
            leeway: Self::DEFAULT_LEEWAY,
            resource_name: None,
            keys,
        }
    }

    /// The `aud` values accepted instead of the resource URL, for authorization servers that
    /// put a client or API id there. A token naming any one of them passes.
    pub fn audiences<I, S>(mut self, audiences: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.audiences = audiences.into_iter().map(Into::into).collect();
        self
    }

    /// Scopes every token must carry (in its `scope` or `scp` claim); a token without one of
    /// them gets `403` with `error="insufficient_scope"`. Also listed as `scopes_supported`
    /// in the metadata. Default: none.
    pub fn required_scopes<I, S>(mut self, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// The authorization servers the metadata tells clients to get tokens from, instead of
    /// the issuer alone.
    pub fn authorization_servers<I, S>(mut self, servers: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.authorization_servers = servers.into_iter().map(Into::into).collect();
        self
    }

    /// The clock skew allowed on `exp` and `nbf`; default
    /// [`DEFAULT_LEEWAY`](Self::DEFAULT_LEEWAY).
    pub fn leeway(mut self, leeway: Duration) -> Self {
        self.leeway = leeway;
        self
    }

    /// A human-readable name for the metadata's `resource_name`.
    pub fn resource_name(mut self, name: impl Into<String>) -> Self {
        self.resource_name = Some(name.into());
        self
    }
}

/// Why a token was refused.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Rejection {
    /// `401`, `error="invalid_token"`, with a description the client may show.
    Invalid(String),
    /// `403`, `error="insufficient_scope"`: the scopes the token lacks.
    InsufficientScope(Vec<String>),
    /// `503`: the keys to check the token could not be had.
    Unavailable(String),
}

pub(crate) struct Verifier {
    pub config: JwtAuth,
    /// Where the protected-resource metadata is, as `401`s name it.
    pub metadata_url: String,
    keys: Keys,
}

impl Verifier {
    pub fn new(config: JwtAuth) -> Result<Self, AuthConfigError> {
        let metadata_url = metadata::metadata_url(&config.resource)?;
        if config.issuer.trim().is_empty() {
            return Err(AuthConfigError("the token issuer is empty".into()));
        }
        if config.audiences.iter().all(|a| a.trim().is_empty()) {
            return Err(AuthConfigError("no token audience is accepted".into()));
        }
        let keys = Keys::new(config.keys.clone())?;
        Ok(Self {
            config,
            metadata_url,
            keys,
        })
    }

    /// The token's claims, if it is signed by a known key and meant for this server now.
    pub async fn verify(&self, token: &str) -> Result<Map<String, Value>, Rejection> {
        let header = decode_header(token)
            .map_err(|_| Rejection::Invalid("the token is not a JWT".into()))?;
        let key = self
            .keys
            .find(header.kid.as_deref())
            .await
            .map_err(|problem| match problem {
                KeyProblem::UnknownKid(kid) => {
                    // The id is the client's text: logged escaped, never sent back.
                    tracing::debug!(?kid, "a token names a key the issuer does not publish");
                    Rejection::Invalid(
                        "the token is signed with a key (`kid`) the issuer does not publish".into(),
                    )
                }
                KeyProblem::NoKid => Rejection::Invalid(
                    "the token names no key (`kid`) and the issuer has several".into(),
                ),
                KeyProblem::Unavailable(why) => Rejection::Unavailable(format!(
                    "the issuer's signing keys could not be fetched: {why}"
                )),
            })?;
        let mut validation = Validation::new(header.alg);
        validation.algorithms = key.algorithms.clone();
        validation.leeway = self.config.leeway.as_secs();
        validation.validate_nbf = true;
        validation.set_issuer(&[&self.config.issuer]);
        validation.set_audience(&self.config.audiences);
        validation.set_required_spec_claims(&["exp", "iss", "aud"]);
        let claims = decode::<Map<String, Value>>(token, &key.decoding, &validation)
            .map_err(|e| Rejection::Invalid(describe(e.kind())))?
            .claims;
        let granted = scopes(&claims);
        let missing: Vec<String> = self
            .config
            .scopes
            .iter()
            .filter(|s| !granted.contains(&s.as_str()))
            .cloned()
            .collect();
        if !missing.is_empty() {
            return Err(Rejection::InsufficientScope(missing));
        }
        Ok(claims)
    }
}

/// What a client is told about a token that failed, without detail an attacker could use.
fn describe(kind: &ErrorKind) -> String {
    match kind {
        ErrorKind::ExpiredSignature => "the token has expired".into(),
        ErrorKind::ImmatureSignature => "the token is not valid yet (`nbf`)".into(),
        ErrorKind::InvalidAudience => "the token was not issued for this server (`aud`)".into(),
        ErrorKind::InvalidIssuer => "the token's issuer is not trusted (`iss`)".into(),
        ErrorKind::InvalidSignature => "the token's signature does not verify".into(),
        ErrorKind::InvalidAlgorithm => "the token's algorithm does not fit its key".into(),
        ErrorKind::MissingRequiredClaim(claim) => format!("the token has no `{claim}` claim"),
        _ => "the token is not a valid JWT".into(),
    }
}

/// The scopes a token grants: `scope` (space-separated, RFC 9068), or `scp` (a list or a
/// string, as some authorization servers write it).
fn scopes(claims: &Map<String, Value>) -> Vec<&str> {
    let mut granted = Vec::new();
    for name in ["scope", "scp"] {
        match claims.get(name) {
            Some(Value::String(s)) => granted.extend(s.split_whitespace()),
            Some(Value::Array(items)) => granted.extend(items.iter().filter_map(Value::as_str)),
            _ => {}
        }
    }
    granted
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn scopes_come_from_scope_or_scp() {
        let claims = json!({"scope": "a b", "scp": ["c"]});
        assert_eq!(scopes(claims.as_object().unwrap()), ["a", "b", "c"]);
        assert!(scopes(json!({"scope": 3}).as_object().unwrap()).is_empty());
    }
}
