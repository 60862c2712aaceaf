//! A client that sends a request's headers and then stalls in its body, or trickles it, is
//! cut off after the body timeout with `408` and a JSON-RPC error, instead of holding a
//! connection (one of a limited number) forever.

use mcp_tool::ToolServer;
use serde_json::Value;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const BODY_TIMEOUT: Duration = Duration::from_secs(1);

async fn serve() -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = ToolServer::builder()
        .name("slow-body")
        .version("0.0.0")
        .with_definitions(Vec::new())
        .http_body_timeout(BODY_TIMEOUT)
        .build()
        .unwrap();
    tokio::spawn(async move { server.serve_http_on(listener).await });
    addr
}

/// Headers promising a 100-byte body, and the first 10 bytes of it.
fn opening(addr: SocketAddr) -> String {
    format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\n\
         Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n\
         Content-Length: 100\r\n\r\n{{\"jsonrpc\""
    )
}

/// Reads until the server closes the connection; how long that took and what it sent.
async fn until_closed(stream: &mut tokio::net::tcp::OwnedReadHalf) -> (Duration, String) {
    let started = Instant::now();
    let mut response = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut response))
        .await
        .expect("the server closes the connection")
        .unwrap();
    (
        started.elapsed(),
        String::from_utf8_lossy(&response).into_owned(),
    )
}

fn assert_timed_out(held: Duration, response: &str) {
    assert!(
        held >= BODY_TIMEOUT - Duration::from_millis(100),
        "closed after {held:?}"
    );
    assert!(response.starts_with("HTTP/1.1 408"), "{response}");
    let body = response.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    let answer: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"));
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    assert_eq!(answer.get("id"), Some(&Value::Null), "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("did not arrive within 1 s of its headers"),
        "{message}"
    );
}

#[tokio::test]
async fn a_body_that_stalls_midway_is_cut_off_after_the_body_timeout() {
    let addr = serve().await;
    let (mut read, mut write) = TcpStream::connect(addr).await.unwrap().into_split();
    write.write_all(opening(addr).as_bytes()).await.unwrap();
    let (held, response) = until_closed(&mut read).await;
    assert_timed_out(held, &response);
}

#[tokio::test]
async fn a_trickled_body_is_cut_off_after_the_body_timeout() {
    let addr = serve().await;
    let (mut read, mut write) = TcpStream::connect(addr).await.unwrap().into_split();
    write.write_all(opening(addr).as_bytes()).await.unwrap();
    // A byte every 100 ms: always something new, never the whole body in time.
    let trickle = tokio::spawn(async move {
        for _ in 0..80 {
            tokio::time::sleep(Duration::from_millis(100)).await;
            if write.write_all(b" ").await.is_err() {
                break;
            }
        }
    });
    let (held, response) = until_closed(&mut read).await;
    assert_timed_out(held, &response);
    trickle.abort();
}

#[tokio::test]
async fn a_body_that_arrives_in_time_in_pieces_is_served() {
    let addr = serve().await;
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n",
        body.len()
    );
    let (mut read, mut write) = TcpStream::connect(addr).await.unwrap().into_split();
    write.write_all(head.as_bytes()).await.unwrap();
    for piece in body.as_bytes().chunks(40) {
        tokio::time::sleep(Duration::from_millis(50)).await;
        write.write_all(piece).await.unwrap();
    }
    let (_, response) = until_closed(&mut read).await;
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains("serverInfo"), "{response}");
}
