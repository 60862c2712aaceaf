//! The streamable HTTP transport against clients that are not friends, on raw connections:
//! a foreign `Origin` gets `403` and no data, a connection that stalls in its headers or sits
//! idle is closed, and at the connection limit an idle connection gives way to a newcomer,
//! while busy ones make later clients wait, not fail.

use mcp_tool::{ToolServer, ToolServerBuilder};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

async fn serve(configure: impl FnOnce(ToolServerBuilder) -> ToolServerBuilder) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let builder = ToolServer::builder()
        .name("http-guard")
        .version("0.0.0")
        .with_definitions(Vec::new());
    let server = configure(builder).build().unwrap();
    tokio::spawn(async move { server.serve_http_on(listener).await });
    addr
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;

fn request(addr: SocketAddr, origin: Option<&str>, close: bool) -> String {
    let mut request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\n\
         Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n",
        INITIALIZE.len()
    );
    if close {
        request.push_str("Connection: close\r\n");
    }
    if let Some(origin) = origin {
        request.push_str(&format!("Origin: {origin}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(INITIALIZE);
    request
}

/// Writes `bytes` on a fresh connection and reads until the server closes it.
async fn until_closed(addr: SocketAddr, bytes: &str, limit: Duration) -> String {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(bytes.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    tokio::time::timeout(limit, stream.read_to_end(&mut response))
        .await
        .expect("the server closes the connection")
        .unwrap();
    String::from_utf8_lossy(&response).into_owned()
}

async fn initialize(addr: SocketAddr, origin: Option<&str>) -> String {
    until_closed(addr, &request(addr, origin, true), Duration::from_secs(10)).await
}

#[tokio::test]
async fn a_foreign_origin_gets_403_and_no_data() {
    let addr = serve(|b| b).await;
    for origin in [
        "http://evil.example",
        "null",
        "https://localhost.evil.example",
    ] {
        let response = initialize(addr, Some(origin)).await;
        assert!(response.starts_with("HTTP/1.1 403"), "{origin}: {response}");
        assert!(!response.contains("serverInfo"), "{origin}: {response}");
    }
    for origin in [
        None,
        Some("http://localhost:5173"),
        Some("http://127.0.0.1"),
        Some("https://[::1]:8443"),
    ] {
        let response = initialize(addr, origin).await;
        assert!(
            response.starts_with("HTTP/1.1 200"),
            "{origin:?}: {response}"
        );
        assert!(response.contains("serverInfo"), "{origin:?}: {response}");
    }
}

#[tokio::test]
async fn the_origin_allow_list_is_configurable() {
    let addr = serve(|b| b.allowed_origins(["https://app.example.com:*"])).await;
    let allowed = initialize(addr, Some("https://app.example.com")).await;
    assert!(allowed.starts_with("HTTP/1.1 200"), "{allowed}");
    let localhost = initialize(addr, Some("http://localhost:5173")).await;
    assert!(localhost.starts_with("HTTP/1.1 403"), "{localhost}");

    let none: [&str; 0] = [];
    let addr = serve(|b| b.allowed_origins(none)).await;
    let localhost = initialize(addr, Some("http://localhost:5173")).await;
    assert!(localhost.starts_with("HTTP/1.1 403"), "{localhost}");
    let no_origin = initialize(addr, None).await;
    assert!(no_origin.starts_with("HTTP/1.1 200"), "{no_origin}");
}

#[tokio::test]
async fn a_connection_stalled_in_its_headers_is_closed_after_the_header_timeout() {
    let addr = serve(|b| b.http_header_timeout(Duration::from_secs(1))).await;
    let started = Instant::now();
    let response = until_closed(addr, "POST /mc", Duration::from_secs(5)).await;
    let held = started.elapsed();
    assert!(held >= Duration::from_millis(900), "closed after {held:?}");
    assert!(!response.contains("serverInfo"), "{response}");
}

#[tokio::test]
async fn an_idle_kept_alive_connection_is_closed_after_the_header_timeout() {
    let addr = serve(|b| b.http_header_timeout(Duration::from_secs(1))).await;
    let started = Instant::now();
    let response = until_closed(addr, &request(addr, None, false), Duration::from_secs(5)).await;
    assert!(response.contains("serverInfo"), "{response}");
    let held = started.elapsed();
    assert!(held >= Duration::from_millis(900), "closed after {held:?}");
}

#[tokio::test]
async fn past_the_connection_limit_a_slow_client_gives_way_to_a_newcomer() {
    let addr = serve(|b| {
        b.http_header_timeout(Duration::from_secs(10))
            .http_max_connections(2)
    })
    .await;
    // Slowloris: connections that send part of a request line and stop.
    let mut slow = Vec::new();
    for _ in 0..2 {
        let mut stream = TcpStream::connect(addr).await.unwrap();
        stream.write_all(b"POST /mc").await.unwrap();
        slow.push(stream);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    for _ in 0..3 {
        let started = Instant::now();
        let response = initialize(addr, None).await;
        assert!(response.contains("serverInfo"), "{response}");
        let waited = started.elapsed();
        assert!(waited < Duration::from_secs(1), "served after {waited:?}");
    }
    // The one idle longest was closed to make room.
    let mut closed = 0;
    for stream in &mut slow {
        let mut buffer = [0u8; 64];
        if let Ok(Ok(0)) =
            tokio::time::timeout(Duration::from_secs(1), stream.read(&mut buffer)).await
        {
            closed += 1;
        }
    }
    assert!(closed >= 1, "no slow connection was closed");
}

#[tokio::test]
async fn past_the_connection_limit_clients_wait_for_busy_ones() {
    let addr = serve(|b| {
        b.http_body_timeout(Duration::from_secs(2))
            .http_max_connections(2)
    })
    .await;
    // Requests in flight: headers sent, the body still coming.
    let mut busy = Vec::new();
    for _ in 0..2 {
        let mut stream = TcpStream::connect(addr).await.unwrap();
        let head = format!(
            "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{{"
        );
        stream.write_all(head.as_bytes()).await.unwrap();
        busy.push(stream);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let started = Instant::now();
    let response = initialize(addr, None).await;
    let waited = started.elapsed();
    assert!(response.contains("serverInfo"), "{response}");
    assert!(
        waited >= Duration::from_millis(1200),
        "served after {waited:?}, before a busy connection was done"
    );
    drop(busy);
}
