//! OpenCode: both layouts (the SQLite database written by OpenCode itself, offline, and the
//! legacy JSON tree; see `tests/real_logs/SOURCES.md`) indexed and compared with what the raw
//! rows and files say, computed here without the parser; re-indexing (an unchanged session is
//! not read again, a session that grew is); a database that cannot be read; and the tools over
//! MCP through the `agtrace` binary.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use agtrace_tools::config::Config;
use agtrace_tools::index::{SearchQuery, SkipReason};
use agtrace_tools::model::{EventKind, Provider};
use agtrace_tools::store::TraceStore;
use mcp_tool::rmcp::transport::TokioChildProcess;
use mcp_tool::testing::TestClient;
use rusqlite::Connection;
use serde_json::{Value, json};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/real_logs/opencode")
}

/// What one session's raw rows or files say.
#[derive(Debug, Default, Clone, PartialEq)]
struct Expected {
    id: String,
    parent: Option<String>,
    directory: Option<String>,
    prompts: Vec<String>,
    tool_calls: u32,
    tool_errors: u32,
    /// input (with cache reads and writes), cached, cache writes, output (with reasoning),
    /// reasoning: OpenCode keeps input and output without those parts.
    tokens: [u64; 5],
    model: Option<String>,
}

fn n(v: &Value, pointer: &str) -> u64 {
    v.pointer(pointer).and_then(Value::as_u64).unwrap_or(0)
}

/// Folds one message and its parts into `e`, by OpenCode's message schema.
fn fold(e: &mut Expected, message: &Value, parts: &[Value]) {
    match message["role"].as_str() {
        Some("user") => {
            let typed: Vec<&str> = parts
                .iter()
                .filter(|p| p["type"] == "text" && p["synthetic"] != true && p["ignored"] != true)
                .filter_map(|p| p["text"].as_str())
                .collect();
            if !typed.is_empty() {
                e.prompts.push(typed.join("\n"));
            }
        }
        Some("assistant") => {
            let t = &message["tokens"];
            let (read, write) = (n(t, "/cache/read"), n(t, "/cache/write"));
            e.tokens[0] += n(t, "/input") + read + write;
            e.tokens[1] += read;
            e.tokens[2] += write;
            e.tokens[3] += n(t, "/output") + n(t, "/reasoning");
            e.tokens[4] += n(t, "/reasoning");
            if let Some(m) = message["modelID"].as_str() {
                e.model = Some(m.to_string());
            }
            for p in parts.iter().filter(|p| p["type"] == "tool") {
                e.tool_calls += 1;
                // An error, or a completed shell command whose exit code is not 0.
                let exit = p["state"]["metadata"]["exit"].as_i64();
                if p["state"]["status"] == "error"
                    || (p["state"]["status"] == "completed" && exit.is_some_and(|c| c != 0))
                {
                    e.tool_errors += 1;
                }
            }
        }
        _ => {}
    }
}

/// Every session of a database, from its rows.
fn expected_from_db(db: &Path) -> BTreeMap<String, Expected> {
    let conn = Connection::open(db).unwrap();
    let mut out = BTreeMap::new();
    let mut st = conn
        .prepare("SELECT id, parent_id, directory FROM session")
        .unwrap();
    let sessions: Vec<(String, Option<String>, Option<String>)> = st
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    for (id, parent, directory) in sessions {
        let mut e = Expected {
            id: id.clone(),
            parent,
            directory,
            ..Expected::default()
        };
        let mut st = conn
            .prepare("SELECT id, data FROM message WHERE session_id = ?1 ORDER BY time_created, id")
            .unwrap();
        let messages: Vec<(String, String)> = st
            .query_map([&id], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        for (mid, data) in messages {
            let mut st = conn
                .prepare("SELECT data FROM part WHERE message_id = ?1 ORDER BY id")
                .unwrap();
            let parts: Vec<Value> = st
                .query_map([&mid], |r| r.get::<_, String>(0))
                .unwrap()
                .map(|d| serde_json::from_str(&d.unwrap()).unwrap())
                .collect();
            fold(&mut e, &serde_json::from_str(&data).unwrap(), &parts);
        }
        out.insert(id, e);
    }
    out
}

fn json_files(dir: &Path) -> Vec<Value> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    files.sort();
    files
        .iter()
        .map(|f| serde_json::from_slice(&std::fs::read(f).unwrap()).unwrap())
        .collect()
}

