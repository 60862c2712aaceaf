//! Search answers in a stated, deterministic order: the most recently written log's session
//! first, and within a session the latest event first. The same logs indexed afresh any number
//! of times give the same hits in the same order, page for page, whatever order the parser
//! threads finished in.

mod tools_support;

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, SystemTime};

use agtrace_tools::config::Config;
use agtrace_tools::corpus::{CorpusSpec, generate};
use agtrace_tools::store::TraceStore;
use mcp_tool::testing::TestClient;
use serde_json::{Value, json};
use tools_support::all_pages;

/// Every hit of `query`, walking the pages three hits at a time (the demo call).
async fn hits(client: &TestClient, query: &str) -> Vec<Value> {
    all_pages(
        client,
        "search_event_previews",
        json!({"query": query, "limit": 3}),
    )
    .await
    .iter()
    .flat_map(|a| a.data().as_array().unwrap().clone())
    .collect()
}

/// A fresh index of `logs` (read in place, as the demo does) and the answers to `queries`.
async fn fresh_answers(logs: &Path, queries: &[&str]) -> Vec<Vec<Value>> {
    let data = tempfile::tempdir().unwrap();
    let store = TraceStore::open(Config::for_tree(logs, &data.path().join("data"))).unwrap();
    store.refresh().unwrap();
    let server = agtrace_tools::server::build(store).unwrap();
    let client = TestClient::in_process(&server).await;
    let mut out = Vec::new();
    for q in queries {
        out.push(hits(&client, q).await);
    }
    out
}

fn assert_five_fresh_indexes_agree(first: &[Vec<Value>], others: &[Vec<Vec<Value>>]) {
    for (run, answers) in others.iter().enumerate() {
        for (q, (a, b)) in first.iter().zip(answers).enumerate() {
            let ids = |v: &[Value]| -> Vec<String> {
                v.iter()
                    .map(|h| format!("{}#{}", h["session_id"], h["event_index"]))
                    .collect()
            };
            assert_eq!(
                ids(a),
                ids(b),
                "query {q}: index 1 and index {} differ",
                run + 2
            );
            assert_eq!(a, b, "query {q}: same hits, different previews");
        }
    }
}

/// Hits of one session come together, latest event first.
fn assert_grouped_latest_first(hits: &[Value]) {
    let mut seen = Vec::<&str>::new();
    for pair in hits.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        if a["session_id"] == b["session_id"] {
            assert!(
                a["event_index"].as_u64() > b["event_index"].as_u64(),
                "{a} before {b}"
            );
        }
    }
    for h in hits {
        let id = h["session_id"].as_str().unwrap();
        if seen.last() != Some(&id) {
            assert!(!seen.contains(&id), "{id}'s hits are split");
            seen.push(id);
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bundled_samples_indexed_five_times_give_the_same_search_answers() {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let queries = ["test", "error", "file", "the", "rust OR python"];
    let first = fresh_answers(&samples, &queries).await;
    let found: Vec<usize> = first.iter().map(Vec::len).collect();
    assert!(found.iter().all(|&n| n > 0), "hits per query: {found:?}");
    assert!(first[0].len() > 3, "one page only: nothing to order");
    let mut others = Vec::new();
    for _ in 0..4 {
        others.push(fresh_answers(&samples, &queries).await);
    }
    assert_five_fresh_indexes_agree(&first, &others);
    for h in &first {
        assert_grouped_latest_first(h);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_logs_indexed_five_times_agree_and_the_last_written_comes_first() {
    let tmp = tempfile::tempdir().unwrap();
    let logs = tmp.path().join("logs");
    let spec = CorpusSpec {
        turns: (1, 2),
        steps: (1, 2),
        max_tool_output: 2048,
        ..CorpusSpec::new(60, 11)
    };
    generate(&spec, &logs).unwrap();
    // Write times unrelated to the files' names or sizes: a scrambled order, a minute apart.
    let files = tools_support::common::files_under(&logs);
    let base = SystemTime::UNIX_EPOCH + Duration::from_secs(1_750_000_000);
    for (i, f) in files.iter().enumerate() {
        let minute = (i as u64 * 37) % files.len() as u64;
        let file = std::fs::File::options().append(true).open(f).unwrap();
        file.set_modified(base + Duration::from_secs(60 * minute))
            .unwrap();
    }
    let queries = ["the", "error", "src"];
    let first = fresh_answers(&logs, &queries).await;
    let mut others = Vec::new();
    for _ in 0..4 {
        others.push(fresh_answers(&logs, &queries).await);
    }
    assert_five_fresh_indexes_agree(&first, &others);

    // The order the description states: the session whose log was written last first.
    let data = tempfile::tempdir().unwrap();
    let store = TraceStore::open(Config::for_tree(&logs, &data.path().join("data"))).unwrap();
    store.refresh().unwrap();
    let conn = rusqlite::Connection::open(data.path().join("data/index.sqlite")).unwrap();
    let written: HashMap<String, SystemTime> = conn
        .prepare("SELECT id, path FROM sessions")
        .unwrap()
        .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
        .unwrap()
        .map(|r| {
            let (id, path) = r.unwrap();
            let mtime = std::fs::metadata(&path).unwrap().modified().unwrap();
            (id, mtime)
        })
        .collect();
    let hits = &first[0];
    assert!(hits.len() > 20, "{} hits", hits.len());
    assert_grouped_latest_first(hits);
    let times: Vec<SystemTime> = hits
        .iter()
        .map(|h| written[h["session_id"].as_str().unwrap()])
        .collect();
    assert!(
        times.windows(2).all(|w| w[0] >= w[1]),
        "not newest log first: {times:?}"
    );
}
