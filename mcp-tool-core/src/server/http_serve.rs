//! Serving a `ToolServer` over streamable HTTP (feature `http`).

use super::transport::{HTTP_PATH, LINT_DELAY, ServeError};
use super::{Handler, ToolServer, host_origin, http_compat, http_guard};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::net::SocketAddr;
use std::sync::Arc;

impl ToolServer {
    /// Serves streamable HTTP at `http://ADDR/mcp` until the process ends.
    pub async fn serve_http(&self, addr: SocketAddr) -> Result<(), ServeError> {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        self.serve_http_on(listener).await
    }

    /// Serves streamable HTTP at `/mcp` on an already bound listener (e.g. port 0 in tests).
    ///
    /// Guarded as set on the builder: `Origin` allow-list, header, body and idle timeouts, a
    /// connection limit, a message size limit, idle sessions closed; every bad message
    /// answered with a JSON-RPC error; see
    /// [`ToolServerBuilder::allowed_origins`](super::ToolServerBuilder::allowed_origins) and the
    /// settings after it.
    pub async fn serve_http_on(&self, listener: tokio::net::TcpListener) -> Result<(), ServeError> {
        let local = listener.local_addr()?;
        let settings = &self.inner.http;
        let limits = http_guard::BodyLimits {
            max_bytes: self.inner.max_message_bytes,
            timeout: settings.body_timeout,
        };
        // Host and Origin are checked before rmcp, exactly (server/host_origin.rs); rmcp's
        // own checks read them more loosely and know nothing of the connection's address.
        let mut config = StreamableHttpServerConfig::default()
            .disable_allowed_hosts()
            .disable_allowed_origins()
            // The body was read and checked within `limits` before rmcp sees it.
            .with_max_request_body_bytes(limits.max_bytes);
        // Replicas (server/stateless_http.rs): no sessions, so any replica answers any POST.
        config = super::stateless_http::configure(config, self.inner.stateless_http);
        if !local.ip().is_loopback() && !self.authenticates() {
            tracing::warn!(
                %local,
                "serving MCP over HTTP on a non-loopback address: other machines can reach \
                 these tools, and there is no authentication; bind 127.0.0.1 or set \
                 `http_auth` unless that is meant"
            );
        }
        let mut sessions = LocalSessionManager::default();
        sessions.session_config.keep_alive = Some(settings.session_idle_timeout);
        let server = self.clone();
        let service = StreamableHttpService::new(
            move || Ok(Handler::new(server.clone())),
            Arc::new(sessions),
            config,
        );
        let router = axum::Router::new()
            .nest_service(HTTP_PATH, service)
            .layer(axum::middleware::from_fn(http_compat::client_compat))
            .layer(axum::middleware::from_fn_with_state(
                limits,
                http_guard::check_messages,
            ));
        #[cfg(feature = "auth")]
        let router = super::auth::protect(
            router,
            settings.auth.as_ref(),
            settings.session_idle_timeout,
        );
        // Outermost: a request for another host is refused before it is asked for a token.
        let router = router.layer(axum::middleware::from_fn_with_state(
            Arc::clone(&self.inner.admission),
            host_origin::admit,
        ));
        tracing::info!(%local, path = HTTP_PATH, "serving MCP over streamable HTTP");
        self.lint_later(LINT_DELAY);
        http_guard::serve_connections(listener, router, settings).await?;
        Ok(())
    }

    /// Whether HTTP requests must carry a token; never without the `auth` feature.
    fn authenticates(&self) -> bool {
        #[cfg(feature = "auth")]
        return self.requires_http_auth();
        #[cfg(not(feature = "auth"))]
        false
    }
}