/// Every session of a legacy tree, from its files.
fn expected_from_tree(storage: &Path) -> BTreeMap<String, Expected> {
    let mut out = BTreeMap::new();
    for project in std::fs::read_dir(storage.join("session")).unwrap() {
        for s in json_files(&project.unwrap().path()) {
            let id = s["id"].as_str().unwrap().to_string();
            let mut e = Expected {
                id: id.clone(),
                parent: s["parentID"].as_str().map(str::to_string),
                directory: s["directory"].as_str().map(str::to_string),
                ..Expected::default()
            };
            let mut messages = json_files(&storage.join("message").join(&id));
            messages.sort_by_key(|m| (m["time"]["created"].as_i64(), m["id"].to_string()));
            for m in messages {
                let parts = json_files(&storage.join("part").join(m["id"].as_str().unwrap()));
                fold(&mut e, &m, &parts);
            }
            out.insert(id, e);
        }
    }
    out
}

/// `files` under `<tmp>/logs/opencode`, a store over that tree, and the data dir.
fn store_with(tmp: &Path, files: &[(&Path, &str)]) -> (PathBuf, TraceStore) {
    let root = tmp.join("logs/opencode");
    std::fs::create_dir_all(&root).unwrap();
    for (from, to) in files {
        let target = root.join(to);
        if from.is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            common::copy_tree(from, &target);
        } else {
            std::fs::copy(from, &target).unwrap();
        }
    }
    let store = TraceStore::open(Config::for_tree(&tmp.join("logs"), &tmp.join("data"))).unwrap();
    (root, store)
}

fn db_store(tmp: &Path) -> (PathBuf, TraceStore) {
    store_with(tmp, &[(&fixtures().join("opencode.db"), "opencode.db")])
}

fn tree_store(tmp: &Path) -> (PathBuf, TraceStore) {
    store_with(tmp, &[(&fixtures().join("storage"), "storage")])
}

fn check_sessions(store: &TraceStore, expected: &BTreeMap<String, Expected>) {
    let page = store
        .list_sessions(
            &agtrace_tools::index::SessionFilter {
                provider: Some(Provider::Opencode),
                include_subagents: true,
                ..Default::default()
            },
            None,
            100,
        )
        .unwrap();
    let mut listed: Vec<String> = page.sessions.iter().map(|s| s.id.clone()).collect();
    listed.sort();
    assert_eq!(listed, expected.keys().cloned().collect::<Vec<_>>());
    for e in expected.values() {
        let s = store.session_summary(&e.id).unwrap();
        assert_eq!(s.provider, Provider::Opencode);
        assert_eq!(s.parent_id, e.parent, "{}", e.id);
        assert_eq!(s.is_subagent, e.parent.is_some(), "{}", e.id);
        assert_eq!(s.project.root, e.directory, "{}", e.id);
        assert_eq!(s.prompt_count as usize, e.prompts.len(), "{}", e.id);
        assert_eq!(s.turn_count as usize, e.prompts.len().max(1), "{}", e.id);
        assert_eq!(s.tool_calls, e.tool_calls, "{}", e.id);
        assert_eq!(s.tool_errors, e.tool_errors, "{}", e.id);
        assert_eq!(s.model, e.model, "{}", e.id);
        let t = &s.tokens;
        assert_eq!(
            [
                t.input,
                t.cached_input,
                t.cache_creation_input,
                t.output,
                t.reasoning_output
            ],
            e.tokens,
            "{}",
            e.id
        );
        assert_eq!(t.total, e.tokens[0] + e.tokens[3], "{}", e.id);
    }
}

