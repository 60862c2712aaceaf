//! Serving a `ToolServer`: stdio, streamable HTTP, or any rmcp transport.

use super::framing::LineTransport;
use super::{Handler, ToolServer, host_origin, http_compat, http_guard};
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

/// How long after the handshake (or the HTTP listener's start) a release server runs its
/// schema lints: long enough for a client's `tools/list` and first calls to go first.
const LINT_DELAY: std::time::Duration = std::time::Duration::from_millis(500);

impl ToolServer {
    /// Serves one client over any rmcp transport (a duplex stream, a child's pipes, ...) until
    /// its input ends and every request read before is answered, or writing fails.
    pub async fn serve<T, E, A>(&self, transport: T) -> Result<(), ServeError>
    where
        T: IntoTransport<rmcp::RoleServer, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        self.serve_watched(transport, None::<std::future::Pending<()>>)
            .await
    }

    /// [`serve`](Self::serve), ending the session early when `output_closed` resolves.
    async fn serve_watched<T, E, A>(
        &self,
        transport: T,
        output_closed: Option<impl Future<Output = ()> + Send + 'static>,
    ) -> Result<(), ServeError>
    where
        T: IntoTransport<rmcp::RoleServer, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        let handler = Handler::new(self.clone());
        if let Some(closed) = output_closed {
            handler.end_session_when(closed);
        }
        let transport = handler.session_transport(transport);
        let running = handler
            .serve(transport)
            .await
            .map_err(|e| ServeError::Initialize(e.to_string()))?;
        self.lint_later(LINT_DELAY);
        running
            .waiting()
            .await
            .map_err(|e| ServeError::Session(e.to_string()))?;
        Ok(())
    }

    /// Serves one client over stdin/stdout. Logs must go to stderr: stdout carries the protocol.
    ///
    /// Every line gets an answer, as with [`serve_io`](Self::serve_io): when stdin closes,
    /// the requests read before are answered, then the session ends. When both are pipes or
    /// Unix sockets (a client spawned the server), they are read and written without blocking
    /// threads, in non-blocking mode until the session ends; nothing else may use them
    /// meanwhile. Then a client that closes its end of stdout (it exited) also ends the
    /// session at once, cancelling the calls in flight, whose answers nobody could read.
    pub async fn serve_stdio(&self) -> Result<(), ServeError> {
        #[cfg(unix)]
        if let Some((stdin, stdout, _restore)) = super::stdio_pipes::open() {
            let transport = LineTransport::new(stdin, stdout, self.inner.max_message_bytes);
            return self
                .serve_watched(transport, super::stdio_pipes::output_closed())
                .await;
        }
        let (stdin, stdout) = rmcp::transport::stdio();
        self.serve_io(stdin, stdout).await
    }

    /// Serves one client over newline-delimited JSON-RPC on any pair of byte streams (a
    /// child's pipes, a socket, a [`tokio::io::duplex`] in tests) until its input ends and
    /// every request read before is answered, or writing an answer fails.
    ///
    /// Every line gets an answer: a line that is not JSON `-32700` with `"id": null`, one
    /// that is not a JSON-RPC message `-32600`, a request whose params do not fit its method
    /// `-32602`; a bad notification is logged (stderr), never answered. A line longer than
    /// [`max_message_bytes`](super::ToolServerBuilder::max_message_bytes) is answered as soon
    /// as it crosses the limit and skipped to its newline without being held in memory. The
    /// session goes on after each of these.
    pub async fn serve_io<R, W>(&self, read: R, write: W) -> Result<(), ServeError>
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
        W: tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        self.serve(LineTransport::new(
            read,
            write,
            self.inner.max_message_bytes,
        ))
        .await
    }

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
        if !local.ip().is_loopback() && !self.requires_http_auth() {
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
        // Outermost: a request for another host is refused before it is asked for a token.
        let router = super::auth::protect(
            router,
            settings.auth.as_ref(),
            settings.session_idle_timeout,
        )
        .layer(axum::middleware::from_fn_with_state(
            Arc::clone(&self.inner.admission),
            host_origin::admit,
        ));
        tracing::info!(%local, path = HTTP_PATH, "serving MCP over streamable HTTP");
        self.lint_later(LINT_DELAY);
        http_guard::serve_connections(listener, router, settings).await?;
        Ok(())
    }
}
