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

use agtrace_tools::config::Config;
use agtrace_tools::corpus::{CorpusSpec, CorpusStats, generate};
use agtrace_tools::index::touches::{FileHistoryQuery, PathQuery};
use agtrace_tools::index::{SearchQuery, SessionFilter};
use agtrace_tools::model::{EventKind, Provider};
use agtrace_tools::providers::parse_file;
use agtrace_tools::store::TraceStore;

fn dir_size(p: &Path) -> u64 {
    let mut total = 0;
    if let Ok(rd) = std::fs::read_dir(p) {
        for e in rd.flatten() {
            let path = e.path();
            if path.is_dir() {
                total += dir_size(&path)
            } else {
                total += e.metadata().map(|m| m.len()).unwrap_or(0)
            }
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
    // `AGTRACE_BENCH_CORPUS=dir`: generate the corpus there once and reuse it on later runs.
    let reuse = std::env::var_os("AGTRACE_BENCH_CORPUS").map(std::path::PathBuf::from);
    let logs = reuse.clone().unwrap_or_else(|| base.path().join("logs"));
    let data = base.path().join("data");

    // Size the corpus from a sample of the same generator.
    let probe = base.path().join("probe");
    let sample = generate(&CorpusSpec::new(300, 1), &probe).unwrap();
    std::fs::remove_dir_all(&probe).unwrap();
    let sessions = ((target as f64 / (sample.bytes as f64 / 300.0)) * 1.05)
        .ceil()
        .max(3.0) as usize;
    let t = Instant::now();
    let listing = logs.join(".bench-corpus");
    let corpus = match std::fs::read_to_string(&listing) {
        Ok(text) if reuse.is_some() => {
            let mut lines = text.lines();
            let bytes = lines.next().unwrap().parse().unwrap();
            let paths: Vec<std::path::PathBuf> = lines.map(Into::into).collect();
            CorpusStats {
                files: paths.len() as u64,
                bytes,
                sessions: [0; Provider::COUNT],
                paths,
            }
        }
        _ => {
            let c = generate(&CorpusSpec::new(sessions, 2026), &logs).unwrap();
            if reuse.is_some() {
                let mut text = format!("{}\n", c.bytes);
                for p in &c.paths {
                    text.push_str(&format!("{}\n", p.display()));
                }
                std::fs::write(&listing, text).unwrap();
            }
            c
        }
    };
    let mb = corpus.bytes as f64 / 1e6;
    println!(
        "corpus: {} sessions, {} files, {:.1} MB, generated in {:.1}s",
        sessions,
        corpus.files,
        mb,
        t.elapsed().as_secs_f64()
    );

    // `AGTRACE_BENCH_BUILD_ONLY=1`: just the build (for profiling).
    let build_only = std::env::var_os("AGTRACE_BENCH_BUILD_ONLY").is_some();
    // Parsing alone (both cores), to separate parse cost from index cost.
    let t = Instant::now();
    let paths = std::sync::Mutex::new(corpus.paths.iter().enumerate().filter(|_| !build_only));
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
    println!(
        "parse only (2 threads, no index): {:.1}s = {:.0} MB/s, {} events",
        parse_s,
        mb / parse_s,
        events.into_inner()
    );

    let store = TraceStore::open(Config::for_tree(&logs, &data)).unwrap();
    let t = Instant::now();
    let stats = store.refresh().unwrap();
    let build_s = t.elapsed().as_secs_f64();
    let rest = stats.write_ms.saturating_sub(
        stats.events_insert_ms
            + stats.fts_insert_ms
            + stats.commit_ms
            + stats.wait_ms
            + stats.checkpoint_ms,
    );
    println!(
        "full build: {:.1}s = {:.1} MB/s ({} files, {} events; parser threads busy {:.1}s CPU, writer {:.1}s wall, of which event rows {:.1}s, FTS inserts {:.1}s, commits {:.1}s, waiting for parsers {:.1}s, checkpoint {:.1}s, rest {:.1}s)",
        build_s,
        mb / build_s,
        stats.files_parsed,
        stats.events_added,
        stats.parse_ms as f64 / 1000.0,
        stats.write_ms as f64 / 1000.0,
        stats.events_insert_ms as f64 / 1000.0,
        stats.fts_insert_ms as f64 / 1000.0,
        stats.commit_ms as f64 / 1000.0,
        stats.wait_ms as f64 / 1000.0,
        stats.checkpoint_ms as f64 / 1000.0,
        rest as f64 / 1000.0
    );
    let t = Instant::now();
    let again = store.refresh().unwrap();
    println!(
        "no-change re-index: {:.3}s ({} files skipped)",
        t.elapsed().as_secs_f64(),
        again.files_skipped
    );
    // Incremental: append one record to 200 JSONL files and rewrite 20 Gemini documents (same
    // bytes, new mtime: re-parsed and replaced), then put the files back.
    let jsonl: Vec<&std::path::PathBuf> = corpus
        .paths
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 3 != 2)
        .map(|(_, p)| p)
        .collect();
    let gemini: Vec<&std::path::PathBuf> = corpus
        .paths
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 3 == 2)
        .map(|(_, p)| p)
        .collect();
    let appended: Vec<(&std::path::PathBuf, u64)> = jsonl
        .iter()
        .step_by((jsonl.len() / 200).max(1))
        .take(200)
        .map(|p| {
            let bytes = std::fs::read(p).unwrap();
            let first = &bytes[..bytes
                .iter()
                .position(|b| *b == b'\n')
                .map_or(bytes.len(), |i| i + 1)];
            let mut f = std::fs::OpenOptions::new().append(true).open(p).unwrap();
            std::io::Write::write_all(&mut f, first).unwrap();
            (*p, bytes.len() as u64)
        })
        .collect();
    for p in gemini.iter().step_by((gemini.len() / 20).max(1)).take(20) {
        std::fs::write(p, std::fs::read(p).unwrap()).unwrap();
    }
    let t = Instant::now();
    let inc = store.refresh().unwrap();
    println!(
        "incremental re-index: {:.3}s ({} files appended to, {} re-parsed, {:.1} MB read, {} events added; plan {:.2}s, writer {:.2}s: FTS inserts {:.2}s, commits {:.2}s)",
        t.elapsed().as_secs_f64(),
        inc.files_appended,
        inc.files_parsed,
        inc.bytes_read as f64 / 1e6,
        inc.events_added,
        inc.plan_ms as f64 / 1000.0,
        inc.write_ms as f64 / 1000.0,
        inc.fts_insert_ms as f64 / 1000.0,
        inc.commit_ms as f64 / 1000.0
    );
    for (p, len) in appended {
        std::fs::OpenOptions::new()
            .write(true)
            .open(p)
            .unwrap()
            .set_len(len)
            .unwrap();
    }
    store.refresh().unwrap();
    let idx = dir_size(&data);
    println!(
        "index size: {:.1} MB = {:.2}x the logs",
        idx as f64 / 1e6,
        idx as f64 / corpus.bytes as f64
    );
    // The opt-in archive: its first refresh copies every log (the later ones only what grew).
    let mut archiving = Config::for_tree(&logs, &data);
    archiving.archive = true;
    let t = Instant::now();
    let a = TraceStore::open(archiving)
        .unwrap()
        .refresh()
        .unwrap()
        .archive;
    let copy_s = t.elapsed().as_secs_f64();
    println!(
        "archive: first copy of {} logs {:.1}s = {:.0} MB/s; {:.1} MB of logs kept in {:.1} MB = {:.3}x",
        a.copied,
        copy_s,
        a.raw_bytes as f64 / 1e6 / copy_s,
        a.raw_bytes as f64 / 1e6,
        a.stored_bytes as f64 / 1e6,
        a.stored_bytes as f64 / a.raw_bytes as f64
    );

    if build_only {
        return;
    }
    let all = store
        .list_sessions(
            &SessionFilter {
                include_subagents: true,
                ..Default::default()
            },
            None,
            100_000,
        )
        .unwrap()
        .sessions;
    let mid = &all[all.len() / 2];
    println!("\n| query | p50 ms | p99 ms |\n| --- | --- | --- |");
    let q = |text: &str| SearchQuery {
        text: text.into(),
        limit: 10,
        ..Default::default()
    };
    for (name, query) in [
        ("search common word `error`", q("error")),
        ("search rare word `quasar`", q("quasar")),
        ("search token `ZEBRA-4471`", q("ZEBRA-4471")),
        ("search two words `naïve café`", q("naïve café")),
        // Phrases: a pair of common words, and a rare word beside a common one.
        ("search phrase `\"panic unwrap\"`", q("\"panic unwrap\"")),
        ("search phrase `\"quasar error\"`", q("\"quasar error\"")),
        // CJK: a whole word of the corpus, a part of it (found only inside runs), a mixed query.
        ("search CJK word `日本語`", q("日本語")),
        ("search CJK part `本語`", q("本語")),
        ("search CJK + word `日本語 error`", q("日本語 error")),
        (
            "search `error`, provider=gemini",
            SearchQuery {
                provider: Some(Provider::Gemini),
                ..q("error")
            },
        ),
        (
            "search `quasar`, kind=tool_result",
            SearchQuery {
                kind: Some(EventKind::ToolResult),
                ..q("quasar")
            },
        ),
        (
            "search `error` in one session",
            SearchQuery {
                session: Some(mid.id.clone()),
                ..q("error")
            },
        ),
    ] {
        measure(name, 200, |_| {
            store.search(&query).unwrap();
        });
    }
    let page1 = store.search(&q("error")).unwrap();
    measure("search `error`, page 2 (keyset)", 200, |_| {
        store
            .search(&SearchQuery {
                after: page1.next,
                ..q("error")
            })
            .unwrap();
    });
    measure("list_sessions first page (20)", 200, |_| {
        store
            .list_sessions(&SessionFilter::default(), None, 20)
            .unwrap();
    });
    let project = mid.project.hash.clone();
    measure("list_sessions by project + since", 200, |_| {
        let f = SessionFilter {
            project: project.clone(),
            since: Some("2025-06-01T00:00:00Z".parse().unwrap()),
            ..Default::default()
        };
        store.list_sessions(&f, None, 20).unwrap();
    });
    measure("resolve_session (8-char prefix)", 200, |i| {
        store.resolve_session(&all[i % all.len()].id[..8]).ok();
    });
    measure("get_event", 200, |i| {
        let s = &all[i % all.len()];
        store
            .get_event(&s.id, (i as u32 * 7) % s.event_count)
            .unwrap();
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
    // File history (`list_file_history`): the corpus's tool calls name `src/<word>/<n>.rs`
    // (`corpus::file_of`), some 500 files per project.
    let history = |path: &str| FileHistoryQuery::new(PathQuery::parse(path).unwrap(), 20);
    let root = mid.project.root.clone().unwrap_or_default();
    for (name, query) in [
        (
            "file history, file `src/cargo/5.rs`",
            history("src/cargo/5.rs"),
        ),
        (
            "file history, absolute file",
            history(&format!("{root}/src/cargo/5.rs")),
        ),
        (
            "file history, directory `src/cargo/`",
            history("src/cargo/"),
        ),
        ("file history, glob `src/**/3.rs`", history("src/**/3.rs")),
        (
            "file history, glob `**/7.rs` (no literal head)",
            history("**/7.rs"),
        ),
        (
            "file history, glob `**/7.rs` in one project",
            FileHistoryQuery {
                project: Some(root.clone()),
                ..history("**/7.rs")
            },
        ),
        (
            "file history, file in one project",
            FileHistoryQuery {
                project: Some(root.clone()),
                ..history("src/cargo/5.rs")
            },
        ),
    ] {
        let found = store.file_history(&query).unwrap();
        // The quick run's corpus is too small for every file to be there.
        assert!(
            !bench_mode || !found.touches.is_empty(),
            "{name}: nothing found"
        );
        measure(name, 100, |_| {
            store.file_history(&query).unwrap();
        });
    }
    for (name, query) in [
        (
            "file history, directory, page 2 (keyset)",
            history("src/cargo/"),
        ),
        (
            "file history, glob `src/**/3.rs`, page 2",
            history("src/**/3.rs"),
        ),
        ("file history, glob `**/7.rs`, page 2", history("**/7.rs")),
    ] {
        let first = store.file_history(&query).unwrap();
        let next = FileHistoryQuery {
            after: first.next.clone(),
            ..query
        };
        assert!(!bench_mode || next.after.is_some(), "{name}: one page only");
        measure(name, 100, |_| {
            store.file_history(&next).unwrap();
        });
    }

    if std::env::var_os("AGTRACE_BENCH_KEEP").is_some() {
        println!("kept {}", base.keep().display());
    }
}
