//! Index benchmark on a generated corpus (default ≥ 1 GB).
//!
//!     cargo bench -p agtrace-tools --bench index_corpus
//!
//! Env: `AGTRACE_BENCH_BYTES` (corpus size, default 1 GiB), `AGTRACE_BENCH_DIR` (where to put
//! corpus and index, default a temp dir; deleted afterwards), `AGTRACE_BENCH_KEEP=1` to keep.
//! Prints: build time and MB/s, time split (parse vs write), no-change re-index, index size
//! relative to the logs, and p50/p99 latencies of the store's queries.

use std::path::Path;
use std::time::{Duration, Instant};

use agtrace_tools::corpus::{CorpusSpec, generate};
use agtrace_tools::providers::parse_file;
use agtrace_tools::{Config, EventKind, Provider, SearchQuery, SessionFilter, TraceStore};

fn dir_size(p: &Path) -> u64 {
    let mut total = 0;
    if let Ok(rd) = std::fs::read_dir(p) {
        for e in rd.flatten() {
            let path = e.path();
            if path.is_dir() { total += dir_size(&path) } else { total += e.metadata().map(|m| m.len()).unwrap_or(0) }
        }
    }
    total
}

fn percentiles(mut v: Vec<Duration>) -> (f64, f64) {
    v.sort();
    let at = |q: f64| v[((v.len() as f64 - 1.0) * q).round() as usize].as_secs_f64() * 1000.0;
    (at(0.5), at(0.99))
}

fn measure(name: &str, n: usize, mut f: impl FnMut(usize)) {
    f(0); // warm
    let mut times = Vec::with_capacity(n);
    for i in 0..n {
        let t = Instant::now();
        f(i);
        times.push(t.elapsed());
    }
    let (p50, p99) = percentiles(times);
    println!("| {name} | {p50:.2} | {p99:.2} |");
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` runs us with no flag: stay quick.
    let bench_mode = std::env::args().any(|a| a == "--bench");
    let target: u64 = std::env::var("AGTRACE_BENCH_BYTES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if bench_mode { 1 << 30 } else { 4 << 20 });
    let base = match std::env::var_os("AGTRACE_BENCH_DIR") {
        Some(d) => tempfile::tempdir_in(d).unwrap(),
        None => tempfile::tempdir().unwrap(),
    };
    let logs = base.path().join("logs");
    let data = base.path().join("data");

    // Size the corpus from a sample of the same generator.
    let probe = base.path().join("probe");
    let sample = generate(&CorpusSpec::new(300, 1), &probe).unwrap();
    std::fs::remove_dir_all(&probe).unwrap();
    let sessions = ((target as f64 / (sample.bytes as f64 / 300.0)) * 1.05).ceil().max(3.0) as usize;
    let t = Instant::now();
    let corpus = generate(&CorpusSpec::new(sessions, 2026), &logs).unwrap();
    let mb = corpus.bytes as f64 / 1e6;
    println!("corpus: {} sessions, {} files, {:.1} MB, generated in {:.1}s", sessions, corpus.files, mb, t.elapsed().as_secs_f64());

    // Parsing alone (both cores), to separate parse cost from index cost.
    let t = Instant::now();
    let paths = std::sync::Mutex::new(corpus.paths.iter().enumerate());
    let events = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                while let Some((i, p)) = { paths.lock().unwrap().next() } {
                    let provider = Provider::ALL[i % 3];
                    let (_, ev) = parse_file(provider, p, false).unwrap();
                    events.fetch_add(ev.len() as u64, std::sync::atomic::Ordering::Relaxed);
                }
            });
        }
    });
    let parse_s = t.elapsed().as_secs_f64();
    println!("parse only (2 threads, no index): {:.1}s = {:.0} MB/s, {} events", parse_s, mb / parse_s, events.into_inner());

    let store = TraceStore::open(Config::for_tree(&logs, &data)).unwrap();
    let t = Instant::now();
    let stats = store.refresh().unwrap();
    let build_s = t.elapsed().as_secs_f64();
    println!(
        "full build: {:.1}s = {:.1} MB/s ({} files, {} events; parser threads busy {:.1}s CPU, writer {:.1}s wall, of which event rows {:.1}s, FTS inserts {:.1}s, rest (commit/merge/IO) {:.1}s)",
        build_s,
        mb / build_s,
        stats.files_parsed,
        stats.events_added,
        stats.parse_ms as f64 / 1000.0,
        stats.write_ms as f64 / 1000.0,
        stats.events_insert_ms as f64 / 1000.0,
        stats.fts_insert_ms as f64 / 1000.0,
        (stats.write_ms - stats.events_insert_ms - stats.fts_insert_ms) as f64 / 1000.0
    );
    let t = Instant::now();
    let again = store.refresh().unwrap();
    println!("no-change re-index: {:.3}s ({} files skipped)", t.elapsed().as_secs_f64(), again.files_skipped);
    let idx = dir_size(&data);
    println!("index size: {:.1} MB = {:.2}x the logs", idx as f64 / 1e6, idx as f64 / corpus.bytes as f64);

    let all = store.list_sessions(&SessionFilter { include_subagents: true, ..Default::default() }, None, 100_000).unwrap().sessions;
    let mid = &all[all.len() / 2];
    println!("\n| query | p50 ms | p99 ms |\n| --- | --- | --- |");
    let q = |text: &str| SearchQuery { text: text.into(), limit: 10, ..Default::default() };
    for (name, query) in [
        ("search common word `error`", q("error")),
        ("search rare word `quasar`", q("quasar")),
        ("search token `ZEBRA-4471`", q("ZEBRA-4471")),
        ("search two words `naïve café`", q("naïve café")),
        ("search `error`, provider=gemini", SearchQuery { provider: Some(Provider::Gemini), ..q("error") }),
        ("search `quasar`, kind=tool_result", SearchQuery { kind: Some(EventKind::ToolResult), ..q("quasar") }),
        ("search `error` in one session", SearchQuery { session: Some(mid.id.clone()), ..q("error") }),
    ] {
        measure(name, 200, |_| {
            store.search(&query).unwrap();
        });
    }
    let page1 = store.search(&q("error")).unwrap();
    measure("search `error`, page 2 (keyset)", 200, |_| {
        store.search(&SearchQuery { after: page1.next, ..q("error") }).unwrap();
    });
    measure("list_sessions first page (20)", 200, |_| {
        store.list_sessions(&SessionFilter::default(), None, 20).unwrap();
    });
    let project = mid.project.hash.clone();
    measure("list_sessions by project + since", 200, |_| {
        let f = SessionFilter { project: project.clone(), since: Some("2025-06-01T00:00:00Z".parse().unwrap()), ..Default::default() };
        store.list_sessions(&f, None, 20).unwrap();
    });
    measure("resolve_session (8-char prefix)", 200, |i| {
        store.resolve_session(&all[i % all.len()].id[..8]).ok();
    });
    measure("get_event", 200, |i| {
        let s = &all[i % all.len()];
        store.get_event(&s.id, (i as u32 * 7) % s.event_count).unwrap();
    });
    measure("session_summary", 200, |i| {
        store.session_summary(&all[i % all.len()].id).unwrap();
    });
    measure("load_session (re-parse + assemble)", 100, |i| {
        store.load_session(&all[(i * 37) % all.len()].id).unwrap();
    });
    measure("projects", 50, |_| {
        store.projects().unwrap();
    });

    if std::env::var_os("AGTRACE_BENCH_KEEP").is_some() {
        println!("kept {}", base.keep().display());
    }
}
