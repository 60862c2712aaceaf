//! The same call over stdio and over streamable HTTP (one kept-alive connection), side by
//! side in one run: `hello_tools` as a child process each time, a real rmcp client, the
//! `get_task` tool. Prints p50/p90/p99 per transport and the HTTP/stdio ratio of the p50s.
//!
//!     cargo bench -p mcp-tool-examples --bench transport_latency
//!
//! `TRANSPORT_LATENCY_CALLS` sets the number of timed calls per transport (default 2000).

use mcp_tool_core::testing::TestClient;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use serde_json::json;
use std::time::{Duration, Instant};

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
    let _ = server.kill().await;
}
