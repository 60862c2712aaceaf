//! What real MCP clients need from streamable HTTP beyond rmcp's defaults.
//!
//! - A session ended with `DELETE` is answered `200 OK`, not `202 Accepted`: the Python SDK
//!   logs `Session termination failed: 202` on every close otherwise.
//! - SSE streams open with a priming event (an id and empty data, SEP-1699) only for clients
//!   of revision 2025-11-25 or later, which know it. The SDK inside Gemini CLI, a 2025-06-18
//!   client, parses the empty data as JSON and drops the server with all its tools.

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use futures::{Stream, StreamExt, stream};

/// The first protocol revision whose clients expect a priming event.
const PRIMING_SINCE: &str = "2025-11-25";

/// Axum middleware around the rmcp service; see the module docs.
pub(crate) async fn client_compat(request: Request, next: Next) -> Response {
    let is_delete = request.method() == Method::DELETE;
    let wants_priming = protocol_version(request.headers()).is_some_and(|v| v >= PRIMING_SINCE);
    let mut response = next.run(request).await;
    if is_delete && response.status() == StatusCode::ACCEPTED {
        *response.status_mut() = StatusCode::OK;
    }
    if is_event_stream(response.headers()) && !wants_priming {
        response = response.map(|body| Body::from_stream(without_priming(body)));
    }
    response
}

fn protocol_version(headers: &HeaderMap) -> Option<&str> {
    headers.get("mcp-protocol-version")?.to_str().ok()
}

fn is_event_stream(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"))
}

/// The body with its first SSE event dropped when that event carries no data.
fn without_priming(body: Body) -> impl Stream<Item = Result<Bytes, axum::Error>> + Send {
    let chunks = body.into_data_stream();
    // The head is buffered until the first event is complete; after that, chunks pass as
    // they come.
    stream::unfold(
        (chunks, Some(Vec::new())),
        |(mut chunks, mut head)| async move {
            loop {
                let Some(buffer) = head.as_mut() else {
                    let chunk = chunks.next().await?;
                    return Some((chunk, (chunks, None)));
                };
                match chunks.next().await {
                    Some(Ok(chunk)) => {
                        buffer.extend_from_slice(&chunk);
                        let Some(end) = first_event_end(buffer) else {
                            continue;
                        };
                        let mut rest = head.take().unwrap_or_default();
                        if carries_no_data(&rest[..end]) {
                            rest.drain(..end);
                        }
                        if !rest.is_empty() {
                            return Some((Ok(Bytes::from(rest)), (chunks, None)));
                        }
                    }
                    Some(Err(e)) => return Some((Err(e), (chunks, head))),
                    None => {
                        let rest = head.take().unwrap_or_default();
                        return (!rest.is_empty()).then(|| (Ok(Bytes::from(rest)), (chunks, None)));
                    }
                }
            }
        },
    )
}

/// Where the first event ends (after its blank line), if it is complete.
fn first_event_end(buffer: &[u8]) -> Option<usize> {
    let lf = buffer.windows(2).position(|w| w == b"\n\n").map(|i| i + 2);
    let crlf = buffer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| i + 4);
    match (lf, crlf) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

fn carries_no_data(event: &[u8]) -> bool {
    String::from_utf8_lossy(event)
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .all(|data| data.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn filtered(chunks: &[&'static str]) -> String {
        let parts: Vec<Result<Bytes, std::io::Error>> = chunks
            .iter()
            .map(|c| Ok(Bytes::from_static(c.as_bytes())))
            .collect();
        let body = Body::from_stream(stream::iter(parts));
        let out: Vec<Bytes> = without_priming(body)
            .map(|c| c.expect("chunk"))
            .collect()
            .await;
        out.iter()
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .collect()
    }

    #[tokio::test]
    async fn a_priming_event_is_dropped_and_the_rest_passes_whole() {
        let message = "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\nid: 0/1\n\n";
        assert_eq!(
            filtered(&["id: 0\nretry: 3000\ndata:\n\n", message]).await,
            message
        );
        // The priming event split over chunks, and sharing a chunk with the next event.
        assert_eq!(
            filtered(&["id: 0\nre", "try: 3000\ndata:\n\n", message]).await,
            message
        );
        let both = format!("id: 0\ndata: \n\n{message}");
        assert_eq!(filtered(&[Box::leak(both.into_boxed_str())]).await, message);
    }

    #[tokio::test]
    async fn a_first_event_with_data_is_kept() {
        let message = "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n";
        assert_eq!(
            filtered(&[message, message]).await,
            format!("{message}{message}")
        );
        assert_eq!(filtered(&["data: {}\r\n\r\n"]).await, "data: {}\r\n\r\n");
    }
}