fn search_finds_prompts(store: &TraceStore, expected: &BTreeMap<String, Expected>) -> usize {
    let mut searched = 0;
    for e in expected.values() {
        for prompt in &e.prompts {
            // A few plain words of the prompt, as a phrase.
            let words: Vec<String> = prompt
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .take(4)
                .map(str::to_string)
                .collect();
            let q = SearchQuery {
                text: format!("\"{}\"", words.join(" ")),
                provider: Some(Provider::Opencode),
                kind: Some(EventKind::User),
                limit: 50,
                ..Default::default()
            };
            let hits = store.search(&q).unwrap().hits;
            assert!(
                hits.iter().any(|h| h.session_id == e.id),
                "{}: prompt {prompt:?} not found: {hits:?}",
                e.id
            );
            searched += 1;
        }
    }
    searched
}

#[test]
fn database_sessions_match_their_rows() {
    let tmp = tempfile::tempdir().unwrap();
    let (root, store) = db_store(tmp.path());
    let stats = store.refresh().unwrap();
    assert!(stats.skipped.is_empty(), "{:?}", stats.skipped);
    let expected = expected_from_db(&root.join("opencode.db"));
    assert_eq!(expected.len(), 3);
    assert_eq!(stats.files_parsed, 3);
    // The `task` tool's sub-agent session is linked to the session that ran it.
    let sub = expected.values().find(|e| e.parent.is_some()).unwrap();
    let parent = store.session_summary(sub.parent.as_ref().unwrap()).unwrap();
    assert!(!parent.is_subagent);
    let full = store.load_session(&parent.id).unwrap();
    assert_eq!(full.children, vec![sub.id.clone()]);
    assert!(expected.values().all(|e| e.tokens[0] > 0));
    check_sessions(&store, &expected);
    assert_eq!(search_finds_prompts(&store, &expected), 3);
}

#[test]
fn tree_sessions_match_their_files() {
    let tmp = tempfile::tempdir().unwrap();
    let (root, store) = tree_store(tmp.path());
    let stats = store.refresh().unwrap();
    assert!(stats.skipped.is_empty(), "{:?}", stats.skipped);
    let expected = expected_from_tree(&root.join("storage"));
    assert_eq!(expected.len(), 2);
    check_sessions(&store, &expected);
    assert!(search_finds_prompts(&store, &expected) >= 3);
    // The failed `bash` call and the aborted message are kept.
    let large = store.load_session("s_stage0_large").unwrap();
    let result = large
        .events
        .iter()
        .find(|e| e.kind == EventKind::ToolResult)
        .unwrap();
    assert!(result.text.contains("No such file or directory"));
    assert!(
        large
            .events
            .iter()
            .any(|e| e.kind == EventKind::Notification && e.text.contains("MessageAbortedError"))
    );
}

#[test]
fn a_database_beside_the_tree_is_read_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let (root, store) = store_with(
        tmp.path(),
        &[
            (&fixtures().join("opencode.db"), "opencode.db"),
            (&fixtures().join("storage"), "storage"),
        ],
    );
    store.refresh().unwrap();
    check_sessions(&store, &expected_from_db(&root.join("opencode.db")));
}

#[test]
fn every_event_reads_back_with_its_raw_row() {
    let tmp = tempfile::tempdir().unwrap();
    let (root, store) = db_store(tmp.path());
    store.refresh().unwrap();
    for id in expected_from_db(&root.join("opencode.db")).keys() {
        let full = store.load_session(id).unwrap();
        assert_eq!(full.events.len() as u32, full.summary.event_count, "{id}");
        for e in &full.events {
            let d = store.get_event(id, e.index).unwrap();
            assert_eq!(d.provider, Provider::Opencode);
            assert_eq!(d.event.kind, e.kind);
            assert_eq!(d.event.text, e.text);
            let raw = &d.event.raw;
            assert!(raw.is_object(), "{id} #{}: {raw}", e.index);
            match e.kind {
                EventKind::ToolCall | EventKind::ToolResult => {
                    assert_eq!(raw["type"], "tool");
                    assert_eq!(raw["callID"].as_str(), e.call_id.as_deref());
                }
                // The message, with OpenCode's own token terms.
                EventKind::TokenUsage => {
                    assert_eq!(raw["role"], "assistant");
                    let t = d.event.tokens.unwrap();
                    assert_eq!(t.cached_input, n(raw, "/tokens/cache/read"));
                    assert_eq!(t.reasoning_output, n(raw, "/tokens/reasoning"));
                }
                EventKind::User => assert_eq!(raw["type"], "text"),
                _ => {}
            }
        }
    }
}

