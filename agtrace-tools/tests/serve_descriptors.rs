//! `agtrace serve --http` under a low open-file limit (`ulimit -n 256`) and a slowloris
//! attack: the connection cap leaves room for the server's own files, so no `accept` fails,
//! and a connection still dribbling its headers gives way to a real client, who is served
//! within a second.

use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Kills the server when the test ends, passed or not.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#;

/// The raw answer to an `initialize` POST, or `None` while nothing listens.
async fn initialize(addr: SocketAddr) -> Option<String> {
    let mut stream = TcpStream::connect(addr).await.ok()?;
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Accept: application/json, text/event-stream\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{INITIALIZE}",
        INITIALIZE.len()
    );
    stream.write_all(request.as_bytes()).await.ok()?;
    let mut response = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut response))
        .await
        .ok()?
        .ok()?;
    Some(String::from_utf8_lossy(&response).into_owned())
}

/// This process may hold as many descriptors as its hard limit allows: the attack needs 300.
fn raise_own_descriptor_limit() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: the calls only read and write the struct passed.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit), 0);
        limit.rlim_cur = limit.rlim_max.min(4096);
        libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
    }
}

#[tokio::test]
async fn a_slowloris_attack_under_ulimit_256_fails_no_accept_and_delays_no_client() {
    raise_own_descriptor_limit();
    let dir = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let stderr_path = dir.path().join("stderr");
    let child = Command::new("sh")
        .arg("-c")
        .arg(r#"ulimit -n 256 && exec "$0" "$@""#)
        .arg(env!("CARGO_BIN_EXE_agtrace"))
        .arg(format!(
            "--claude-dir={}",
            dir.path().join("claude").display()
        ))
        .arg(format!(
            "--codex-dir={}",
            dir.path().join("codex").display()
        ))
        .arg(format!(
            "--gemini-dir={}",
            dir.path().join("gemini").display()
        ))
        .arg(format!("--data-dir={}", dir.path().join("data").display()))
        .args(["serve", "--http", &addr.to_string()])
        .env("AGTRACE_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&stderr_path).unwrap())
        .spawn()
        .unwrap();
    let mut server = Server(child);
    let started = Instant::now();
    while initialize(addr).await.is_none() {
        if let Some(status) = server.0.try_wait().unwrap() {
            panic!("agtrace serve exited with {status}");
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "never listened"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // More slow connections than the server has descriptors.
    let mut slow = Vec::new();
    for _ in 0..300 {
        let mut stream = TcpStream::connect(addr).await.unwrap();
        stream.write_all(b"POST /mcp HTTP/1.1\r\nHo").await.unwrap();
        slow.push(stream);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mut slowest = Duration::ZERO;
    for _ in 0..20 {
        let started = Instant::now();
        let answer = initialize(addr).await.expect("an answer");
        assert!(answer.contains("serverInfo"), "{answer}");
        slowest = slowest.max(started.elapsed());
    }
    drop(slow);
    assert!(
        slowest < Duration::from_secs(1),
        "a client waited {slowest:?}"
    );
    let stderr = std::fs::read_to_string(&stderr_path).unwrap();
    assert!(
        !stderr.contains("accepting an HTTP connection failed"),
        "{stderr}"
    );
    assert!(stderr.contains("open-file limit"), "{stderr}");
}
