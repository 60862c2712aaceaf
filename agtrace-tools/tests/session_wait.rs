//! A call about one session waits for a refresh only when that session's logs (its own and its
//! sub-agents') changed since they were indexed: the store's gate here never refreshes, and its
//! caller has given up, so a call that would wait ends at once with `Cancelled` instead. Nor
//! does it open the index itself: a served store's refresher opens it before its first refresh.

mod common;

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use agtrace_tools::error::Error;
use agtrace_tools::fresh::Freshness;
use agtrace_tools::index::SessionFilter;
use agtrace_tools::store::TraceStore;

const PARENT: &str = "7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9";
const GEMINI: &str = "f0a689a6";

/// Ok when the call answered without waiting; `Cancelled` when it would have waited.
fn waits(store: &TraceStore, session: &str) -> bool {
    match store.wait_fresh_for(session) {
        Ok(()) => false,
        Err(Error::Cancelled) => true,
        Err(e) => panic!("unexpected error for {session}: {e}"),
    }
}

fn append(path: &Path, text: &str) {
    let mut f = std::fs::OpenOptions::new().append(true).open(path).unwrap();
    f.write_all(text.as_bytes()).unwrap();
}

#[test]
fn a_session_call_waits_only_for_changes_to_its_own_or_its_subagents_logs() {
    let tmp = tempfile::tempdir().unwrap();
    let (logs, indexed) = common::sample_store(tmp.path());
    indexed.refresh().unwrap();
    let sessions = indexed
        .list_sessions(
            &SessionFilter {
                include_subagents: true,
                ..SessionFilter::default()
            },
            None,
            100,
        )
        .unwrap()
        .sessions;
    assert!(sessions.len() >= 5, "the samples hold several sessions");

    // A gate that still owes its first refresh, on a caller that has given up.
    let store = TraceStore::open(indexed.config().clone())
        .unwrap()
        .with_freshness(Freshness::new())
        .interruptible(|| true);
    assert!(
        matches!(store.wait_fresh(), Err(Error::Cancelled)),
        "an index-wide call waits for the refresh"
    );
    for s in &sessions {
        assert!(!waits(&store, &s.id), "{} is as indexed: no wait", s.id);
    }
    assert!(waits(&store, "0000000000-no-such-session"), "unknown: wait");

    // A sub-agent's log grows: its parent's answers list it, so the parent waits too.
    let claude = logs.join("claude/projects/-Users-test_user-agent-sample");
    let child = claude.join(format!("{PARENT}/subagents/agent-0c4c3cf8.jsonl"));
    let child_id = sessions
        .iter()
        .find(|s| s.parent_id.as_deref() == Some(PARENT))
        .expect("the sample parent has a sub-agent")
        .id
        .clone();
    append(&child, "\n");
    assert!(waits(&store, &child_id), "the sub-agent's own log changed");
    assert!(waits(&store, PARENT), "a sub-agent's log changed");
    assert!(!waits(&store, GEMINI), "an unrelated session does not wait");

    // Rewritten in place (same size), then deleted: both wait.
    let gemini = sessions.iter().find(|s| s.id.starts_with(GEMINI)).unwrap();
    let bytes = std::fs::read(&gemini.path).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(&gemini.path, &bytes).unwrap();
    assert!(waits(&store, GEMINI), "a log written again");
    indexed.refresh().unwrap();
    assert!(!waits(&store, GEMINI), "indexed again: no wait");
    std::fs::remove_file(&gemini.path).unwrap();
    assert!(waits(&store, GEMINI), "a deleted log");
}

#[test]
fn the_refresher_opens_the_index_before_its_first_refresh() {
    let tmp = tempfile::tempdir().unwrap();
    let (_logs, indexed) = common::sample_store(tmp.path());
    let config = indexed.config().clone();
    drop(indexed);
    std::fs::remove_file(config.index_path()).unwrap();
    let store = TraceStore::open_deferred(config.clone()).unwrap();
    let tables = || {
        let conn = rusqlite::Connection::open(config.index_path()).unwrap();
        conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| {
            r.get::<_, i64>(0)
        })
        .unwrap()
    };
    assert_eq!(tables(), 0, "a deferred store leaves the index unopened");

    // The refresh itself never starts: its hook blocks until the test ends.
    let gate = Freshness::new();
    let (release, blocked) = std::sync::mpsc::channel::<()>();
    let (started, start) = std::sync::mpsc::channel();
    let on_start = move || {
        let _ = started.send(std::thread::current().name().map(str::to_owned));
    };
    let refresher = gate
        .spawn_refresher(store, None, on_start, move || {
            let _ = blocked.recv();
        })
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while tables() == 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(tables() > 0, "the index was created without a refresh");
    assert_eq!(
        start.recv().unwrap().as_deref(),
        Some("agtrace-refresh"),
        "on_start runs first, on the refresher's thread"
    );
    gate.stop();
    drop(release);
    refresher.join().unwrap();
}
