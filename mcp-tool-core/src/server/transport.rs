//! Serving a `ToolServer`: stdio or any rmcp transport (streamable HTTP: `http_serve.rs`).

use super::framing::LineTransport;
use super::{Handler, ToolServer};
use rmcp::ServiceExt;
use rmcp::transport::IntoTransport;

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
pub(super) const LINT_DELAY: std::time::Duration = std::time::Duration::from_millis(500);

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
}
