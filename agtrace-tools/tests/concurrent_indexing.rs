//! Two indexer PROCESSES on one index (the server and a CLI, say), while the logs change and a
//! reader queries: both succeed, readers never fail, and the result equals a fresh build.
//!
//! `harness = false`: this binary re-invokes itself as the worker process.

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use agtrace_tools::config::Config;
use agtrace_tools::corpus::{CorpusSpec, generate};
use agtrace_tools::index::{SearchQuery, SessionFilter};
use agtrace_tools::store::TraceStore;

const WORKER_LOGS: &str = "AGTRACE_TEST_WORKER_LOGS";
const WORKER_DATA: &str = "AGTRACE_TEST_WORKER_DATA";

fn worker(logs: &Path, data: &Path) {
    let store = TraceStore::open(Config::for_tree(logs, data)).expect("open");
    for _ in 0..4 {
        store.refresh().expect("refresh");
        std::thread::sleep(Duration::from_millis(15));
    }
}

fn main() {
    if let (Some(logs), Some(data)) = (std::env::var_os(WORKER_LOGS), std::env::var_os(WORKER_DATA))
    {
        worker(Path::new(&logs), Path::new(&data));
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let logs = tmp.path().join("logs");
    let data = tmp.path().join("data");
    let spec = CorpusSpec {
        turns: (1, 4),
        steps: (1, 4),
        max_tool_output: 32 << 10,
        ..CorpusSpec::new(90, 11)
    };
    let corpus = generate(&spec, &logs).unwrap();
    common::copy_tree(&common::samples(), &logs);

    let exe = std::env::current_exe().unwrap();
    let spawn = || {
        Command::new(&exe)
            .env(WORKER_LOGS, &logs)
            .env(WORKER_DATA, &data)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let mut a = spawn();
    let mut b = spawn();

    // Meanwhile: change logs and read the index.
    let reader = TraceStore::open(Config::for_tree(&logs, &data)).unwrap();
    let claude = &corpus.paths[0];
    let gemini = &corpus.paths[2];
    let original = std::fs::read(claude).unwrap();
    let mut reads = 0;
    for round in 0..40 {
        reader
            .list_sessions(&SessionFilter::default(), None, 20)
            .expect("list while indexing");
        reader
            .search(&SearchQuery {
                text: "naïve".into(),
                limit: 10,
                ..Default::default()
            })
            .expect("search while indexing");
        reads += 1;
        if round == 5 {
            let mut grown = original.clone();
            grown.extend_from_slice(
                &original[..original.iter().position(|b| *b == b'\n').unwrap() + 1],
            );
            std::fs::write(claude, grown).unwrap();
        }
        if round == 10 {
            let mut doc: serde_json::Value =
                serde_json::from_slice(&std::fs::read(gemini).unwrap()).unwrap();
            doc["messages"].as_array_mut().unwrap().truncate(2);
            std::fs::write(gemini, doc.to_string()).unwrap();
        }
        if round == 15 {
            std::fs::remove_file(&corpus.paths[1]).unwrap();
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    for (name, child) in [("a", &mut a), ("b", &mut b)] {
        let out = child.wait_with_output_ref();
        assert!(out.0.success(), "worker {name} failed: {}", out.1);
    }
    assert!(reads > 0);

    reader.refresh().unwrap();
    let fresh_dir = tmp.path().join("fresh");
    TraceStore::open(Config::for_tree(&logs, &fresh_dir))
        .unwrap()
        .refresh()
        .unwrap();
    let (got, want) = (common::dump(&data), common::dump(&fresh_dir));
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(g, w);
    }
    println!(
        "concurrent_indexing: two indexer processes + a reader: ok ({} index rows compared)",
        got.len()
    );
}

trait WaitRef {
    fn wait_with_output_ref(&mut self) -> (std::process::ExitStatus, String);
}

impl WaitRef for std::process::Child {
    fn wait_with_output_ref(&mut self) -> (std::process::ExitStatus, String) {
        let mut err = String::new();
        if let Some(mut e) = self.stderr.take() {
            use std::io::Read;
            e.read_to_string(&mut err).ok();
        }
        (self.wait().unwrap(), err)
    }
}
