//! Gemini CLI JSONL sessions (`chats/session-*.jsonl`): replay of the journal, sub-agents,
//! incremental reads that equal a fresh build, and a skip reason for a file that is no log.
//!
//! The journal below follows the records the CLI's `ChatRecordingService` writes (header,
//! messages, a message written again with the same id, `$set`, `$rewindTo`); no public
//! repository holds a real `.jsonl` session to copy, so it is written here.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use agtrace_tools::config::Config;
use agtrace_tools::index::SkipReason;
use agtrace_tools::model::{EventKind, Provider};
use agtrace_tools::providers::parse_file;
use agtrace_tools::store::TraceStore;
use common::dump;
use serde_json::{Value, json};

const HASH: &str = "205016864bd110904e9ad8314192344ab398d043e779da15bedbb9ee9be00da2";
const SID: &str = "9f5659bb-1111-4000-8000-000000000001";

/// The main session's journal under `logs` (its folder made).
fn journal_path(logs: &Path) -> PathBuf {
    chats(logs).join("session-2026-10-01T09-00-9f5659bb.jsonl")
}

fn chats(logs: &Path) -> PathBuf {
    let d = logs.join("gemini/tmp").join(HASH).join("chats");
    fs::create_dir_all(&d).unwrap();
    d
}

fn tokens(input: u64, output: u64, cached: u64, thoughts: u64) -> Value {
    json!({"input": input, "output": output, "cached": cached, "thoughts": thoughts, "tool": 0,
           "total": input + output + thoughts})
}

fn user(id: &str, ts: &str, text: &str) -> Value {
    json!({"id": id, "timestamp": ts, "type": "user", "content": [{"text": text}]})
}

fn gemini(id: &str, ts: &str, text: &str, tok: Value, calls: Value) -> Value {
    json!({"id": id, "timestamp": ts, "type": "gemini", "content": text, "model": "gemini-2.5-pro",
           "thoughts": [{"subject": "Plan", "description": "look first", "timestamp": ts}],
           "tokens": tok, "toolCalls": calls})
}

fn shell(id: &str, status: &str, output: &str) -> Value {
    json!([{"id": id, "name": "run_shell_command", "args": {"command": "ls"}, "status": status,
            "timestamp": "2026-10-01T09:00:04.000Z",
            "result": [{"functionResponse": {"id": id, "name": "run_shell_command",
                                             "response": {"output": output}}}]}])
}

/// The session's records, in the order the CLI appends them.
fn journal() -> Vec<Value> {
    vec![
        json!({"sessionId": SID, "projectHash": HASH, "startTime": "2026-10-01T09:00:00.000Z",
               "lastUpdated": "2026-10-01T09:00:00.000Z", "kind": "main"}),
        json!({"$set": {"messages": [user("ctx", "2026-10-01T09:00:00.100Z",
               "<session_context>\nThis is the Gemini CLI.\n</session_context>")]}}),
        user("u1", "2026-10-01T09:00:01.000Z", "list the files"),
        json!({"$set": {"lastUpdated": "2026-10-01T09:00:01.000Z"}}),
        // Written when the turn starts, then again with the tool's result and final tokens.
        gemini(
            "g1",
            "2026-10-01T09:00:03.000Z",
            "",
            tokens(100, 5, 0, 7),
            shell("c1", "executing", ""),
        ),
        gemini(
            "g1",
            "2026-10-01T09:00:03.000Z",
            "",
            tokens(1000, 20, 600, 30),
            shell("c1", "success", "a.txt"),
        ),
        json!({"id": "fr1", "timestamp": "2026-10-01T09:00:04.500Z", "type": "user",
               "content": [{"functionResponse": {"id": "c1", "name": "run_shell_command",
                                                 "response": {"output": "a.txt"}}}]}),
        gemini(
            "g2",
            "2026-10-01T09:00:05.000Z",
            "There is a.txt.",
            tokens(1200, 40, 900, 10),
            json!([]),
        ),
        user("u2", "2026-10-01T09:00:06.000Z", "delete it"),
        gemini(
            "g3",
            "2026-10-01T09:00:07.000Z",
            "Deleting.",
            tokens(1300, 9, 0, 4),
            json!([]),
        ),
        // The person rewinds to before "delete it" and asks something else.
        json!({"$rewindTo": "u2"}),
        user("u3", "2026-10-01T09:00:09.000Z", "show it"),
        gemini(
            "g4",
            "2026-10-01T09:00:10.000Z",
            "It is empty.",
            tokens(1400, 12, 1000, 0),
            json!([]),
        ),
    ]
}

fn write(path: &Path, records: &[Value]) {
    let text: String = records.iter().map(|r| format!("{r}\n")).collect();
    fs::write(path, text).unwrap();
}

/// The messages that stand after replaying `records` the way the CLI's loader does.
fn replay(records: &[Value]) -> Vec<Value> {
    let mut msgs: Vec<Value> = Vec::new();
    for r in records {
        if let Some(id) = r.get("$rewindTo").and_then(Value::as_str) {
            match msgs.iter().position(|m| m["id"] == id) {
                Some(i) => msgs.truncate(i),
                None => msgs.clear(),
            }
        } else if r.get("id").is_some() {
            match msgs.iter().position(|m| m["id"] == r["id"]) {
                Some(i) => msgs[i] = r.clone(),
                None => msgs.push(r.clone()),
            }
        } else if let Some(list) = r.pointer("/$set/messages").and_then(Value::as_array) {
            msgs = list.clone();
        }
    }
    msgs
}

