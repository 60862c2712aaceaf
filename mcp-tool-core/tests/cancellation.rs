//! Cancellation reaches work that runs outside a tool's future: a client's
//! `notifications/cancelled` and a call's timeout both stop a blocking loop within a bound,
//! and the session goes on answering. Raw JSON-RPC lines over an in-process pipe, so that the
//! test sees exactly what a client sees.

use mcp_tool::ToolServer;
use mcp_tool::prelude::*;
use serde_json::{Value, json};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, WriteHalf};

/// The bound the issue asks for: cancelled work stops within a second.
const BOUND: Duration = Duration::from_secs(1);

/// What the spinning tool's blocking loop did, per run (the tests of this file run in turn).
#[derive(Debug, Default, Clone, Copy)]
struct Spin {
    started: Option<Instant>,
    stopped: Option<Instant>,
}

static SPIN: Mutex<Spin> = Mutex::new(Spin {
    started: None,
    stopped: None,
});
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
static PINGS: AtomicU32 = AtomicU32::new(0);

fn spin() -> Spin {
    *SPIN.lock().unwrap()
}

/// Burn CPU on a blocking thread until the call is cancelled, for at most a minute.
#[mcp_tool(family = "cancellation_test", size_hint = "1KB", read_only)]
pub async fn compute_until_cancelled(ctx: &ToolContext) -> ToolResult<u64> {
    let cancel = ctx.cancel_token();
    let work = tokio::task::spawn_blocking(move || {
        *SPIN.lock().unwrap() = Spin {
            started: Some(Instant::now()),
            stopped: None,
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut rounds = 0u64;
        while !cancel.is_cancelled() && Instant::now() < deadline {
            rounds = std::hint::black_box(rounds + 1);
        }
        SPIN.lock().unwrap().stopped = Some(Instant::now());
        cancel.check().map(|()| rounds)
    });
    work.await.map_err(|e| ToolError::internal(e.to_string()))?
}

/// Answer at once with how many pings came before.
#[mcp_tool(family = "cancellation_test", size_hint = "1KB", read_only)]
pub async fn ping() -> ToolResult<u32> {
    Ok(PINGS.fetch_add(1, Ordering::SeqCst))
}

fn server(timeout: Option<Duration>) -> ToolServer {
    let mut builder = ToolServer::builder().families(["cancellation_test"]);
    if let Some(t) = timeout {
        builder = builder.timeout(t);
    }
    builder.build().unwrap()
}

/// Waits until the spinning loop has started (a new run since `before`).
async fn spin_started(before: Option<Instant>) {
    let t = Instant::now();
    while spin().started == before || spin().started.is_none() {
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "the tool never started"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// Waits for the loop to stop; how long after `from` it stopped.
async fn spin_stopped(from: Instant) -> Duration {
    let t = Instant::now();
    loop {
        if let Some(stopped) = spin().stopped {
            return stopped.saturating_duration_since(from);
        }
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "the blocking loop still runs 10 s after its call was cancelled"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

struct RawClient {
    lines: Lines<BufReader<tokio::io::ReadHalf<DuplexStream>>>,
    writer: WriteHalf<DuplexStream>,
}

impl RawClient {
    async fn start(server: &ToolServer) -> Self {
        let (client_io, server_io) = tokio::io::duplex(1 << 16);
        let server = server.clone();
        tokio::spawn(async move { server.serve(server_io).await });
        let (read, writer) = tokio::io::split(client_io);
        let mut client = RawClient {
            lines: BufReader::new(read).lines(),
            writer,
        };
        client
            .send(
                json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "raw", "version": "1"}}}),
            )
            .await;
        client.answer(0).await;
        client
            .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
        client
    }

    async fn send(&mut self, message: Value) {
        let mut line = message.to_string();
        line.push('\n');
        self.writer.write_all(line.as_bytes()).await.unwrap();
    }

    async fn call(&mut self, id: u32, tool: &str) {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": {}}}))
            .await;
    }

    /// The answer to request `id`, and the ids of the other answers that came before it.
    async fn answer(&mut self, id: u32) -> (Value, Vec<Value>) {
        let mut others = Vec::new();
        let read = async {
            loop {
                let line = self
                    .lines
                    .next_line()
                    .await
                    .unwrap()
                    .expect("the server hung up");
                let message: Value = serde_json::from_str(&line).unwrap();
                match message.get("id") {
                    Some(got) if got == &json!(id) => return message,
                    Some(other) => others.push(other.clone()),
                    None => {}
                }
            }
        };
        let message = tokio::time::timeout(Duration::from_secs(10), read)
            .await
            .unwrap_or_else(|_| panic!("no answer to request {id} within 10 s"));
        (message, others)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_call_stops_its_blocking_work_and_the_session_goes_on() {
    let _serial = SERIAL.lock().await;
    let mut client = RawClient::start(&server(None)).await;
    let before = spin().started;
    client.call(1, "compute_until_cancelled").await;
    spin_started(before).await;

    let cancelled_at = Instant::now();
    client
        .send(
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": 1, "reason": "the user gave up"}}),
        )
        .await;
    let stopped_after = spin_stopped(cancelled_at).await;
    assert!(
        stopped_after < BOUND,
        "the blocking loop stopped {stopped_after:?} after the cancellation"
    );

    let pings = PINGS.load(Ordering::SeqCst);
    client.call(2, "ping").await;
    let (answer, before_it) = client.answer(2).await;
    assert_eq!(answer["result"]["structuredContent"]["data"], json!(pings));
    assert!(
        !before_it.contains(&json!(1)),
        "a cancelled request is not answered: {before_it:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timed_out_call_stops_the_work_it_left_behind() {
    let _serial = SERIAL.lock().await;
    let limit = Duration::from_millis(200);
    let before = spin().started;
    let envelope = server(Some(limit))
        .call("compute_until_cancelled", json!({}))
        .await
        .unwrap();
    let answered_at = Instant::now();
    assert_eq!(envelope.value["error"]["code"], "timeout");
    assert_ne!(spin().started, before, "the tool ran");
    let stopped_after = spin_stopped(answered_at).await;
    assert!(
        stopped_after < BOUND,
        "the blocking loop stopped {stopped_after:?} after the timeout answer"
    );
}
