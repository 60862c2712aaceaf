//! What keeps a streamable HTTP server alive and private when the client is not a friend.
//!
//! - `Origin` is checked against an allow-list (localhost only by default), as the MCP spec
//!   requires against DNS rebinding: a page on `http://evil.example` that resolves its name to
//!   127.0.0.1 gets `403` and no data. Requests without `Origin` (every non-browser client) pass.
//! - A connection has [`ToolServerBuilder::DEFAULT_HEADER_TIMEOUT`] to send a request's headers, counted from the
//!   moment the server waits for them: a client that sends half a request line and stops, and
//!   a kept-alive connection left idle, are both closed then.
//! - At most [`ToolServerBuilder::DEFAULT_MAX_CONNECTIONS`] connections are served at once; the next waits in the
//!   listen backlog until one closes, instead of the process running out of file descriptors
//!   and every client failing.
//! - A session with no request for [`ToolServerBuilder::DEFAULT_SESSION_IDLE_TIMEOUT`] is closed and its memory
//!   freed; `DELETE` frees it at once.

use super::ToolServerBuilder;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// The HTTP transport's guards, set on [`ToolServerBuilder`](super::ToolServerBuilder).
#[derive(Debug, Clone)]
pub(crate) struct HttpSettings {
    pub allowed_origins: Vec<String>,
    pub header_timeout: Duration,
    pub max_connections: usize,
    pub session_idle_timeout: Duration,
}

impl Default for HttpSettings {
    fn default() -> Self {
        Self {
            allowed_origins: ToolServerBuilder::DEFAULT_ALLOWED_ORIGINS
                .iter()
                .map(|o| o.to_string())
                .collect(),
            header_timeout: ToolServerBuilder::DEFAULT_HEADER_TIMEOUT,
            max_connections: ToolServerBuilder::DEFAULT_MAX_CONNECTIONS,
            session_idle_timeout: ToolServerBuilder::DEFAULT_SESSION_IDLE_TIMEOUT,
        }
    }
}

/// Accepts connections and serves `router` on each over HTTP/1.1 until the listener fails.
///
/// HTTP/1.1 only: hyper's HTTP/2 detection reads the connection preface with no deadline, so a
/// client that sends a few bytes and stops would be held forever. MCP clients speak HTTP/1.1.
pub(crate) async fn serve_connections(
    listener: TcpListener,
    router: Router,
    settings: &HttpSettings,
) -> std::io::Result<()> {
    let slots = Arc::new(Semaphore::new(settings.max_connections.max(1)));
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(settings.header_timeout);
    loop {
        // Waiting for a slot before accepting leaves further connections in the kernel's
        // backlog: they are served, late, when a slot frees, rather than refused.
        let slot = Arc::clone(&slots)
            .acquire_owned()
            .await
            .expect("the semaphore is never closed");
        let (tcp, _peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors, or a connection reset before it was accepted:
                // waiting a moment lets the first pass; the second is harmless.
                tracing::warn!(error = %e, "accepting an HTTP connection failed");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        // Without TCP_NODELAY, a response written in two parts on a kept-alive connection
        // waits for the client's delayed ACK: ~40 ms a call instead of under one.
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "could not set TCP_NODELAY");
        }
        let service = TowerToHyperService::new(router.clone());
        let connection = builder
            .serve_connection(TokioIo::new(tcp), service)
            .with_upgrades();
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(error = %e, "HTTP connection closed");
            }
            drop(slot);
        });
    }
}