/// Adds a prompt (a user message and its text part) to `session` and moves its update time,
/// through a connection that stays open in WAL mode, as a running OpenCode would.
fn append_prompt(db: &Path, session: &str, text: &str) -> Connection {
    let conn = Connection::open(db).unwrap();
    conn.pragma_update(None, "journal_mode", "wal").unwrap();
    let now: i64 = conn
        .query_row("SELECT max(time_updated) + 1000 FROM session", [], |r| {
            r.get(0)
        })
        .unwrap();
    let data = json!({"role": "user", "time": {"created": now}, "agent": "build"}).to_string();
    conn.execute(
        "INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES ('msg_zz_appended', ?1, ?2, ?2, ?3)",
        rusqlite::params![session, now, data],
    )
    .unwrap();
    let part = json!({"type": "text", "text": text}).to_string();
    conn.execute(
        "INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES ('prt_zz_appended', 'msg_zz_appended', ?1, ?2, ?2, ?3)",
        rusqlite::params![session, now, part],
    )
    .unwrap();
    conn.execute(
        "UPDATE session SET time_updated = ?2 WHERE id = ?1",
        rusqlite::params![session, now],
    )
    .unwrap();
    conn
}

#[test]
fn only_a_changed_session_is_read_again() {
    let tmp = tempfile::tempdir().unwrap();
    let (root, store) = db_store(tmp.path());
    let db = root.join("opencode.db");
    assert_eq!(store.refresh().unwrap().files_parsed, 3);
    let again = store.refresh().unwrap();
    assert_eq!((again.files_parsed, again.files_skipped), (0, 3));

    let expected = expected_from_db(&db);
    let target = expected.values().find(|e| e.parent.is_none()).unwrap();
    let before = store.session_summary(&target.id).unwrap();
    let _writer = append_prompt(&db, &target.id, "zebra quokka appended prompt");
    let grown = store.refresh().unwrap();
    assert_eq!((grown.files_parsed, grown.files_skipped), (1, 2));
    let after = store.session_summary(&target.id).unwrap();
    assert_eq!(after.prompt_count, before.prompt_count + 1);
    assert_eq!(after.turn_count, before.turn_count + 1);
    let hits = store
        .search(&SearchQuery {
            text: "quokka".into(),
            limit: 10,
            ..Default::default()
        })
        .unwrap()
        .hits;
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].session_id, target.id);
    assert_eq!(hits[0].kind, EventKind::User);
    check_sessions(&store, &expected_from_db(&db));
}

#[test]
fn the_tree_is_read_again_when_a_part_changes() {
    let tmp = tempfile::tempdir().unwrap();
    let (root, store) = tree_store(tmp.path());
    store.refresh().unwrap();
    let part = root.join("storage/part/m_user_small/001.json");
    let mut v: Value = serde_json::from_slice(&std::fs::read(&part).unwrap()).unwrap();
    v["text"] = json!("a rewritten wombat prompt");
    std::fs::write(&part, v.to_string()).unwrap();
    let stats = store.refresh().unwrap();
    assert_eq!((stats.files_parsed, stats.files_skipped), (1, 1));
    let hits = store
        .search(&SearchQuery {
            text: "wombat".into(),
            limit: 10,
            ..Default::default()
        })
        .unwrap()
        .hits;
    assert_eq!(hits.len(), 1);
    check_sessions(&store, &expected_from_tree(&root.join("storage")));
}

fn skips(store: &TraceStore) -> Vec<(String, SkipReason)> {
    store
        .refresh()
        .unwrap()
        .skipped
        .into_iter()
        .map(|s| (s.path, s.reason))
        .collect()
}

