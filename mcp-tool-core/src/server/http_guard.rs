//! What keeps a streamable HTTP server alive and private when the client is not a friend.
//!
//! - `Host` and `Origin` are read strictly and checked against allow-lists (this machine by
//!   default), as the MCP spec requires against DNS rebinding: a page on `http://evil.example`
//!   that resolves its name to 127.0.0.1 gets `403` and no data ([`super::host_origin`]).
//!   Requests without `Origin` (every non-browser client) pass.
//! - A connection has [`ToolServerBuilder::DEFAULT_HEADER_TIMEOUT`] to send a request's headers, counted from the
//!   moment the server waits for them: a client that sends half a request line and stops, and
//!   a kept-alive connection left idle, are both closed then.
//! - A request's body has [`ToolServerBuilder::DEFAULT_BODY_TIMEOUT`] to arrive once its
//!   headers are in: a client that trickles it or stalls mid-body gets `408` and is closed.
//! - A body is read up to [`ToolServerBuilder::DEFAULT_MAX_MESSAGE_BYTES`] and checked before
//!   rmcp sees it: one that is too large, not JSON, or not a JSON-RPC message is answered
//!   with a JSON-RPC error in the body (`413` or `400`); a request whose params do not fit
//!   its method gets its `-32602` (`200`). rmcp would answer plain text or nothing.
//! - At most [`ToolServerBuilder::DEFAULT_MAX_CONNECTIONS`] connections are served at once,
//!   fewer where the open-file limit leaves less room; when all are taken, the one idle
//!   longest (a slowloris client still sending its headers) is closed for a newcomer, and
//!   only when all are busy does the next wait in the listen backlog
//!   ([`super::connection_slots`]), instead of the process running out of file descriptors
//!   and every client failing.
//! - A session with no request for [`ToolServerBuilder::DEFAULT_SESSION_IDLE_TIMEOUT`] is closed and its memory
//!   freed; `DELETE` frees it at once.

use super::ToolServerBuilder;
use super::connection_slots::{Busy, Slot, Slots};
use super::wire::{self, Refusal};
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use rmcp::model::ErrorCode;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::time::Instant;
use tower::ServiceExt as _;

/// The HTTP transport's guards, set on [`ToolServerBuilder`](super::ToolServerBuilder).
#[derive(Debug, Clone)]
pub(crate) struct HttpSettings {
    pub allowed_origins: Vec<String>,
    pub allowed_hosts: Vec<String>,
    pub header_timeout: Duration,
    pub body_timeout: Duration,
    pub max_connections: usize,
    pub session_idle_timeout: Duration,
    #[cfg(feature = "auth")]
    pub auth: Option<super::auth::HttpAuth>,
}

impl Default for HttpSettings {
    fn default() -> Self {
        Self {
            allowed_origins: ToolServerBuilder::DEFAULT_ALLOWED_ORIGINS
                .iter()
                .map(|o| o.to_string())
                .collect(),
            allowed_hosts: Vec::new(),
            header_timeout: ToolServerBuilder::DEFAULT_HEADER_TIMEOUT,
            body_timeout: ToolServerBuilder::DEFAULT_BODY_TIMEOUT,
            max_connections: ToolServerBuilder::DEFAULT_MAX_CONNECTIONS,
            session_idle_timeout: ToolServerBuilder::DEFAULT_SESSION_IDLE_TIMEOUT,
            #[cfg(feature = "auth")]
            auth: None,
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
    let slots = Slots::new(connection_cap(settings.max_connections));
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(settings.header_timeout);
    loop {
        // Waiting for room before accepting leaves further connections in the kernel's
        // backlog: they are served, late, when a connection finishes, rather than refused.
        slots.room().await;
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
        let (slot, evicted) = loop {
            match slots.take() {
                Some(taken) => break taken,
                None => slots.room().await,
            }
        };
        // Without TCP_NODELAY, a response written in two parts on a kept-alive connection
        // waits for the client's delayed ACK: ~40 ms a call instead of under one.
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "could not set TCP_NODELAY");
        }
        let Ok(local) = tcp.local_addr() else {
            continue;
        };
        let slot = Arc::new(slot);
        let service = connection_service(router.clone(), local, Arc::clone(&slot));
        let connection = builder
            .serve_connection(TokioIo::new(tcp), TowerToHyperService::new(service))
            .with_upgrades();
        tokio::spawn(async move {
            tokio::select! {
                served = connection => if let Err(e) = served {
                    tracing::debug!(error = %e, "HTTP connection closed");
                },
                // Dropping the connection closes it: its slot went to a newcomer.
                _ = evicted => {}
            }
            drop(slot);
        });
    }
}

/// The configured connection limit, lowered to what the descriptor limit leaves room for.
fn connection_cap(configured: usize) -> usize {
    let Some(budget) = super::connection_slots::descriptor_budget() else {
        return configured;
    };
    if budget >= configured {
        return configured;
    }
    let cap = budget.max(1);
    tracing::warn!(
        configured,
        cap,
        "the open-file limit (ulimit -n) leaves room for {cap} HTTP connections; \
         raise it to serve {configured} at once"
    );
    cap
}

