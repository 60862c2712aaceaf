//! Streamable HTTP as real clients need it, checked on the raw bytes: no SSE priming event
//! for a client older than 2025-11-25 (Gemini CLI's SDK drops the server over it), one for a
//! client that knows it, and `DELETE` answered `200` (the Python SDK warns on `202`).

use mcp_tool::ToolServer;
use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

async fn serve() -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = ToolServer::builder()
        .name("http-compat")
        .version("0.0.0")
        .with_definitions(Vec::new())
        .build()
        .unwrap();
    tokio::spawn(async move { server.serve_http_on(listener).await });
    addr
}

/// Sends one request on a fresh connection and returns the whole response as text.
async fn exchange(addr: SocketAddr, method: &str, headers: &[(&str, &str)], body: &str) -> String {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let mut request = format!(
        "{method} /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    tokio::time::timeout(
        std::time::Duration::from_secs(10),
        stream.read_to_end(&mut response),
    )
    .await
    .expect("the server closes the response")
    .unwrap();
    String::from_utf8_lossy(&response).into_owned()
}

fn initialize(version: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{{}},"clientInfo":{{"name":"raw","version":"1"}}}}}}"#
    )
}

fn header<'a>(response: &'a str, name: &str) -> Option<&'a str> {
    response
        .split("\r\n\r\n")
        .next()?
        .lines()
        .find_map(|l| {
            l.split_once(':')
                .filter(|(n, _)| n.eq_ignore_ascii_case(name))
        })
        .map(|(_, v)| v.trim())
}

#[tokio::test]
async fn a_2025_06_18_client_gets_no_priming_event_and_a_200_on_delete() {
    let addr = serve().await;
    let response = exchange(addr, "POST", &[], &initialize("2025-06-18")).await;
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(
        response.contains(r#""protocolVersion":"2025-06-18""#),
        "{response}"
    );
    assert!(
        !response.contains("retry:"),
        "a priming event was sent: {response}"
    );

    let session = header(&response, "mcp-session-id").expect("a session id");
    let closed = exchange(
        addr,
        "DELETE",
        &[
            ("Mcp-Session-Id", session),
            ("MCP-Protocol-Version", "2025-06-18"),
        ],
        "",
    )
    .await;
    assert!(closed.starts_with("HTTP/1.1 200"), "{closed}");
}

#[tokio::test]
async fn a_2025_11_25_client_keeps_its_priming_event() {
    let addr = serve().await;
    let response = exchange(
        addr,
        "POST",
        &[("MCP-Protocol-Version", "2025-11-25")],
        &initialize("2025-11-25"),
    )
    .await;
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains("retry:"), "no priming event: {response}");
    assert!(
        response.contains(r#""protocolVersion":"2025-11-25""#),
        "{response}"
    );
}
