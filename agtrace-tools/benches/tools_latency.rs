//! Latency of every trace tool called through MCP over stdio (`agtrace serve` as a child
//! process, a real rmcp client), on a generated corpus, with the session cache on (the
//! default) and off (`--session-cache-mb 0`: every call parses the session's file, as before
//! the cache); reading the largest session whole through `get_session_full`, both ways; and
//! start-to-first-answer with a warm index.
//!
//!     cargo bench -p agtrace-tools --bench tools_latency
//!
//! Env: `AGTRACE_BENCH_BYTES` (corpus size, default 1 GiB), `AGTRACE_BENCH_DIR` (where corpus
//! and index go; a temp dir by default, deleted afterwards; an existing `logs/` there is
//! reused), `AGTRACE_BENCH_CALLS` (calls per tool, default 100).

use agtrace_tools::config::Config;
use agtrace_tools::corpus::{CorpusSpec, generate};
use agtrace_tools::index::SessionFilter;
use agtrace_tools::store::TraceStore;
use mcp_tool::rmcp::transport::TokioChildProcess;
use mcp_tool::testing::TestClient;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn percentile(sorted: &[Duration], q: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * q).round() as usize].as_secs_f64() * 1000.0
}

fn flags(logs: &Path, data: &Path) -> Vec<String> {
    vec![
        format!("--claude-dir={}", logs.join("claude/projects").display()),
        format!("--codex-dir={}", logs.join("codex/sessions").display()),
        format!("--gemini-dir={}", logs.join("gemini/tmp").display()),
        format!("--data-dir={}", data.display()),
    ]
}

async fn connect(logs: &Path, data: &Path, extra: &[&str]) -> TestClient {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_agtrace"));
    command
        .args(flags(logs, data))
        .args(extra)
        .arg("serve")
        .stderr(std::process::Stdio::null());
    TestClient::connect(TokioChildProcess::new(command).unwrap())
        .await
        .unwrap()
}

fn corpus(base: &Path, target: u64) -> PathBuf {
    let logs = base.join("logs");
    if logs.is_dir() {
        println!("reusing the corpus in {}", logs.display());
        return logs;
    }
    // About 125 KB a session with the default spec: size the corpus from that, then check.
    let sessions = (target / 118_000).max(30) as usize;
    let t = Instant::now();
    let stats = generate(&CorpusSpec::new(sessions, 2026), &logs).unwrap();
    println!(
        "corpus: {sessions} sessions, {:.1} MB, generated in {:.1} s",
        stats.bytes as f64 / 1e6,
        t.elapsed().as_secs_f64()
    );
    logs
}