#[test]
fn an_unreadable_database_gets_a_skip_reason_and_keeps_its_sessions() {
    let tmp = tempfile::tempdir().unwrap();
    let (root, store) = db_store(tmp.path());
    let db = root.join("opencode.db");
    store.refresh().unwrap();

    // Held by a writer in rollback-journal mode: readers wait, then give up.
    let writer = Connection::open(&db).unwrap();
    writer.execute_batch("BEGIN EXCLUSIVE").unwrap();
    let got = skips(&store);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].1, SkipReason::DatabaseBusy);
    assert!(got[0].0.ends_with("opencode.db"), "{got:?}");
    // Still indexed meanwhile.
    assert_eq!(expected_from_db_count(&store), 3);
    writer.execute_batch("ROLLBACK").unwrap();
    drop(writer);

    // Another schema.
    std::fs::remove_file(&db).unwrap();
    Connection::open(&db)
        .unwrap()
        .execute_batch("CREATE TABLE session (id TEXT PRIMARY KEY, name TEXT);")
        .unwrap();
    assert_eq!(
        skips(&store).iter().map(|s| s.1).collect::<Vec<_>>(),
        [SkipReason::UnknownSchema]
    );

    // Not a database at all.
    std::fs::write(
        &db,
        b"this is not sqlite, just text pretending to be a database file",
    )
    .unwrap();
    assert_eq!(
        skips(&store).iter().map(|s| s.1).collect::<Vec<_>>(),
        [SkipReason::CorruptDatabase]
    );
    // The database still exists, so the legacy tree is not read in its place; its sessions
    // stay indexed as they were.
    assert_eq!(expected_from_db_count(&store), 3);

    // Gone: its sessions go with it.
    std::fs::remove_file(&db).unwrap();
    let stats = store.refresh().unwrap();
    assert_eq!(stats.files_removed, 3);
    assert_eq!(expected_from_db_count(&store), 0);
}

fn expected_from_db_count(store: &TraceStore) -> usize {
    store
        .list_sessions(
            &agtrace_tools::index::SessionFilter {
                provider: Some(Provider::Opencode),
                include_subagents: true,
                ..Default::default()
            },
            None,
            100,
        )
        .unwrap()
        .sessions
        .len()
}

