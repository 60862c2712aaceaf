//! Streamable HTTP sessions are freed: on `DELETE` at once, and when idle after the session
//! timeout. A bounded soak on loopback (many sessions, a few thousand requests) leaves the
//! process's memory and thread count where they were after a warm-up.

use mcp_tool::{ToolServer, ToolServerBuilder};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

async fn serve(configure: impl FnOnce(ToolServerBuilder) -> ToolServerBuilder) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let builder = ToolServer::builder()
        .name("http-soak")
        .version("0.0.0")
        .with_definitions(Vec::new());
    let server = configure(builder).build().unwrap();
    tokio::spawn(async move { server.serve_http_on(listener).await });
    addr
}

async fn exchange(addr: SocketAddr, method: &str, session: Option<&str>, body: &str) -> String {
    let mut request = format!(
        "{method} /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n\
         MCP-Protocol-Version: 2025-06-18\r\nContent-Length: {}\r\n",
        body.len()
    );
    if let Some(session) = session {
        request.push_str(&format!("Mcp-Session-Id: {session}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut response))
        .await
        .expect("the server closes the response")
        .unwrap();
    String::from_utf8_lossy(&response).into_owned()
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
const PING: &str = r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#;
const LIST: &str = r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#;

async fn open_session(addr: SocketAddr) -> String {
    let response = exchange(addr, "POST", None, INITIALIZE).await;
    let session = response
        .lines()
        .find_map(|l| {
            l.split_once(':')
                .filter(|(n, _)| n.eq_ignore_ascii_case("mcp-session-id"))
        })
        .map(|(_, v)| v.trim().to_string())
        .unwrap_or_else(|| panic!("no session id: {response}"));
    let notified = exchange(addr, "POST", Some(&session), INITIALIZED).await;
    assert!(notified.starts_with("HTTP/1.1 202"), "{notified}");
    session
}

/// One whole session: open, two calls, `DELETE`.
async fn session_round(addr: SocketAddr) {
    let session = open_session(addr).await;
    for body in [PING, LIST] {
        let answer = exchange(addr, "POST", Some(&session), body).await;
        assert!(answer.contains(r#""result""#), "{answer}");
    }
    let deleted = exchange(addr, "DELETE", Some(&session), "").await;
    assert!(deleted.starts_with("HTTP/1.1 200"), "{deleted}");
    let after = exchange(addr, "POST", Some(&session), PING).await;
    assert!(
        after.starts_with("HTTP/1.1 404"),
        "a deleted session answered: {after}"
    );
}

fn status(field: &str) -> u64 {
    let text = std::fs::read_to_string("/proc/self/status").unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {field} in /proc/self/status"))
}

async fn rounds(addr: SocketAddr, sessions: usize, parallel: usize) {
    let mut tasks = tokio::task::JoinSet::new();
    for worker in 0..parallel {
        tasks.spawn(async move {
            for _ in (worker..sessions).step_by(parallel) {
                session_round(addr).await;
            }
        });
    }
    while let Some(done) = tasks.join_next().await {
        done.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_session_is_closed_after_the_session_timeout() {
    let addr = serve(|b| b.http_session_idle_timeout(Duration::from_millis(500))).await;
    let session = open_session(addr).await;
    let answer = exchange(addr, "POST", Some(&session), PING).await;
    assert!(answer.contains(r#""result""#), "{answer}");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let after = exchange(addr, "POST", Some(&session), PING).await;
    assert!(
        after.starts_with("HTTP/1.1 404"),
        "an idle session answered: {after}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn memory_and_threads_stay_flat_over_a_thousand_sessions() {
    let addr = serve(|b| b).await;
    rounds(addr, 100, 8).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (rss_before, threads_before) = (status("VmRSS:"), status("Threads:"));
    // 1,000 sessions of six requests each.
    rounds(addr, 1000, 8).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (rss_after, threads_after) = (status("VmRSS:"), status("Threads:"));
    eprintln!(
        "after warm-up: {rss_before} kB, {threads_before} threads; \
         after 1,000 sessions: {rss_after} kB, {threads_after} threads"
    );
    assert!(
        rss_after <= rss_before + 8 * 1024,
        "memory grew from {rss_before} kB to {rss_after} kB"
    );
    assert!(
        threads_after <= threads_before + 2,
        "threads grew from {threads_before} to {threads_after}"
    );
}
