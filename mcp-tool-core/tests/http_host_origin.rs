//! `Host` and `Origin` over raw connections: the address a client reached and the hosts the
//! author added are served; lax readings that once passed (user info, a port that is not a
//! number, a second header after an allowed one, an absolute-form target) are refused, and a
//! refusal never repeats what the client sent.

use mcp_tool::{ToolServer, ToolServerBuilder};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

async fn serve_on(
    ip: &str,
    configure: impl FnOnce(ToolServerBuilder) -> ToolServerBuilder,
) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind((ip, 0)).await.unwrap();
    let addr = listener.local_addr().unwrap();
    let builder = ToolServer::builder()
        .name("host-origin")
        .version("0.0.0")
        .with_definitions(Vec::new());
    let server = configure(builder).build().unwrap();
    tokio::spawn(async move { server.serve_http_on(listener).await });
    addr
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;

/// `initialize` sent to `addr` with `target` and these headers (besides the content ones),
/// the whole response read back.
async fn send(addr: SocketAddr, target: &str, headers: &[(&str, &str)]) -> String {
    let mut request = format!(
        "POST {target} HTTP/1.1\r\nConnection: close\r\n\
         Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n",
        INITIALIZE.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(INITIALIZE);
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut response))
        .await
        .expect("the server answers and closes")
        .unwrap();
    String::from_utf8_lossy(&response).into_owned()
}

fn served(response: &str) -> bool {
    response.starts_with("HTTP/1.1 200") && response.contains("serverInfo")
}

fn refused(response: &str, status: &str) -> bool {
    response.starts_with(&format!("HTTP/1.1 {status}")) && !response.contains("serverInfo")
}

#[tokio::test]
async fn the_address_a_client_reached_is_a_host_it_may_name() {
    // 127.0.0.2 stands in for another address of this machine (loopback routes 127/8).
    let addr = serve_on("127.0.0.2", |b| b).await;
    let host = addr.to_string();
    assert!(served(&send(addr, "/mcp", &[("Host", &host)]).await));
    for name in ["localhost", "127.0.0.1", "[::1]"] {
        let host = format!("{name}:{}", addr.port());
        assert!(
            served(&send(addr, "/mcp", &[("Host", &host)]).await),
            "{host}"
        );
    }
    let other = format!("127.0.0.3:{}", addr.port());
    let response = send(addr, "/mcp", &[("Host", &other)]).await;
    assert!(refused(&response, "403"), "{response}");
}

#[tokio::test]
async fn hosts_the_author_allows_are_served_by_name_and_port() {
    let addr = serve_on("127.0.0.1", |b| {
        b.allowed_hosts(["mcp.example.com", "proxy.example.com:8443"])
    })
    .await;
    for host in [
        "mcp.example.com",
        "MCP.example.com:9000",
        "proxy.example.com:8443",
    ] {
        assert!(
            served(&send(addr, "/mcp", &[("Host", host)]).await),
            "{host}"
        );
    }
    for host in [
        "proxy.example.com:8444",
        "proxy.example.com",
        "evil.example",
    ] {
        let response = send(addr, "/mcp", &[("Host", host)]).await;
        assert!(refused(&response, "403"), "{host}: {response}");
    }
}

#[tokio::test]
async fn lax_readings_of_host_and_origin_are_refused() {
    let addr = serve_on("127.0.0.1", |b| b).await;
    let host = addr.to_string();
    let cases: &[&[(&str, &str)]] = &[
        &[
            ("Host", &host),
            ("Origin", "http://localhost:1234.evil.example"),
        ],
        &[
            ("Host", &host),
            ("Origin", "http://evil.example:80@localhost:1234"),
        ],
        &[("Host", &host), ("Origin", "http://localhost:1234/")],
        &[
            ("Host", &host),
            ("Origin", "http://localhost:5173"),
            ("Origin", "http://evil.example"),
        ],
        &[("Host", &host), ("Host", "evil.example")],
        &[("Host", "evil.example:80@127.0.0.1")],
        &[("Host", "localhost:1234.evil.example")],
    ];
    for headers in cases {
        let response = send(addr, "/mcp", headers).await;
        assert!(refused(&response, "403"), "{headers:?}: {response}");
        assert!(!response.contains("evil"), "echoes the client: {response}");
    }
    let allowed = [("Host", host.as_str()), ("Origin", "http://localhost:5173")];
    assert!(served(&send(addr, "/mcp", &allowed).await));
}

#[tokio::test]
async fn an_absolute_form_target_is_refused() {
    let addr = serve_on("127.0.0.1", |b| b).await;
    let host = addr.to_string();
    let target = format!("http://{host}/mcp");
    let response = send(addr, &target, &[("Host", &host)]).await;
    assert!(refused(&response, "400"), "{response}");
    assert!(response.contains("origin-form"), "{response}");
}

#[test]
fn unreadable_allowed_hosts_and_origins_fail_the_build() {
    let Err(error) = ToolServer::builder()
        .with_definitions(Vec::new())
        .allowed_hosts(["mcp.example.com", "user@mcp.example.com"])
        .allowed_origins(["https://app.example.com/"])
        .build()
    else {
        panic!("the build succeeds with unreadable settings");
    };
    assert_eq!(error.problems.len(), 2, "{error}");
    assert!(
        error.problems[0].contains("\"user@mcp.example.com\""),
        "{error}"
    );
    assert!(
        error.problems[1].contains("\"https://app.example.com/\""),
        "{error}"
    );
}
