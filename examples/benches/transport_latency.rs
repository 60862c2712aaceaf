//! The same call over stdio and over streamable HTTP (one kept-alive connection), side by
//! side in one run: `hello_tools` as a child process each time, the `get_task` tool. stdio and
//! HTTP with a real rmcp client; HTTP also with a bare HTTP/1.1 client of a few lines, which
//! shows what the server costs without an SDK's own client. Prints p50/p90/p99 per transport
//! and the HTTP/stdio ratios of the p50s.
//!
//!     cargo bench -p mcp-tool-examples --bench transport_latency
//!
//! `TRANSPORT_LATENCY_CALLS` sets the number of timed calls per transport (default 2000).

use mcp_tool::testing::TestClient;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use serde_json::json;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const BIN: &str = env!("CARGO_BIN_EXE_hello_tools");

async fn timed_calls(client: &TestClient, calls: usize) -> Vec<Duration> {
    for _ in 0..50 {
        client
            .call("get_task", json!({"task_id": 1}))
            .await
            .expect_ok();
    }
    let mut times = Vec::with_capacity(calls);
    for _ in 0..calls {
        let start = Instant::now();
        let answer = client.call("get_task", json!({"task_id": 1})).await;
        times.push(start.elapsed());
        answer.expect_ok();
    }
    times.sort();
    times
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn report(name: &str, times: &[Duration]) -> Duration {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let p50 = percentile(times, 0.5);
    println!(
        "{name:<24} p50 {:>7.3} ms   p90 {:>7.3} ms   p99 {:>7.3} ms   ({} calls)",
        ms(p50),
        ms(percentile(times, 0.9)),
        ms(percentile(times, 0.99)),
        times.len()
    );
    p50
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let calls: usize = std::env::var("TRANSPORT_LATENCY_CALLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);

    let child = TokioChildProcess::new(tokio::process::Command::new(BIN)).expect("spawn stdio");
    let stdio = TestClient::connect(child).await.expect("stdio handshake");
    let stdio_p50 = report("stdio", &timed_calls(&stdio, calls).await);
    drop(stdio);

    let port = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        probe.local_addr().unwrap().port()
    };
    let mut server = tokio::process::Command::new(BIN)
        .args(["--http", &format!("127.0.0.1:{port}")])
        .kill_on_drop(true)
        .spawn()
        .expect("spawn http");
    let url = format!("http://127.0.0.1:{port}/mcp");
    let mut http = None;
    for _ in 0..100 {
        match TestClient::connect(StreamableHttpClientTransport::from_uri(url.clone())).await {
            Ok(client) => {
                http = Some(client);
                break;
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
    let http = http.expect("HTTP handshake");
    let http_p50 = report("streamable HTTP", &timed_calls(&http, calls).await);
    println!(
        "HTTP p50 / stdio p50 = {:.2}",
        http_p50.as_secs_f64() / stdio_p50.as_secs_f64()
    );
    drop(http);
    let bare_stdio_p50 = report("stdio bare", &bare_stdio(calls).await);
    for version in ["2025-06-18", "2025-11-25"] {
        let mut raw = RawHttp::connect(port, version).await;
        let p50 = report(
            &format!("HTTP bare {version}"),
            &raw.timed_calls(calls).await,
        );
        println!(
            "HTTP bare {version} p50 / stdio bare p50 = {:.2}",
            p50.as_secs_f64() / bare_stdio_p50.as_secs_f64()
        );
    }
    let _ = server.kill().await;
}

const CALL: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_task","arguments":{"task_id":1}}}"#;

/// The same call over the child's stdin/stdout, one JSON-RPC line each way, without an SDK.
async fn bare_stdio(calls: usize) -> Vec<Duration> {
    use tokio::io::AsyncBufReadExt;
    let mut child = tokio::process::Command::new(BIN)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn stdio");
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let init = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bare","version":"1"}}}"#;
    for message in [
        init,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    ] {
        stdin
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
    }
    lines.next_line().await.unwrap().expect("initialize answer");
    let mut times = Vec::with_capacity(calls);
    for i in 0..calls + 50 {
        let start = Instant::now();
        stdin
            .write_all(format!("{CALL}\n").as_bytes())
            .await
            .unwrap();
        let answer = lines.next_line().await.unwrap().expect("an answer");
        if i >= 50 {
            times.push(start.elapsed());
        }
        assert!(answer.contains(r#"\"status\":\"ok\""#), "{answer}");
    }
    times.sort();
    times
}

/// One kept-alive HTTP/1.1 connection speaking just enough streamable HTTP for tool calls.
struct RawHttp {
    stream: TcpStream,
    port: u16,
    version: &'static str,
    session: String,
    buffer: Vec<u8>,
}

impl RawHttp {
    async fn connect(port: u16, version: &'static str) -> Self {
        let stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        stream.set_nodelay(true).unwrap();
        let mut raw = RawHttp {
            stream,
            port,
            version,
            session: String::new(),
            buffer: Vec::new(),
        };
        let init = format!(
            r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{{}},"clientInfo":{{"name":"bare","version":"1"}}}}}}"#
        );
        let (head, _) = raw.post(&init).await;
        raw.session = head
            .lines()
            .find_map(|l| l.strip_prefix("mcp-session-id: "))
            .expect("a session id")
            .trim()
            .to_owned();
        raw.post(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
        raw
    }

    async fn timed_calls(&mut self, calls: usize) -> Vec<Duration> {
        let mut times = Vec::with_capacity(calls);
        for i in 0..calls + 50 {
            let start = Instant::now();
            let (_, answer) = self.post(CALL).await;
            if i >= 50 {
                times.push(start.elapsed());
            }
            assert!(answer.contains(r#""status":"ok""#), "{answer}");
        }
        times.sort();
        times
    }

    /// Sends one POST and reads its whole response: (head, body with chunking undone).
    async fn post(&mut self, body: &str) -> (String, String) {
        let mut request = format!(
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n",
            self.port,
            body.len()
        );
        if !self.session.is_empty() {
            request.push_str(&format!(
                "Mcp-Session-Id: {}\r\nMCP-Protocol-Version: {}\r\n",
                self.session, self.version
            ));
        }
        request.push_str("\r\n");
        request.push_str(body);
        self.stream.write_all(request.as_bytes()).await.unwrap();
        let head_end = self.read_until(b"\r\n\r\n").await;
        let head = String::from_utf8_lossy(&self.buffer[..head_end]).to_ascii_lowercase();
        self.buffer.drain(..head_end);
        let mut out = Vec::new();
        if let Some(length) = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length: "))
        {
            let length: usize = length.trim().parse().unwrap();
            self.fill(length).await;
            out.extend(self.buffer.drain(..length));
        } else {
            loop {
                let line_end = self.read_until(b"\r\n").await;
                let size_text = String::from_utf8_lossy(&self.buffer[..line_end - 2]).into_owned();
                let size = usize::from_str_radix(size_text.trim(), 16).unwrap();
                self.buffer.drain(..line_end);
                self.fill(size + 2).await;
                out.extend(self.buffer.drain(..size));
                self.buffer.drain(..2);
                if size == 0 {
                    break;
                }
            }
        }
        (head, String::from_utf8(out).unwrap())
    }

    /// Reads until `marker` is buffered; returns the index just past it.
    async fn read_until(&mut self, marker: &[u8]) -> usize {
        loop {
            if let Some(i) = self.buffer.windows(marker.len()).position(|w| w == marker) {
                return i + marker.len();
            }
            self.read_more().await;
        }
    }

    async fn fill(&mut self, n: usize) {
        while self.buffer.len() < n {
            self.read_more().await;
        }
    }

    async fn read_more(&mut self) {
        let mut chunk = [0u8; 16 * 1024];
        let n = self.stream.read(&mut chunk).await.unwrap();
        assert!(n > 0, "the server closed the connection");
        self.buffer.extend_from_slice(&chunk[..n]);
    }
}
