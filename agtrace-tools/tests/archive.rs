//! The opt-in archive: sessions whose logs their agent deleted still answer every tool, from a
//! zstd copy in the data dir; copies follow appends and rewrites; the log roots are never
//! written; with the setting off nothing is copied.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use agtrace_tools::config::Config;
use agtrace_tools::error::Error;
use agtrace_tools::index::{SearchQuery, SessionFilter, archive_copy};
use agtrace_tools::store::TraceStore;
use common::SampleTree;
use serde_json::Value;

const CLAUDE_ID: &str = "7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9";
const CODEX_ID: &str = "019b04ae-b1c6-7c72-a134-a4c2de66058c";
const GEMINI_ID: &str = "f0a689a6-b0ac-407f-afcc-4fafa9e14e8a";

impl SampleTree {
    fn store(&self, archive: bool) -> TraceStore {
        let mut cfg = Config::for_tree(&self.logs, &self.data);
        cfg.archive = archive;
        TraceStore::open(cfg).unwrap()
    }

    fn log_of(&self, store: &TraceStore, id: &str) -> PathBuf {
        PathBuf::from(store.session_summary(id).unwrap().path)
    }
}

/// The log bytes a copy holds, decompressed here with the zstd crate (every frame).
fn copy_bytes(data: &Path, log: &Path) -> Vec<u8> {
    let copy = archive_copy(data, log.to_str().unwrap());
    zstd::stream::decode_all(std::fs::File::open(copy).unwrap()).unwrap()
}

fn log_bytes_under(dir: &Path) -> u64 {
    let mut total = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            total += log_bytes_under(&p);
        } else if p.extension().is_some_and(|x| x == "jsonl" || x == "json") {
            total += std::fs::metadata(&p).unwrap().len();
        }
    }
    total
}

#[test]
fn a_deleted_log_still_answers_every_read_from_its_copy_marked_archived() {
    let tree = SampleTree::copy();
    let store = tree.store(true);
    let stats = store.refresh().unwrap();
    assert_eq!(stats.archive.files, stats.files_parsed);
    assert_eq!(stats.archive.copied, stats.files_parsed);
    assert_eq!(stats.archive.raw_bytes, log_bytes_under(&tree.logs));
    assert!(
        stats.archive.stored_bytes * 3 < stats.archive.raw_bytes,
        "logs compress: {:?}",
        stats.archive
    );
    assert_eq!(stats.archive.kept_files, 0);

    let before: Vec<_> = [CLAUDE_ID, GEMINI_ID]
        .iter()
        .map(|id| store.load_session(id).unwrap())
        .collect();
    let event_before = store.get_event(CLAUDE_ID, 3).unwrap();
    let claude_log = tree.log_of(&store, CLAUDE_ID);
    let gemini_log = tree.log_of(&store, GEMINI_ID);
    let deleted = std::fs::metadata(&claude_log).unwrap().len()
        + std::fs::metadata(&gemini_log).unwrap().len();
    std::fs::remove_file(&claude_log).unwrap();
    std::fs::remove_file(&gemini_log).unwrap();

    // A fresh store: nothing comes from the session cache.
    let store = tree.store(true);
    let stats = store.refresh().unwrap();
    assert_eq!(stats.files_removed, 0, "their sessions are kept");
    assert_eq!(stats.archive.kept_files, 2);
    assert_eq!(stats.archive.kept_raw_bytes, deleted);
    for (id, was) in [CLAUDE_ID, GEMINI_ID].iter().zip(&before) {
        let s = store.session_summary(id).unwrap();
        assert!(s.archived, "{id} is marked archived");
        let now = store.load_session(id).unwrap();
        assert_eq!(now.events, was.events, "{id}: the same events");
        assert_eq!(now.turns, was.turns, "{id}: the same turns");
        assert_eq!(now.tokens, was.tokens);
    }
    assert!(!store.session_summary(CODEX_ID).unwrap().archived);
    assert_eq!(store.get_event(CLAUDE_ID, 3).unwrap(), event_before);
    let listed = store
        .list_sessions(&SessionFilter::default(), None, 50)
        .unwrap();
    let archived: Vec<&str> = listed
        .sessions
        .iter()
        .filter(|s| s.archived)
        .map(|s| s.id.as_str())
        .collect();
    assert_eq!(archived.len(), 2, "{archived:?}");
    // The index rows stay: search still finds the deleted session's prompt.
    let prompt = before[0].turns[0].prompt.clone().unwrap();
    let word = prompt
        .split_whitespace()
        .find(|w| w.len() > 5 && w.chars().all(char::is_alphanumeric))
        .unwrap()
        .to_string();
    let hits = store
        .search(&SearchQuery {
            text: word,
            session: Some(CLAUDE_ID.into()),
            limit: 5,
            ..Default::default()
        })
        .unwrap();
    assert!(!hits.hits.is_empty());

    // The log comes back: it is no longer marked, and nothing was dropped meanwhile.
    std::fs::write(&claude_log, copy_bytes(&tree.data, &claude_log)).unwrap();
    let stats = store.refresh().unwrap();
    assert_eq!(stats.archive.kept_files, 1);
    assert!(!store.session_summary(CLAUDE_ID).unwrap().archived);
}

