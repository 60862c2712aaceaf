//! `mcp_load`: a bounded load test of MCP `tools/call` over streamable HTTP, for servers
//! without sessions (`--stateless`) such as replicas behind a load balancer
//! (`scripts/replicas/replicas.sh`).
//!
//! `CONNECTIONS` kept-alive HTTP/1.1 connections each send one call at a time, rotating through
//! the given calls, for `SECONDS` after a warm-up; every answer is checked (HTTP 200, a
//! JSON-RPC result, not a tool error). Prints calls per second, p50, p90, p99 and the errors,
//! and the same as one JSON line last, for scripts.
//!
//! `--kill PID --kill-after S --kill-addr HOST:PORT` sends SIGKILL to PID S seconds into the
//! measured run and waits until it is gone: exited, and its address refusing connections
//! (a dying process's listening socket still takes connections into its backlog until its
//! last thread has exited). Each failed call is then classed by when it started: before the
//! replica was gone (it may have been in flight there) or after (a failure the balancer
//! should have prevented).
//!
//! ```text
//! mcp_load --url http://127.0.0.1:8080/mcp --seconds 10 --connections 8 \
//!     --call 'get_task={"task_id":2}' --call 'list_tasks={"limit":3}'
//! ```

use hyper::client::conn::http1;
use hyper::{Request, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tokio::net::TcpStream;

const USAGE: &str = "usage: mcp_load --url URL --call NAME=JSON [--call ...] [--seconds S] \
                     [--warmup S] [--connections N] [--kill PID [--kill-after S] [--kill-addr A]]";

struct Options {
    host: String,
    path: String,
    calls: Vec<(String, Value)>,
    seconds: f64,
    warmup: f64,
    connections: usize,
    kill: Option<Kill>,
}

/// The replica `--kill` ends in the middle of the run.
#[derive(Clone)]
struct Kill {
    pid: u32,
    after: f64,
    addr: Option<String>,
}

/// One measured call: when it started and ended (from the start of the measured run), and
/// what went wrong if anything.
struct Outcome {
    start: Duration,
    end: Duration,
    error: Option<String>,
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let options = parse(std::env::args().skip(1).collect()).unwrap_or_else(|e| {
        eprintln!("mcp_load: {e}\n{USAGE}");
        std::process::exit(2);
    });
    let options = Arc::new(options);

    // Warm-up: the same load, not counted.
    let warm = Instant::now();
    run_load(&options, warm, Duration::from_secs_f64(options.warmup)).await;

    let start = Instant::now();
    let run = Duration::from_secs_f64(options.seconds);
    let killer = options.kill.clone().map(|kill| {
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_secs_f64(kill.after)).await;
            kill_and_wait(&kill).await;
            start.elapsed()
        })
    });
    let outcomes = run_load(&options, start, run).await;
    let gone_at = match killer {
        Some(k) => Some(k.await.expect("the killer task")),
        None => None,
    };
    report(&options, &outcomes, run, gone_at);
}

async fn run_load(options: &Arc<Options>, start: Instant, length: Duration) -> Vec<Outcome> {
    let stop = Arc::new(AtomicBool::new(false));
    let workers: Vec<_> = (0..options.connections)
        .map(|i| {
            let options = options.clone();
            let stop = stop.clone();
            tokio::spawn(async move { worker(i, &options, start, &stop).await })
        })
        .collect();
    tokio::time::sleep(length).await;
    stop.store(true, Ordering::Relaxed);
    let mut all = Vec::new();
    for w in workers {
        all.extend(w.await.expect("a load worker"));
    }
    all
}

type Sender = http1::SendRequest<String>;

async fn connect(host: &str) -> Result<Sender, String> {
    let stream = TcpStream::connect(host)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    stream.set_nodelay(true).ok();
    let (sender, connection) = http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| format!("handshake: {e}"))?;
    tokio::spawn(connection);
    Ok(sender)
}