#[test]
fn a_journal_is_replayed_with_rewrites_in_place_rewinds_and_checkpoints() {
    let tmp = tempfile::tempdir().unwrap();
    let path = journal_path(tmp.path());
    let records = journal();
    write(&path, &records);
    let (state, events) = parse_file(Provider::Gemini, &path, false).unwrap();
    assert_eq!(state.meta.session_id, SID);
    assert_eq!(state.meta.project_hash.as_deref(), Some(HASH));
    assert_eq!(state.malformed, 0);

    let standing = replay(&records);
    // Prompts are the person's: not the session context, not handed-back function responses.
    let prompts: Vec<&str> = events
        .iter()
        .filter(|e| e.kind == EventKind::User)
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(prompts, ["list the files", "show it"]);
    assert_eq!(state.turn_count(), 2);
    // Tokens of the messages that stand, each counted once with its last write.
    let (mut input, mut output, mut cached) = (0, 0, 0);
    for m in standing.iter().filter(|m| m["type"] == "gemini") {
        let t = &m["tokens"];
        input += t["input"].as_u64().unwrap();
        output += t["output"].as_u64().unwrap() + t["thoughts"].as_u64().unwrap();
        cached += t["cached"].as_u64().unwrap();
    }
    let total = state.tokens.total();
    assert_eq!(
        (total.input, total.output, total.cached_input),
        (input, output, cached)
    );
    assert_eq!(
        input,
        1000 + 1200 + 1400,
        "the first write of g1 and the rewound g3 do not count"
    );
    // The rewritten message keeps its place and its final tool result; the rewound one is gone.
    let results: Vec<&str> = events
        .iter()
        .filter(|e| e.kind == EventKind::ToolResult)
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(results, ["a.txt"]);
    assert!(
        !events
            .iter()
            .any(|e| e.text == "Deleting." || e.text == "delete it")
    );
}

fn refresh_equals_fresh(logs: &Path, data: &Path) {
    let store = TraceStore::open(Config::for_tree(logs, data)).unwrap();
    store.refresh().unwrap();
    drop(store);
    let fresh = tempfile::tempdir().unwrap();
    let store = TraceStore::open(Config::for_tree(logs, fresh.path())).unwrap();
    store.refresh().unwrap();
    drop(store);
    assert_eq!(dump(data), dump(fresh.path()));
}

#[test]
fn every_append_rewrite_and_rewind_leaves_the_index_as_a_fresh_build_would() {
    let logs = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let path = journal_path(logs.path());
    let records = journal();
    // Grow the file one record at a time: appends of new messages, a rewrite of g1, a rewind.
    for n in 1..=records.len() {
        write(&path, &records[..n]);
        refresh_equals_fresh(logs.path(), data.path());
    }
}

/// A record indexed before its newline was written, then more bytes on the same line: a fresh
/// parse reads one malformed line there, and so must the refresh.
#[test]
fn a_record_indexed_before_its_newline_then_written_on() {
    let logs = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let path = journal_path(logs.path());
    let records = journal();
    let head: String = records[..3].iter().map(|r| format!("{r}\n")).collect();
    let unterminated = head.trim_end_matches('\n');
    fs::write(&path, unterminated).unwrap();
    refresh_equals_fresh(logs.path(), data.path());
    let rest: String = records[3..].iter().map(|r| format!("{r}\n")).collect();
    fs::write(&path, format!("{unterminated}{rest}")).unwrap();
    refresh_equals_fresh(logs.path(), data.path());
}

#[test]
fn sub_agents_link_to_their_parent_and_a_broken_chat_gets_a_skip_reason() {
    let logs = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let dir = chats(logs.path());
    write(&journal_path(logs.path()), &journal());
    let sub_dir = dir.join(SID);
    fs::create_dir_all(&sub_dir).unwrap();
    write(
        &sub_dir.join("sub-1.jsonl"),
        &[
            json!({"sessionId": "sub-1", "projectHash": HASH, "startTime": "2026-10-01T09:00:02.000Z", "kind": "subagent"}),
            user("s1", "2026-10-01T09:00:02.100Z", "find the files"),
            gemini(
                "s2",
                "2026-10-01T09:00:02.500Z",
                "a.txt",
                tokens(50, 3, 0, 0),
                json!([]),
            ),
        ],
    );
    fs::write(dir.join("session-renamed.jsonl"), "not json\nat all\n").unwrap();
    let store = TraceStore::open(Config::for_tree(logs.path(), data.path())).unwrap();
    let stats = store.refresh().unwrap();
    let sub = store.session_summary("sub-1").unwrap();
    assert!(sub.is_subagent);
    assert_eq!(sub.parent_id.as_deref(), Some(SID));
    assert_eq!(sub.tokens.input, 50);
    assert!(
        stats
            .skipped
            .iter()
            .any(|s| s.path.ends_with("session-renamed.jsonl")
                && s.reason == SkipReason::NotValidJson),
        "{:?}",
        stats.skipped
    );
}
