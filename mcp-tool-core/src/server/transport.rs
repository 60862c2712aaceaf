//! Serving a `ToolServer`: stdio, streamable HTTP, or any rmcp transport.

use super::{Handler, ToolServer, http_compat};
use axum::serve::ListenerExt;
use rmcp::ServiceExt;
use rmcp::transport::IntoTransport;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use std::net::SocketAddr;
use std::sync::Arc;

/// Serving failed: the transport could not start, or the session ended in an error.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The `initialize` handshake failed (the client spoke something else, or hung up).
    #[error("the MCP session could not start: {0}")]
    Initialize(String),
    /// The session started, then ended with a transport or protocol error.
    #[error("the MCP session ended with an error: {0}")]
    Session(String),
    /// Binding or serving the HTTP listener failed (address in use, no permission).
    #[error("HTTP server error: {0}")]
    Io(#[from] std::io::Error),
}

/// The path the streamable HTTP endpoint is served at.
pub const HTTP_PATH: &str = "/mcp";

impl ToolServer {
    /// Serves one client over any rmcp transport (a duplex stream, a child's pipes, ...) until
    /// the client disconnects.
    pub async fn serve<T, E, A>(&self, transport: T) -> Result<(), ServeError>
    where
        T: IntoTransport<rmcp::RoleServer, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let running = Handler::new(self.clone())
            .serve(transport)
            .await
            .map_err(|e| ServeError::Initialize(e.to_string()))?;
        running
            .waiting()
            .await
            .map_err(|e| ServeError::Session(e.to_string()))?;
        Ok(())
    }

    /// Serves one client over stdin/stdout. Logs must go to stderr: stdout carries the protocol.
    pub async fn serve_stdio(&self) -> Result<(), ServeError> {
        self.serve(rmcp::transport::stdio()).await
    }

    /// Serves streamable HTTP at `http://ADDR/mcp` until the process ends.
    pub async fn serve_http(&self, addr: SocketAddr) -> Result<(), ServeError> {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        self.serve_http_on(listener).await
    }

    /// Serves streamable HTTP at `/mcp` on an already bound listener (e.g. port 0 in tests).
    pub async fn serve_http_on(&self, listener: tokio::net::TcpListener) -> Result<(), ServeError> {
        let local = listener.local_addr()?;
        let mut config = StreamableHttpServerConfig::default();
        if !local.ip().is_loopback() {
            // rmcp accepts only loopback Host headers by default (DNS-rebinding protection);
            // a server bound elsewhere was meant to be reached at that address.
            config.allowed_hosts.push(local.ip().to_string());
        }
        let server = self.clone();
        let service = StreamableHttpService::new(
            move || Ok(Handler::new(server.clone())),
            Arc::new(LocalSessionManager::default()),
            config,
        );
        let router = axum::Router::new()
            .nest_service(HTTP_PATH, service)
            .layer(axum::middleware::from_fn(http_compat::client_compat));
        tracing::info!(%local, path = HTTP_PATH, "serving MCP over streamable HTTP");
        // Without TCP_NODELAY, a response written in two parts on a kept-alive connection
        // waits for the client's delayed ACK: ~40 ms a call instead of under one.
        let listener = listener.tap_io(|tcp| {
            if let Err(e) = tcp.set_nodelay(true) {
                tracing::debug!(error = %e, "could not set TCP_NODELAY");
            }
        });
        axum::serve(listener, router).await?;
        Ok(())
    }
}