async fn worker(
    index: usize,
    options: &Options,
    start: Instant,
    stop: &AtomicBool,
) -> Vec<Outcome> {
    let mut outcomes = Vec::new();
    let mut sender: Option<Sender> = None;
    let mut n = index;
    while !stop.load(Ordering::Relaxed) {
        let (name, arguments) = &options.calls[n % options.calls.len()];
        n += 1;
        let body = json!({"jsonrpc": "2.0", "id": n, "method": "tools/call",
                          "params": {"name": name, "arguments": arguments}})
        .to_string();
        let began = start.elapsed();
        let result = call(&mut sender, options, body).await;
        if result.is_err() {
            // A connection that failed is not reused.
            sender = None;
        }
        outcomes.push(Outcome {
            start: began,
            end: start.elapsed(),
            error: result.err(),
        });
    }
    outcomes
}

async fn call(sender: &mut Option<Sender>, options: &Options, body: String) -> Result<(), String> {
    if sender.is_none() {
        *sender = Some(connect(&options.host).await?);
    }
    let s = sender.as_mut().expect("connected above");
    s.ready().await.map_err(|e| format!("connection: {e}"))?;
    let request = Request::post(&options.path)
        .header("host", &options.host)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-06-18")
        .body(body)
        .expect("a valid request");
    let response = s
        .send_request(request)
        .await
        .map_err(|e| format!("request: {e}"))?;
    let status = response.status();
    let mut incoming = response.into_body();
    let mut bytes = Vec::new();
    while let Some(frame) =
        std::future::poll_fn(|cx| hyper::body::Body::poll_frame(Pin::new(&mut incoming), cx)).await
    {
        let frame = frame.map_err(|e| format!("body: {e}"))?;
        if let Ok(data) = frame.into_data() {
            bytes.extend_from_slice(&data);
        }
    }
    if status != StatusCode::OK {
        return Err(format!("HTTP {}", status.as_u16()));
    }
    check_answer(&bytes)
}

/// The JSON-RPC answer (plain JSON, or the data line of an event stream) is a result and not
/// a tool error.
fn check_answer(bytes: &[u8]) -> Result<(), String> {
    let text = String::from_utf8_lossy(bytes);
    let json_text = if text.trim_start().starts_with('{') {
        text.trim()
    } else {
        text.lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .map(str::trim)
            .rfind(|l| l.starts_with('{'))
            .ok_or("no JSON-RPC message in the answer")?
    };
    let message: Value = serde_json::from_str(json_text).map_err(|e| format!("answer: {e}"))?;
    if let Some(error) = message.get("error") {
        return Err(format!("JSON-RPC error {}", error["code"]));
    }
    if message["result"]["isError"] == json!(true) {
        let code = &message["result"]["structuredContent"]["error"]["code"];
        return Err(format!("tool error {code}"));
    }
    Ok(())
}

/// SIGKILL, then wait until the process has exited (gone, or a zombie) and its address, if
/// given, refuses connections.
async fn kill_and_wait(kill: &Kill) {
    let pid = kill.pid;
    let status = tokio::process::Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .await;
    if !status.is_ok_and(|s| s.success()) {
        eprintln!("mcp_load: could not kill {pid}");
    }
    let deadline = Instant::now() + Duration::from_secs(2);
    while Instant::now() < deadline {
        let state = std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|s| s.rsplit_once(')').map(|(_, rest)| rest.trim().to_owned()));
        let exited = matches!(
            state.as_deref().and_then(|s| s.chars().next()),
            None | Some('Z' | 'X')
        );
        let refused = match &kill.addr {
            None => true,
            Some(addr) => TcpStream::connect(addr.as_str()).await.is_err(),
        };
        if exited && refused {
            return;
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    eprintln!("mcp_load: {pid} still answers 2 s after SIGKILL");
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1].as_secs_f64() * 1000.0
}

