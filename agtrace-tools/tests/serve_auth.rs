//! `agtrace serve --http` on an address other machines reach: it refuses to start without
//! authentication, and with a token (from a file or the environment) serves only the
//! requests that carry it.

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const TOKEN: &str = "s3cr3t-token-for-the-agtrace-test";

fn agtrace(dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_agtrace"));
    command
        .arg(format!("--claude-dir={}", dir.join("claude").display()))
        .arg(format!("--codex-dir={}", dir.join("codex").display()))
        .arg(format!("--gemini-dir={}", dir.join("gemini").display()))
        .arg(format!("--data-dir={}", dir.join("data").display()))
        .env_remove("AGTRACE_AUTH_TOKEN")
        .stdin(Stdio::null());
    command
}

/// A port free on every interface a moment ago.
fn free_port() -> u16 {
    std::net::TcpListener::bind("0.0.0.0:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;

/// The raw answer to an `initialize` POST, or `None` while nothing listens.
async fn initialize(addr: SocketAddr, token: Option<&str>) -> Option<String> {
    initialize_as(addr, &addr.to_string(), token).await
}

/// [`initialize`] naming `host` in the `Host` header.
async fn initialize_as(addr: SocketAddr, host: &str, token: Option<&str>) -> Option<String> {
    let mut stream = TcpStream::connect(addr).await.ok()?;
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n{auth}\
         Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{INITIALIZE}",
        INITIALIZE.len()
    );
    stream.write_all(request.as_bytes()).await.ok()?;
    let mut response = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut response))
        .await
        .expect("the server answers and closes")
        .ok()?;
    Some(String::from_utf8_lossy(&response).into_owned())
}

/// Kills the server when the test ends, passed or not.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits until the server at `addr` answers, then checks that only `token` gets in.
async fn assert_only_token_gets_in(server: &mut Server, addr: SocketAddr) {
    let started = Instant::now();
    let refused = loop {
        if let Some(answer) = initialize(addr, None).await {
            break answer;
        }
        if let Some(status) = server.0.try_wait().unwrap() {
            panic!("agtrace serve exited with {status}");
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "agtrace serve did not start listening within 60 s"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(refused.starts_with("HTTP/1.1 401"), "{refused}");
    assert!(!refused.contains("serverInfo"), "{refused}");
    let wrong = initialize(addr, Some("not-the-token-at-all-0000"))
        .await
        .unwrap();
    assert!(wrong.starts_with("HTTP/1.1 401"), "{wrong}");
    let served = initialize(addr, Some(TOKEN)).await.unwrap();
    assert!(served.starts_with("HTTP/1.1 200"), "{served}");
    assert!(served.contains("serverInfo"), "{served}");
}

#[test]
fn serving_every_interface_without_auth_exits_with_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let addr = format!("0.0.0.0:{}", free_port());
    let output = agtrace(dir.path())
        .args(["serve", "--http", &addr])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "refusing to serve HTTP on {addr} without authentication"
        )),
        "{stderr}"
    );
    assert!(stderr.contains("--auth-token-file"), "{stderr}");
    assert!(output.stdout.is_empty());
    // Nothing was indexed: the refusal comes first.
    assert!(!dir.path().join("data").exists());
}

#[test]
fn a_token_too_short_or_unreadable_is_refused_before_serving() {
    let dir = tempfile::tempdir().unwrap();
    let short = dir.path().join("short-token");
    std::fs::write(&short, "hunter2\n").unwrap();
    let addr = format!("0.0.0.0:{}", free_port());
    for file in [short, dir.path().join("missing-token")] {
        let output = agtrace(dir.path())
            .args(["serve", "--http", &addr, "--auth-token-file"])
            .arg(&file)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_ne!(output.status.code(), Some(0), "{stderr}");
        assert!(
            stderr.contains("at least 16") || stderr.contains("cannot read the token file"),
            "{stderr}"
        );
    }
}

#[tokio::test]
async fn with_a_token_file_it_serves_every_interface_to_token_holders_only() {
    let dir = tempfile::tempdir().unwrap();
    let token_file = dir.path().join("token");
    std::fs::write(&token_file, format!("{TOKEN}\n")).unwrap();
    let port = free_port();
    let child = agtrace(dir.path())
        .args([
            "serve",
            "--http",
            &format!("0.0.0.0:{port}"),
            "--auth-token-file",
        ])
        .arg(&token_file)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut server = Server(child);
    // As a client on another machine would: by an address that is not localhost (127.0.0.2
    // stands in for this machine's LAN address), named in `Host` as it was dialled.
    assert_only_token_gets_in(&mut server, SocketAddr::from(([127, 0, 0, 2], port))).await;
    assert_only_token_gets_in(&mut server, SocketAddr::from(([127, 0, 0, 1], port))).await;
}

#[tokio::test]
async fn a_host_name_is_served_once_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let child = agtrace(dir.path())
        .args(["serve", "--http", &format!("0.0.0.0:{port}")])
        .args(["--allowed-host", "agtrace.example"])
        .env("AGTRACE_AUTH_TOKEN", TOKEN)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut server = Server(child);
    let addr = SocketAddr::from(([127, 0, 0, 2], port));
    assert_only_token_gets_in(&mut server, addr).await;
    let named = format!("agtrace.example:{port}");
    let served = initialize_as(addr, &named, Some(TOKEN)).await.unwrap();
    assert!(served.starts_with("HTTP/1.1 200"), "{served}");
    let other = format!("other.example:{port}");
    let refused = initialize_as(addr, &other, Some(TOKEN)).await.unwrap();
    assert!(refused.starts_with("HTTP/1.1 403"), "{refused}");
    assert!(!refused.contains("serverInfo"), "{refused}");
}

#[tokio::test]
async fn with_the_token_in_the_environment_it_serves_too() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let child = agtrace(dir.path())
        .args(["serve", "--http", &format!("0.0.0.0:{port}")])
        .env("AGTRACE_AUTH_TOKEN", TOKEN)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut server = Server(child);
    assert_only_token_gets_in(&mut server, SocketAddr::from(([127, 0, 0, 1], port))).await;
}
