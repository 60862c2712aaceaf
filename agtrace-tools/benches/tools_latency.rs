//! Latency of every trace tool called through MCP over stdio (`agtrace serve` as a child
//! process, a real rmcp client), on a generated corpus; and start-to-first-answer with a warm
//! index.
//!
//!     cargo bench -p agtrace-tools --bench tools_latency
//!
//! Env: `AGTRACE_BENCH_BYTES` (corpus size, default 1 GiB), `AGTRACE_BENCH_DIR` (where corpus
//! and index go; a temp dir by default, deleted afterwards; an existing `logs/` there is
//! reused), `AGTRACE_BENCH_CALLS` (calls per tool, default 100).

use agtrace_tools::corpus::{CorpusSpec, generate};
use agtrace_tools::{Config, TraceStore};
use mcp_tool_core::rmcp::transport::TokioChildProcess;
use mcp_tool_core::testing::TestClient;
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

async fn connect(logs: &Path, data: &Path) -> TestClient {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_agtrace"));
    command.args(flags(logs, data)).arg("serve").stderr(std::process::Stdio::null());
    TestClient::connect(TokioChildProcess::new(command).unwrap()).await.unwrap()
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
    println!("corpus: {sessions} sessions, {:.1} MB, generated in {:.1} s", stats.bytes as f64 / 1e6, t.elapsed().as_secs_f64());
    logs
}

#[tokio::main]
async fn main() {
    let bench_mode = std::env::args().any(|a| a == "--bench");
    let target: u64 = std::env::var("AGTRACE_BENCH_BYTES").ok().and_then(|v| v.parse().ok()).unwrap_or(if bench_mode { 1 << 30 } else { 4 << 20 });
    let calls: usize = std::env::var("AGTRACE_BENCH_CALLS").ok().and_then(|v| v.parse().ok()).unwrap_or(if bench_mode { 100 } else { 3 });
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
    println!("index: {} files, {:.1} MB read, in {:.1} s", stats.files_seen, stats.bytes_read as f64 / 1e6, t.elapsed().as_secs_f64());
    drop(store);

    // Start to first answer, warm index: spawn, handshake, re-index check, one call answered.
    let mut starts = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let client = connect(&logs, &data).await;
        let answer = client.call("list_sessions", json!({"limit": 5})).await;
        assert!(answer.is_ok());
        starts.push(t.elapsed());
        client.close().await;
    }
    starts.sort();
    println!("\nstart to first answer (warm index), 5 runs: p50 {:.0} ms, max {:.0} ms", percentile(&starts, 0.5), percentile(&starts, 1.0));

    let client = connect(&logs, &data).await;
    let sessions = client.call("list_sessions", json!({"limit": 50})).await;
    let rows = sessions.expect_ok().as_array().unwrap().clone();
    let session = rows.iter().max_by_key(|r| r["turns"].as_u64().unwrap_or(0)).unwrap()["session_id"].as_str().unwrap().to_owned();
    let hits = client.call("search_event_previews", json!({"query": "error", "limit": 5})).await;
    let hit = hits.expect_ok()[0].clone();
    let project = rows[0]["project_hash"].clone();

    let cases: Vec<(&str, Value)> = vec![
        ("list_sessions", json!({"limit": 20})),
        ("list_sessions", json!({"limit": 20, "provider": "codex", "project": project})),
        ("get_session_summary", json!({"session_id": session})),
        ("get_session_turns", json!({"session_id": session})),
        ("get_turn_steps", json!({"session_id": session, "turn_index": 0})),
        ("get_session_full", json!({"session_id": session})),
        ("search_event_previews", json!({"query": "error"})),
        ("search_event_previews", json!({"query": "ZEBRA-4471"})),
        ("get_event_details", json!({"session_id": hit["session_id"], "event_index": hit["event_index"]})),
        ("analyze_session", json!({"session_id": session})),
        ("get_project_info", json!({})),
    ];
    println!("\n| tool (arguments) | p50 ms | p99 ms | answer bytes |\n| --- | --- | --- | --- |");
    for (tool, args) in cases {
        let first = client.call(tool, args.clone()).await;
        assert!(first.is_ok(), "{tool}: {}", first.envelope);
        let mut times = Vec::with_capacity(calls);
        for _ in 0..calls {
            let t = Instant::now();
            let answer = client.call(tool, args.clone()).await;
            times.push(t.elapsed());
            assert!(answer.is_ok());
        }
        times.sort();
        let shown: String = args.to_string().chars().take(60).collect();
        println!("| `{tool}` {shown} | {:.2} | {:.2} | {} |", percentile(&times, 0.5), percentile(&times, 0.99), first.bytes());
    }
    client.close().await;
}