fn report(options: &Options, outcomes: &[Outcome], run: Duration, gone_at: Option<Duration>) {
    let mut latencies: Vec<Duration> = outcomes
        .iter()
        .filter(|o| o.error.is_none())
        .map(|o| o.end - o.start)
        .collect();
    latencies.sort_unstable();
    let errors: Vec<&Outcome> = outcomes.iter().filter(|o| o.error.is_some()).collect();
    let (in_flight, after) = match gone_at {
        Some(gone) => {
            let after = errors.iter().filter(|o| o.start > gone).count();
            (errors.len() - after, after)
        }
        None => (0, errors.len()),
    };
    let mut kinds: Vec<(String, usize)> = Vec::new();
    for e in &errors {
        let kind = e.error.clone().unwrap_or_default();
        match kinds.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += 1,
            None => kinds.push((kind, 1)),
        }
    }
    let per_sec = outcomes.len() as f64 / run.as_secs_f64();
    let (p50, p90, p99) = (
        percentile(&latencies, 50.0),
        percentile(&latencies, 90.0),
        percentile(&latencies, 99.0),
    );
    println!(
        "{} calls in {:.1} s over {} connections: {:.0} calls/s, p50 {:.3} ms, p90 {:.3} ms, \
         p99 {:.3} ms, {} errors",
        outcomes.len(),
        run.as_secs_f64(),
        options.connections,
        per_sec,
        p50,
        p90,
        p99,
        errors.len()
    );
    if let Some(gone) = gone_at {
        println!(
            "killed at {:.3} s (gone): {in_flight} failed calls started before, {after} after",
            gone.as_secs_f64()
        );
    }
    for (kind, n) in &kinds {
        println!("  {n} x {kind}");
    }
    println!(
        "{}",
        json!({
            "calls": outcomes.len(), "seconds": run.as_secs_f64(),
            "connections": options.connections, "calls_per_sec": per_sec,
            "p50_ms": p50, "p90_ms": p90, "p99_ms": p99, "errors": errors.len(),
            "killed_at_s": gone_at.map(|g| g.as_secs_f64()),
            "errors_started_before_gone": in_flight, "errors_started_after_gone": after,
            "error_kinds": kinds.iter().map(|(k, n)| json!({"kind": k, "count": n})).collect::<Vec<_>>(),
        })
    );
}

fn parse(args: Vec<String>) -> Result<Options, String> {
    let mut url = None;
    let mut calls = Vec::new();
    let (mut seconds, mut warmup, mut connections) = (10.0, 1.0, 8);
    let (mut kill_pid, mut kill_after, mut kill_addr) = (None, None, None);
    let mut it = args.into_iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        let number = |v: String| v.parse::<f64>().map_err(|e| format!("{v}: {e}"));
        match flag.as_str() {
            "--url" => url = Some(value()?),
            "--call" => {
                let v = value()?;
                let (name, arguments) = v.split_once('=').ok_or(format!("{v}: not NAME=JSON"))?;
                let arguments: Value =
                    serde_json::from_str(arguments).map_err(|e| format!("{v}: {e}"))?;
                calls.push((name.to_owned(), arguments));
            }
            "--seconds" => seconds = number(value()?)?,
            "--warmup" => warmup = number(value()?)?,
            "--connections" => connections = number(value()?)? as usize,
            "--kill" => kill_pid = Some(value()?.parse::<u32>().map_err(|e| e.to_string())?),
            "--kill-after" => kill_after = Some(number(value()?)?),
            "--kill-addr" => kill_addr = Some(value()?),
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    let url = url.ok_or("--url is required")?;
    let rest = url
        .strip_prefix("http://")
        .ok_or("only http:// URLs are supported")?;
    let (host, path) = match rest.split_once('/') {
        Some((h, p)) => (h.to_owned(), format!("/{p}")),
        None => (rest.to_owned(), "/mcp".to_owned()),
    };
    if calls.is_empty() {
        return Err("give at least one --call".into());
    }
    if connections == 0 || seconds <= 0.0 {
        return Err("--connections and --seconds must be positive".into());
    }
    let kill = match kill_pid {
        Some(pid) => Some(Kill {
            pid,
            after: kill_after.unwrap_or(seconds / 2.0),
            addr: kill_addr,
        }),
        None if kill_after.is_some() || kill_addr.is_some() => {
            return Err("--kill-after and --kill-addr need --kill".into());
        }
        None => None,
    };
    Ok(Options {
        host,
        path,
        calls,
        seconds,
        warmup,
        connections,
        kill,
    })
}