/// `router` for one connection: each request carries the address the client reached
/// (for [`super::host_origin`]) and marks the connection busy until its response is sent.
fn connection_service(
    router: Router,
    local: SocketAddr,
    slot: Arc<Slot>,
) -> impl tower::Service<
    hyper::Request<hyper::body::Incoming>,
    Response = Response,
    Error = std::convert::Infallible,
    Future = impl Send,
> + Clone {
    tower::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
        request
            .extensions_mut()
            .insert(super::host_origin::LocalAddr(local));
        let busy = slot.busy();
        let router = router.clone();
        async move {
            let response = router.oneshot(request.map(Body::new)).await?;
            Ok(response.map(|body| Body::new(WhileSending { body, _busy: busy })))
        }
    })
}

/// A response body that keeps its connection marked busy until it is sent (or dropped).
struct WhileSending {
    body: Body,
    _busy: Busy,
}

impl hyper::body::Body for WhileSending {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<hyper::body::Frame<Bytes>, axum::Error>>> {
        std::pin::Pin::new(&mut self.get_mut().body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.body.size_hint()
    }
}

/// How a request body is read before [`check_messages`] lets it through.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BodyLimits {
    pub max_bytes: usize,
    pub timeout: Duration,
}

/// Axum middleware: reads a `POST` body within [`BodyLimits`] and answers what
/// [`wire::check`] refuses; see the module docs.
pub(crate) async fn check_messages(
    State(limits): State<BodyLimits>,
    request: Request,
    next: Next,
) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let bytes = match read_body(body, limits).await {
        Ok(bytes) => bytes,
        Err(BodyProblem::TooLarge { drained }) => {
            let response = refused(
                StatusCode::PAYLOAD_TOO_LARGE,
                &Refusal::too_large(limits.max_bytes),
            );
            return if drained { response } else { closing(response) };
        }
        Err(BodyProblem::Stalled) => {
            tracing::debug!(timeout = ?limits.timeout, "an HTTP request body stalled");
            let refusal = Refusal::invalid_request(format!(
                "the request body did not arrive within {} s of its headers \
                 (http_body_timeout); the connection is closed",
                limits.timeout.as_secs_f64()
            ));
            return closing(refused(StatusCode::REQUEST_TIMEOUT, &refusal));
        }
        Err(BodyProblem::Read(e)) => {
            tracing::debug!(error = %e, "reading an HTTP request body failed");
            let refusal =
                Refusal::invalid_request(format!("the request body could not be read: {e}"));
            return closing(refused(StatusCode::BAD_REQUEST, &refusal));
        }
    };
    if let Err(refusal) = wire::check(&bytes) {
        refusal.log();
        // A request that was understood gets its error as its answer; anything else is a
        // bad HTTP request, with the JSON-RPC error as the body the spec allows.
        let status = if refusal.code == ErrorCode::INVALID_PARAMS.0 && !refusal.notification {
            StatusCode::OK
        } else if refusal.code == ErrorCode::METHOD_NOT_FOUND.0 {
            // A method the request's own revision (2026-07-28) does not have.
            StatusCode::NOT_FOUND
        } else {
            StatusCode::BAD_REQUEST
        };
        return refused(status, &refusal);
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

enum BodyProblem {
    /// Over the limit; `drained` when the rest was read (and dropped) in time, so the
    /// connection can be kept.
    TooLarge {
        drained: bool,
    },
    Stalled,
    Read(axum::Error),
}

/// The whole body, if it is within the limit and arrives in time. A body over the limit is
/// read on and dropped until its end, so the client, still sending, gets to read the answer.
async fn read_body(body: Body, limits: BodyLimits) -> Result<Bytes, BodyProblem> {
    let deadline = Instant::now() + limits.timeout;
    let mut chunks = body.into_data_stream();
    let mut collected: Vec<u8> = Vec::new();
    let mut too_large = false;
    let mut first: Option<Bytes> = None;
    loop {
        let chunk = match tokio::time::timeout_at(deadline, chunks.next()).await {
            Err(_) if too_large => return Err(BodyProblem::TooLarge { drained: false }),
            Err(_) => return Err(BodyProblem::Stalled),
            Ok(None) => break,
            Ok(Some(Err(e))) => return Err(BodyProblem::Read(e)),
            Ok(Some(Ok(chunk))) => chunk,
        };
        if too_large {
            continue;
        }
        let held = first.as_ref().map_or(collected.len(), Bytes::len);
        if held + chunk.len() > limits.max_bytes {
            too_large = true;
            first = None;
            collected = Vec::new();
            continue;
        }
        // Most bodies come in one chunk: it is passed on without a copy.
        match first.take() {
            None if collected.is_empty() => first = Some(chunk),
            None => collected.extend_from_slice(&chunk),
            Some(head) => {
                collected.extend_from_slice(&head);
                collected.extend_from_slice(&chunk);
            }
        }
    }
    if too_large {
        return Err(BodyProblem::TooLarge { drained: true });
    }
    Ok(first.unwrap_or_else(|| Bytes::from(collected)))
}

fn refused(status: StatusCode, refusal: &Refusal) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        refusal.answer(),
    )
        .into_response()
}

/// The response, and the connection closed after it.
fn closing(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}
