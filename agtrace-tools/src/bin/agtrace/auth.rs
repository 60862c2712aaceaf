//! `agtrace serve --http`'s authentication flags: a static token from a file or the
//! environment (never from the command line, where `ps` shows it to every user), or an OAuth
//! authorization server whose JWTs are checked against its keys.

use super::Failure;
use mcp_tool::auth::{HttpAuth, JwksSource, JwtAuth};
use std::net::SocketAddr;
use std::path::PathBuf;

/// The environment variable that may hold the static token instead of a file.
pub const TOKEN_ENV: &str = "AGTRACE_AUTH_TOKEN";

// These docs are the `--help` text, where a URL reads best plain.
#[allow(rustdoc::bare_urls)]
#[derive(clap::Args, Default)]
pub struct AuthArgs {
    /// HTTP clients must send `Authorization: Bearer <token>` with the token in this file
    /// (or in the AGTRACE_AUTH_TOKEN environment variable)
    #[arg(long, value_name = "PATH", help_heading = "HTTP authentication")]
    auth_token_file: Option<PathBuf>,
    /// OAuth: the issuer (`iss`) of accepted JWT access tokens, e.g. https://auth.example.com
    #[arg(long, value_name = "URL", help_heading = "HTTP authentication")]
    auth_issuer: Option<String>,
    /// OAuth: the URL clients reach this server at, e.g. https://traces.example.com/mcp;
    /// tokens must name it in `aud`
    #[arg(long, value_name = "URL", help_heading = "HTTP authentication")]
    auth_resource: Option<String>,
    /// OAuth: the issuer's JWKS URL (keys fetched, kept, refreshed on an unknown `kid`)
    #[arg(long, value_name = "URL", help_heading = "HTTP authentication")]
    auth_jwks_url: Option<String>,
    /// OAuth: a JWKS file, instead of --auth-jwks-url
    #[arg(long, value_name = "PATH", help_heading = "HTTP authentication")]
    auth_jwks_file: Option<PathBuf>,
    /// OAuth: an `aud` value accepted instead of the resource URL (repeatable)
    #[arg(
        long = "auth-audience",
        value_name = "AUD",
        help_heading = "HTTP authentication"
    )]
    auth_audiences: Vec<String>,
    /// OAuth: a scope every token must carry (repeatable)
    #[arg(
        long = "auth-scope",
        value_name = "SCOPE",
        help_heading = "HTTP authentication"
    )]
    auth_scopes: Vec<String>,
}

impl AuthArgs {
    /// The authentication these flags (and AGTRACE_AUTH_TOKEN) ask for, if any.
    pub fn resolve(&self) -> Result<Option<HttpAuth>, Failure> {
        let token = self.static_token()?;
        let oauth = self.auth_issuer.is_some()
            || self.auth_resource.is_some()
            || self.auth_jwks_url.is_some()
            || self.auth_jwks_file.is_some();
        match (token, oauth) {
            (Some(_), true) => Err(Failure::usage(
                "give either a static token (--auth-token-file or AGTRACE_AUTH_TOKEN) or OAuth \
                 (--auth-issuer ...), not both",
            )),
            (Some(token), false) => Ok(Some(HttpAuth::static_token(token)?)),
            (None, true) => self.oauth().map(Some),
            (None, false) => Ok(None),
        }
    }

    fn static_token(&self) -> Result<Option<String>, Failure> {
        if let Some(path) = &self.auth_token_file {
            let text = std::fs::read_to_string(path).map_err(|e| {
                Failure::usage(format!(
                    "cannot read the token file {}: {e}",
                    path.display()
                ))
            })?;
            return Ok(Some(text.trim().to_owned()));
        }
        Ok(std::env::var(TOKEN_ENV)
            .ok()
            .filter(|t| !t.trim().is_empty()))
    }

    fn oauth(&self) -> Result<HttpAuth, Failure> {
        let (Some(issuer), Some(resource)) = (&self.auth_issuer, &self.auth_resource) else {
            return Err(Failure::usage(
                "OAuth needs --auth-issuer and --auth-resource, and --auth-jwks-url or \
                 --auth-jwks-file",
            ));
        };
        let keys = match (&self.auth_jwks_url, &self.auth_jwks_file) {
            (Some(url), None) => JwksSource::url(url)?,
            (None, Some(path)) => {
                let text = std::fs::read_to_string(path).map_err(|e| {
                    Failure::usage(format!("cannot read the JWKS file {}: {e}", path.display()))
                })?;
                JwksSource::from_json(&text)?
            }
            _ => {
                return Err(Failure::usage(
                    "OAuth needs exactly one of --auth-jwks-url and --auth-jwks-file",
                ));
            }
        };
        let mut config = JwtAuth::new(resource, issuer, keys)
            .required_scopes(&self.auth_scopes)
            .resource_name("agtrace");
        if !self.auth_audiences.is_empty() {
            config = config.audiences(&self.auth_audiences);
        }
        Ok(HttpAuth::jwt(config)?)
    }
}

/// Refuses to serve agent logs to the network without authentication.
pub fn check_exposure(addr: SocketAddr, auth: Option<&HttpAuth>) -> Result<(), Failure> {
    if addr.ip().is_loopback() || auth.is_some() {
        return Ok(());
    }
    Err(Failure::usage(format!(
        "refusing to serve HTTP on {addr} without authentication: anyone who reaches that \
         address could read your agent session logs. Require a token (--auth-token-file PATH, \
         or {TOKEN_ENV}), or OAuth (--auth-issuer, --auth-resource, --auth-jwks-url), or bind \
         127.0.0.1"
    )))
}