#[tokio::main]
async fn main() {
    let bench_mode = std::env::args().any(|a| a == "--bench");
    let target: u64 = std::env::var("AGTRACE_BENCH_BYTES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if bench_mode { 1 << 30 } else { 4 << 20 });
    let calls: usize = std::env::var("AGTRACE_BENCH_CALLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if bench_mode { 100 } else { 3 });
    let temp;
    let base: PathBuf = match std::env::var_os("AGTRACE_BENCH_DIR") {
        Some(d) => PathBuf::from(d),
        None => {
            temp = tempfile::tempdir().unwrap();
            temp.path().to_path_buf()
        }
    };
    let logs = corpus(&base, target);
    let data = base.join("data");

    let t = Instant::now();
    let store = TraceStore::open(Config::for_tree(&logs, &data)).unwrap();
    let stats = store.refresh().unwrap();
    println!(
        "index: {} files, {:.1} MB read, in {:.1} s",
        stats.files_seen,
        stats.bytes_read as f64 / 1e6,
        t.elapsed().as_secs_f64()
    );
    let (largest, largest_bytes) = largest_session(&store);
    drop(store);

    // Start to first answer, warm index: spawn, handshake, re-index check, one call answered.
    let mut starts = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let client = connect(&logs, &data, &[]).await;
        let answer = client.call("list_sessions", json!({"limit": 5})).await;
        assert!(answer.is_ok());
        starts.push(t.elapsed());
        client.close().await;
    }
    starts.sort();
    println!(
        "\nstart to first answer (warm index), 5 runs: p50 {:.0} ms, max {:.0} ms",
        percentile(&starts, 0.5),
        percentile(&starts, 1.0)
    );

    let cached = connect(&logs, &data, &[]).await;
    let uncached = connect(&logs, &data, &["--session-cache-mb", "0"]).await;
    let sessions = cached.call("list_sessions", json!({"limit": 50})).await;
    let rows = sessions.expect_ok().as_array().unwrap().clone();
    let session = rows
        .iter()
        .max_by_key(|r| r["turns"].as_u64().unwrap_or(0))
        .unwrap()["session_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let hits = cached
        .call(
            "search_event_previews",
            json!({"query": "error", "limit": 5}),
        )
        .await;
    let hit = hits.expect_ok()[0].clone();
    let project = rows[0]["project_hash"].clone();

    let cases: Vec<(&str, Value)> = vec![
        ("list_sessions", json!({"limit": 20})),
        (
            "list_sessions",
            json!({"limit": 20, "provider": "codex", "project": project}),
        ),
        ("get_session_summary", json!({"session_id": session})),
        ("get_session_turns", json!({"session_id": session})),
        (
            "get_turn_steps",
            json!({"session_id": session, "turn_index": 0}),
        ),
        ("get_session_full", json!({"session_id": session})),
        ("search_event_previews", json!({"query": "error"})),
        ("search_event_previews", json!({"query": "ZEBRA-4471"})),
        (
            "get_event_details",
            json!({"session_id": hit["session_id"], "event_index": hit["event_index"]}),
        ),
        ("analyze_session", json!({"session_id": session})),
        ("get_project_info", json!({})),
    ];
    println!(
        "\n| tool (arguments) | p50 ms | p99 ms | p50 ms, no cache | p99 ms, no cache | answer bytes |\n| --- | --- | --- | --- | --- | --- |"
    );
    for (tool, args) in cases {
        let mut row = Vec::new();
        let mut bytes = 0;
        for client in [&cached, &uncached] {
            let first = client.call(tool, args.clone()).await;
            assert!(first.is_ok(), "{tool}: {}", first.envelope);
            bytes = first.bytes();
            let mut times = Vec::with_capacity(calls);
            for _ in 0..calls {
                let t = Instant::now();
                let answer = client.call(tool, args.clone()).await;
                times.push(t.elapsed());
                assert!(answer.is_ok());
            }
            times.sort();
            row.push(format!(
                "{:.2} | {:.2}",
                percentile(&times, 0.5),
                percentile(&times, 0.99)
            ));
        }
        let shown: String = args.to_string().chars().take(60).collect();
        println!("| `{tool}` {shown} | {} | {bytes} |", row.join(" | "));
    }

    // Reading a session whole is one call per page: without the cache each page parses the
    // whole file again, so the time grows with the square of the session's size.
    println!(
        "\nreading the largest session ({:.1} MB) whole through get_session_full:",
        largest_bytes as f64 / 1e6
    );
    for (name, client) in [("cache on", &cached), ("cache off", &uncached)] {
        let t = Instant::now();
        let mut pages = 0;
        let mut cursor: Option<String> = None;
        loop {
            let mut args = json!({"session_id": largest});
            if let Some(c) = &cursor {
                args["cursor"] = json!(c);
            }
            let page = client.call("get_session_full", args).await;
            assert!(page.is_ok(), "{}", page.envelope);
            pages += 1;
            match page.next_cursor() {
                Some(next) => cursor = Some(next.to_owned()),
                None => break,
            }
        }
        println!(
            "- {name}: {pages} pages in {:.0} ms",
            t.elapsed().as_secs_f64() * 1000.0
        );
    }
    cached.close().await;
    uncached.close().await;
}

/// The session with the largest log file, and its size.
fn largest_session(store: &TraceStore) -> (String, u64) {
    let mut best = (String::new(), 0);
    let mut after = None;
    loop {
        let page = store
            .list_sessions(&SessionFilter::default(), after.as_ref(), 500)
            .unwrap();
        for s in &page.sessions {
            let len = std::fs::metadata(&s.path).map(|m| m.len()).unwrap_or(0);
            if len > best.1 {
                best = (s.id.clone(), len);
            }
        }
        match page.next {
            Some(next) => after = Some(next),
            None => return best,
        }
    }
}
