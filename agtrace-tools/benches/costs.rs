//! Latency of `get_project_costs` (in process, through the MCP test client) on a generated
//! corpus: all projects and one project, grouped by model, day and session. It reads only the
//! index's `usage` table, so its time depends on the number of (session, day, model) rows, not
//! on the log bytes.
//!
//!     AGTRACE_BENCH_BYTES=$((256<<20)) cargo bench -p agtrace-tools --bench costs
//!
//! Env: `AGTRACE_BENCH_BYTES` (corpus size; 256 MiB under `cargo bench`, 4 MiB otherwise),
//! `AGTRACE_BENCH_DIR` (where corpus and index go, reused when there; a temp dir otherwise),
//! `AGTRACE_BENCH_CALLS` (calls per case; 50 under `cargo bench`).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use agtrace_tools::config::Config;
use agtrace_tools::corpus::{CorpusSpec, generate};
use agtrace_tools::store::TraceStore;
use mcp_tool::testing::TestClient;
use serde_json::json;

fn ms(sorted: &[Duration], q: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * q).round() as usize].as_secs_f64() * 1000.0
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
    let target = env("AGTRACE_BENCH_BYTES").unwrap_or(if bench { 256 << 20 } else { 4 << 20 });
    let calls = env("AGTRACE_BENCH_CALLS").unwrap_or(if bench { 50 } else { 3 }) as usize;
    let temp = tempfile::tempdir().unwrap();
    let base: PathBuf = std::env::var_os("AGTRACE_BENCH_DIR")
        .map_or_else(|| temp.path().to_path_buf(), PathBuf::from);
    let logs = base.join("logs");
    if !logs.is_dir() {
        let sessions = (target / 118_000).max(30) as usize;
        let stats = generate(&CorpusSpec::new(sessions, 2026), &logs).unwrap();
        println!(
            "corpus: {sessions} sessions, {:.1} MB",
            stats.bytes as f64 / 1e6
        );
    }
    let store = TraceStore::open(Config::for_tree(&logs, &base.join("data"))).unwrap();
    let t = Instant::now();
    let stats = store.refresh().unwrap();
    println!(
        "index: {} files parsed in {:.1} s",
        stats.files_parsed + stats.files_appended,
        t.elapsed().as_secs_f64()
    );
    let project = store
        .projects()
        .unwrap()
        .first()
        .map(|p| p.hash.clone())
        .unwrap();
    let server = agtrace_tools::server::build(store.clone()).unwrap();
    let c = TestClient::in_process(&server).await;
    println!(
        "{:<40} {:>9} {:>9} {:>9}",
        "get_project_costs", "p50 ms", "p95 ms", "rows"
    );
    for group_by in ["model", "day", "session"] {
        for (scope, extra) in [
            ("all projects", json!({})),
            ("one project", json!({"project": project})),
        ] {
            let mut args = extra.clone();
            args["group_by"] = json!(group_by);
            args["limit"] = json!(100);
            let mut times = Vec::with_capacity(calls);
            let mut rows = 0;
            for _ in 0..calls {
                let t = Instant::now();
                let a = c.call("get_project_costs", args.clone()).await;
                times.push(t.elapsed());
                rows = a.envelope["pagination"]["total"]
                    .as_u64()
                    .unwrap_or(a.expect_ok().as_array().unwrap().len() as u64);
            }
            times.sort();
            println!(
                "{:<40} {:>9.2} {:>9.2} {:>9}",
                format!("group_by={group_by}, {scope}"),
                ms(&times, 0.5),
                ms(&times, 0.95),
                rows
            );
        }
    }
}
