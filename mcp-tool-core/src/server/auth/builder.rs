//! The builder's authentication setting.

use super::HttpAuth;
use crate::server::ToolServerBuilder;

impl ToolServerBuilder {
    /// Requires a bearer token on every HTTP request to `/mcp`; see [`HttpAuth`]. Default:
    /// none, which is safe only on a loopback address. Serving stdio ignores it.
    ///
    /// ```
    /// use mcp_tool::ToolServer;
    /// use mcp_tool::auth::HttpAuth;
    ///
    /// let token = std::env::var("NOTES_TOKEN").unwrap_or_else(|_| "0123456789abcdef".into());
    /// let server = ToolServer::builder()
    ///     .name("notes")
    ///     .http_auth(HttpAuth::static_token(token).unwrap())
    ///     .build()
    ///     .unwrap();
    /// assert!(server.requires_http_auth());
    /// ```
    pub fn http_auth(mut self, auth: HttpAuth) -> Self {
        self.http.auth = Some(auth);
        self
    }
}

impl crate::server::ToolServer {
    /// Whether HTTP requests must carry a bearer token ([`ToolServerBuilder::http_auth`]).
    pub fn requires_http_auth(&self) -> bool {
        self.inner.http.auth.is_some()
    }
}