#[tokio::test]
async fn the_tools_answer_for_opencode_sessions_over_mcp() {
    let tmp = tempfile::tempdir().unwrap();
    let (root, store) = db_store(tmp.path());
    let expected = expected_from_db(&root.join("opencode.db"));
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_agtrace"));
    for p in Provider::ALL {
        let dir = if p == Provider::Opencode {
            &root
        } else {
            &empty
        };
        command.arg(format!("--{}={}", p.spec().flag, dir.display()));
    }
    command
        .arg(format!(
            "--data-dir={}",
            tmp.path().join("mcp-data").display()
        ))
        .arg("serve")
        .stderr(std::process::Stdio::null());
    let client = TestClient::connect(TokioChildProcess::new(command).unwrap())
        .await
        .expect("MCP handshake with agtrace serve");

    let list = client
        .call(
            "list_sessions",
            json!({"provider": "opencode", "include_subagents": true, "limit": 50}),
        )
        .await;
    let rows = list.expect_ok().as_array().unwrap().clone();
    let mut ids: Vec<&str> = rows
        .iter()
        .map(|r| r["session_id"].as_str().unwrap())
        .collect();
    ids.sort();
    assert_eq!(ids, expected.keys().map(String::as_str).collect::<Vec<_>>());

    let parent = expected
        .values()
        .find(|e| e.parent.is_none() && e.tool_calls > 0)
        .unwrap();
    let id = parent.id.as_str();
    let summary = client
        .call("get_session_summary", json!({"session_id": id}))
        .await;
    assert_eq!(summary.expect_ok()["session_id"], id);
    assert_eq!(summary.expect_ok()["provider"], "opencode");
    let turns = client
        .call("get_session_turns", json!({"session_id": id}))
        .await;
    assert!(turns.is_ok(), "{}", turns.envelope);
    assert!(
        turns
            .envelope
            .to_string()
            .contains(&parent.prompts[0][1..20])
    );
    let steps = client
        .call("get_turn_steps", json!({"session_id": id, "turn_index": 0}))
        .await;
    assert!(steps.is_ok(), "{}", steps.envelope);
    let full = client
        .call("get_session_full", json!({"session_id": id}))
        .await;
    assert!(full.is_ok(), "{}", full.envelope);
    let analysis = client
        .call("analyze_session", json!({"session_id": id}))
        .await;
    assert!(analysis.is_ok(), "{}", analysis.envelope);
    let event = client
        .call(
            "get_event_details",
            json!({"session_id": id, "event_index": 0}),
        )
        .await;
    assert!(event.is_ok(), "{}", event.envelope);
    let first = &event.expect_ok()[0];
    assert_eq!(first["kind"], "user");
    assert_eq!(first["text"], parent.prompts[0].as_str());
    // The tool's result, read back from its part row.
    store.refresh().unwrap();
    let result = store
        .load_session(id)
        .unwrap()
        .events
        .iter()
        .find(|e| e.kind == EventKind::ToolResult)
        .cloned()
        .unwrap();
    let output = {
        let conn = Connection::open(root.join("opencode.db")).unwrap();
        let data: String = conn
            .query_row(
                "SELECT data FROM part WHERE session_id = ?1 AND data LIKE '%\"callID\"%'",
                [id],
                |r| r.get(0),
            )
            .unwrap();
        let v: Value = serde_json::from_str(&data).unwrap();
        v["state"]["output"].as_str().unwrap().to_string()
    };
    let event = client
        .call(
            "get_event_details",
            json!({"session_id": id, "event_index": result.index}),
        )
        .await;
    let got = &event.expect_ok()[0];
    assert_eq!(got["kind"], "tool_result");
    assert_eq!(got["text"], output.as_str());
    assert_eq!(got["call_id"].as_str(), result.call_id.as_deref());
    let search = client
        .call("search_event_previews", json!({"query": "delegate"}))
        .await;
    assert!(search.is_ok(), "{}", search.envelope);
    assert!(
        search.envelope.to_string().contains(id),
        "{}",
        search.envelope
    );
    let projects = client.call("get_project_info", json!({})).await;
    assert!(projects.is_ok(), "{}", projects.envelope);
}

#[test]
fn the_older_tree_layout_reads_the_same() {
    // Older builds: `storage/session/info/<id>.json`, `storage/session/message/<sid>/…`,
    // `storage/session/part/<sid>/<mid>/…`.
    let tmp = tempfile::tempdir().unwrap();
    let current = fixtures().join("storage");
    let expected = expected_from_tree(&current);
    let storage = tmp.path().join("logs/opencode/storage/session");
    for e in expected.values() {
        let info = storage.join("info");
        std::fs::create_dir_all(&info).unwrap();
        let file = std::fs::read_dir(current.join("session/proj_test"))
            .unwrap()
            .map(|f| f.unwrap().path())
            .find(|p| {
                let v: Value = serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap();
                v["id"] == e.id.as_str()
            })
            .unwrap();
        std::fs::copy(&file, info.join(format!("{}.json", e.id))).unwrap();
        let messages = storage.join("message").join(&e.id);
        std::fs::create_dir_all(&messages).unwrap();
        common::copy_tree(&current.join("message").join(&e.id), &messages);
        for m in json_files(&messages) {
            let mid = m["id"].as_str().unwrap();
            let parts = storage.join("part").join(&e.id).join(mid);
            std::fs::create_dir_all(&parts).unwrap();
            common::copy_tree(&current.join("part").join(mid), &parts);
        }
    }
    let store = TraceStore::open(Config::for_tree(
        &tmp.path().join("logs"),
        &tmp.path().join("data"),
    ))
    .unwrap();
    let stats = store.refresh().unwrap();
    assert!(stats.skipped.is_empty(), "{:?}", stats.skipped);
    check_sessions(&store, &expected);
}