#[test]
fn an_append_grows_the_copy_and_a_rewrite_replaces_it() {
    let tree = SampleTree::copy();
    let store = tree.store(true);
    store.refresh().unwrap();
    let codex = tree.log_of(&store, CODEX_ID);
    let copy = archive_copy(&tree.data, codex.to_str().unwrap());
    let stored_before = std::fs::metadata(&copy).unwrap().len();

    // Append the file's own first record again: a valid line.
    let original = std::fs::read(&codex).unwrap();
    let first_line = &original[..=original.iter().position(|&b| b == b'\n').unwrap()];
    std::fs::OpenOptions::new()
        .append(true)
        .open(&codex)
        .unwrap()
        .write_all(first_line)
        .unwrap();
    let stats = store.refresh().unwrap();
    assert_eq!(stats.archive.copied, 1);
    assert_eq!(
        copy_bytes(&tree.data, &codex),
        std::fs::read(&codex).unwrap()
    );
    let stored_after = std::fs::metadata(&copy).unwrap().len();
    assert!(
        stored_after > stored_before && stored_after - stored_before < stored_before,
        "one small frame added ({stored_before} -> {stored_after}), not a second whole copy"
    );

    // A Gemini document is rewritten in place: its copy is replaced whole.
    let gemini = tree.log_of(&store, GEMINI_ID);
    let text = std::fs::read_to_string(&gemini).unwrap();
    let mut doc: Value = serde_json::from_str(&text).unwrap();
    doc["lastUpdated"] = Value::String("2099-01-01T00:00:00.000Z".into());
    std::fs::write(&gemini, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    store.refresh().unwrap();
    assert_eq!(
        copy_bytes(&tree.data, &gemini),
        std::fs::read(&gemini).unwrap()
    );
}

#[test]
fn a_copy_longer_than_its_row_says_is_rewritten_not_grown() {
    let tree = SampleTree::copy();
    let store = tree.store(true);
    store.refresh().unwrap();
    let codex = tree.log_of(&store, CODEX_ID);
    // A crash after a frame was written and before its row was: the copy holds bytes its row
    // does not know of.
    let copy = archive_copy(&tree.data, codex.to_str().unwrap());
    let stray = zstd::bulk::compress(b"{\"stray\": true}\n", 3).unwrap();
    std::fs::OpenOptions::new()
        .append(true)
        .open(&copy)
        .unwrap()
        .write_all(&stray)
        .unwrap();
    let mut log = std::fs::OpenOptions::new()
        .append(true)
        .open(&codex)
        .unwrap();
    log.write_all(b"{\"timestamp\":\"2025-12-09T20:00:00.000Z\",\"type\":\"event_msg\",\"payload\":{\"type\":\"agent_message\",\"message\":\"later\"}}\n")
        .unwrap();
    drop(log);
    store.refresh().unwrap();
    assert_eq!(
        copy_bytes(&tree.data, &codex),
        std::fs::read(&codex).unwrap()
    );
}

#[test]
fn a_damaged_copy_is_a_clear_error_and_other_sessions_still_answer() {
    let tree = SampleTree::copy();
    let store = tree.store(true);
    store.refresh().unwrap();
    let claude = tree.log_of(&store, CLAUDE_ID);
    std::fs::remove_file(&claude).unwrap();
    store.refresh().unwrap();
    let copy = archive_copy(&tree.data, claude.to_str().unwrap());
    let len = std::fs::metadata(&copy).unwrap().len();
    std::fs::write(&copy, vec![0x42; len as usize]).unwrap();
    let store = tree.store(true);
    match store.load_session(CLAUDE_ID) {
        Err(Error::Corrupt(msg)) => assert!(msg.contains("archived copy"), "{msg}"),
        other => panic!("expected a corrupt-copy error, got {other:?}"),
    }
    assert!(store.load_session(CODEX_ID).is_ok());
}

#[test]
fn off_by_default_nothing_is_copied_and_a_deleted_log_drops_its_session() {
    let tree = SampleTree::copy();
    assert!(!Config::for_tree(&tree.logs, &tree.data).archive);
    let store = tree.store(false);
    let stats = store.refresh().unwrap();
    assert_eq!(stats.archive.files, 0);
    assert!(!tree.data.join("archive").exists());
    std::fs::remove_file(tree.log_of(&store, CLAUDE_ID)).unwrap();
    let stats = store.refresh().unwrap();
    assert_eq!(stats.files_removed, 1);
    assert!(store.session_summary(CLAUDE_ID).is_err());
}

#[test]
fn archiving_never_writes_the_log_roots() {
    let tree = SampleTree::copy();
    let before = tree.snapshot();
    let store = tree.store(true);
    store.refresh().unwrap();
    store.refresh().unwrap();
    for id in [CLAUDE_ID, CODEX_ID, GEMINI_ID] {
        store.load_session(id).unwrap();
    }
    assert_eq!(tree.snapshot(), before);
    assert!(tree.data.join("archive").is_dir());
}

/// Through the binary: `--archive` on `index`, then every read over MCP `call` answers the
/// deleted session, marked archived.
#[test]
fn the_binary_keeps_deleted_sessions_with_archive_on() {
    let tree = SampleTree::copy();
    let agtrace = |args: &[&str]| {
        let l = &tree.logs;
        Command::new(env!("CARGO_BIN_EXE_agtrace"))
            .arg(format!(
                "--claude-dir={}",
                l.join("claude/projects").display()
            ))
            .arg(format!(
                "--codex-dir={}",
                l.join("codex/sessions").display()
            ))
            .arg(format!("--gemini-dir={}", l.join("gemini/tmp").display()))
            .arg(format!("--data-dir={}", tree.data.display()))
            .args(args)
            .output()
            .unwrap()
    };
    let out = agtrace(&["--archive", "index"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("archive: 10 logs"), "{text}");
    let store = tree.store(false);
    std::fs::remove_file(tree.log_of(&store, CLAUDE_ID)).unwrap();
    let out = agtrace(&["--archive", "index"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("1 deleted by their agent still answer"),
        "{text}"
    );

    let call = |tool: &str, args: &str| -> Value {
        let out = agtrace(&["call", tool, args]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["status"], "ok", "{tool}: {v}");
        v
    };
    let summary = call(
        "get_session_summary",
        &format!(r#"{{"session_id": "{CLAUDE_ID}"}}"#),
    );
    assert_eq!(summary["data"]["archived"], true);
    let turns = call(
        "get_session_turns",
        &format!(r#"{{"session_id": "{CLAUDE_ID}"}}"#),
    );
    assert!(!turns["data"].as_array().unwrap().is_empty());
    call(
        "get_turn_steps",
        &format!(r#"{{"session_id": "{CLAUDE_ID}", "turn_index": 0}}"#),
    );
    call(
        "get_session_full",
        &format!(r#"{{"session_id": "{CLAUDE_ID}"}}"#),
    );
    call(
        "get_event_details",
        &format!(r#"{{"session_id": "{CLAUDE_ID}", "event_index": 1}}"#),
    );
    let listed = call("list_sessions", r#"{"limit": 50}"#);
    let marked: Vec<&Value> = listed["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["archived"] == true)
        .collect();
    assert_eq!(marked.len(), 1);
    assert_eq!(marked[0]["session_id"], CLAUDE_ID);
}
