//! Long event texts that their log line gives back are left in the log (schema 13): the index
//! records their length and digest only, and search previews, events and file-history prompts
//! read them from the line, masked as the index masks; from the archived copy once the log is
//! gone. A line rewritten since it was indexed is never shown as another text.

mod common;

use std::path::{Path, PathBuf};

use agtrace_tools::config::Config;
use agtrace_tools::index::SearchQuery;
use agtrace_tools::index::stored_text::StoredText;
use agtrace_tools::store::TraceStore;
use serde_json::json;

const SESSION: &str = "5e0c0a51-7d1e-4c2b-9a33-0b1d2e3f4a5b";
const AWS_KEY: &str = "AKIAIOSFODNN7EXAMPLE";

fn rec(i: usize, role: &str, content: serde_json::Value) -> String {
    json!({"type":role,"sessionId":SESSION,"cwd":"/work/walrus","uuid":format!("u{i}"),
        "timestamp":format!("2026-03-01T10:00:{i:02}Z"),
        "message":{"id":format!("msg{i}"),"role":role,"model":"claude-sonnet-4-5","content":content}})
    .to_string()
}

/// A prompt, a call, and a long tool output holding a secret and the word `walrus`.
fn write_log(logs: &Path) -> PathBuf {
    let dir = logs.join("claude/projects/-work-walrus");
    std::fs::create_dir_all(&dir).unwrap();
    let output = format!(
        "walrus test failed\nexport AWS_ACCESS_KEY_ID={AWS_KEY}\n{}",
        "error[E0382]: borrow of moved value: `parser` in src/walrus.rs\n".repeat(12)
    );
    let lines = [
        rec(
            0,
            "user",
            json!("please edit the walrus parser in src/walrus.rs"),
        ),
        rec(
            1,
            "assistant",
            json!([{"type":"tool_use","id":"toolu_1","name":"Edit",
                "input":{"file_path":"/work/walrus/src/walrus.rs","old_string":"a","new_string":"b"}}]),
        ),
        rec(
            2,
            "user",
            json!([{"type":"tool_result","tool_use_id":"toolu_1","content":output}]),
        ),
    ];
    let path = dir.join(format!("{SESSION}.jsonl"));
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

type Tree = common::OneLogTree;

fn tree() -> Tree {
    Tree::new(write_log)
}

/// How the index holds each event's text, in event order: `None` for one left in its line.
fn stored(data: &Path) -> Vec<Option<String>> {
    let conn = rusqlite::Connection::open(data.join("index.sqlite")).unwrap();
    conn.prepare("SELECT text FROM events ORDER BY eid")
        .unwrap()
        .query_map([], |r| r.get::<_, StoredText>(0))
        .unwrap()
        .map(|t| match t.unwrap() {
            StoredText::Here(text) => Some(text),
            StoredText::InLog(_) => None,
        })
        .collect()
}

fn search(store: &TraceStore, text: &str) -> Vec<String> {
    let q = SearchQuery {
        text: text.into(),
        limit: 20,
        ..Default::default()
    };
    let page = store.search(&q).unwrap();
    page.hits.into_iter().map(|h| h.preview).collect()
}

#[test]
fn a_long_output_is_left_in_its_line_and_every_read_shows_it_masked() {
    let tree = tree();
    let store = tree.store(false, false);
    let held = stored(&tree.data);
    assert_eq!(held.len(), 3, "prompt, call, output");
    assert!(held[0].is_some(), "a short prompt stays");
    assert_eq!(held[2], None, "the long output is left in its line");

    let parsed = store.load_session(SESSION).unwrap();
    let shown = store.get_event_without_raw(SESSION, 2).unwrap().event.text;
    assert_eq!(shown, parsed.events[2].text);
    assert!(shown.starts_with("walrus test failed"), "{shown}");
    assert!(
        !shown.contains(AWS_KEY),
        "masked as the index masks: {shown}"
    );
    assert_eq!(
        store.get_event(SESSION, 2).unwrap().event.text,
        shown,
        "with its raw record too"
    );

    let previews = search(&store, "borrow");
    assert_eq!(previews.len(), 1);
    assert!(
        previews[0].contains("borrow of moved value"),
        "{previews:?}"
    );
    assert!(!previews[0].contains(AWS_KEY), "{previews:?}");
    assert!(
        search(&store, AWS_KEY).is_empty(),
        "a masked secret is not searchable"
    );
}

#[test]
fn with_secrets_shown_the_line_is_read_as_it_is() {
    let tree = tree();
    let store = tree.store(true, false);
    assert_eq!(stored(&tree.data)[2], None);
    let shown = store.get_event_without_raw(SESSION, 2).unwrap().event.text;
    assert!(shown.contains(AWS_KEY), "{shown}");
    let previews = search(&store, "walrus");
    assert!(previews.iter().any(|p| p.contains(AWS_KEY)), "{previews:?}");
}

#[test]
fn a_deleted_log_is_read_back_from_its_archived_copy() {
    let tree = tree();
    let store = tree.store(false, true);
    let before = store.get_event_without_raw(SESSION, 2).unwrap();
    let previews = search(&store, "walrus");
    drop(store);
    let left = stored(&tree.data).iter().filter(|t| t.is_none()).count();
    assert!(
        left >= 2,
        "the call and the output are left in their lines ({left})"
    );
    std::fs::remove_file(&tree.log).unwrap();
    let store = tree.store(false, true);
    assert!(store.session_summary(SESSION).unwrap().archived);
    let after = store.get_event_without_raw(SESSION, 2).unwrap();
    assert_eq!(after.event.text, before.event.text);
    // One page, several hits read back from the one copy.
    assert_eq!(previews.len(), 3, "{previews:?}");
    assert_eq!(search(&store, "walrus"), previews);
}

#[test]
fn a_line_rewritten_to_the_same_length_is_never_shown_as_another_text() {
    let tree = tree();
    let store = tree.store(false, false);
    // Rewritten behind the index's back: same length, another word, no refresh.
    let log = std::fs::read_to_string(&tree.log).unwrap();
    std::fs::write(&tree.log, log.replace("borrow of moved", "borrow of MOVED")).unwrap();
    assert!(
        search(&store, "borrow").is_empty(),
        "the hit whose text changed is left out, not shown changed"
    );
    // An event asked for directly is read from a parse of the log as it is now.
    let shown = store.get_event_without_raw(SESSION, 2).unwrap().event.text;
    assert!(shown.contains("borrow of MOVED"), "{shown}");
    // The next refresh indexes the new text.
    store.refresh().unwrap();
    assert_eq!(search(&store, "borrow").len(), 1);
    assert!(search(&store, "borrow")[0].contains("MOVED"));
}

#[test]
fn file_history_prompts_read_back_from_the_line() {
    let tree = tree();
    // A prompt long enough to be left in its line.
    let log = std::fs::read_to_string(&tree.log).unwrap();
    let long = format!(
        "please edit the walrus parser in src/walrus.rs {}",
        "carefully ".repeat(40)
    );
    std::fs::write(
        &tree.log,
        log.replace("please edit the walrus parser in src/walrus.rs", &long),
    )
    .unwrap();
    let store = tree.store(false, false);
    assert_eq!(
        stored(&tree.data)[0],
        None,
        "the long prompt is left in its line"
    );
    use agtrace_tools::index::touches::{FileHistoryQuery, PathQuery};
    let q = FileHistoryQuery::new(PathQuery::parse("src/walrus.rs").unwrap(), 10);
    let page = store.file_history(&q).unwrap();
    assert_eq!(page.touches.len(), 1);
    assert_eq!(page.touches[0].prompt.as_deref(), Some(long.as_str()));
}

/// Every event of the bundled samples and of the real agents' logs reads back as a fresh parse
/// of its log has it, whether the index keeps its text or left it in the line.
#[test]
fn every_event_of_the_real_logs_reads_back_as_parsed() {
    let real = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/real_logs");
    let mut trees = vec![common::samples(), real.clone()];
    for agent in std::fs::read_dir(real.join("agents")).unwrap() {
        trees.push(agent.unwrap().path());
    }
    let mut left_in_line = 0;
    for tree in trees {
        let tmp = tempfile::tempdir().unwrap();
        let data = tmp.path().join("data");
        let store = TraceStore::open(Config::for_tree(&tree, &data)).unwrap();
        store.refresh().unwrap();
        left_in_line += stored(&data).iter().filter(|t| t.is_none()).count();
        let page = store
            .list_sessions(&Default::default(), None, 1000)
            .unwrap();
        for s in page.sessions {
            let parsed = store.load_session(&s.id).unwrap();
            for e in &parsed.events {
                let shown = store.get_event_without_raw(&s.id, e.index).unwrap().event;
                assert_eq!(
                    (shown.kind, &shown.text),
                    (e.kind, &e.text),
                    "{} event {} of {}",
                    tree.display(),
                    e.index,
                    s.id
                );
            }
        }
    }
    assert!(
        left_in_line > 10,
        "the real logs leave texts in their lines ({left_in_line})"
    );
}

/// A Gemini CLI document (the format before journals) has no lines: each long text of a message
/// is read back from that message's entry in the document.
#[test]
fn a_gemini_document_reads_texts_back_from_its_message_entries() {
    const GEMINI_DOC: &str = "f0a689a6-b0ac-407f-afcc-4fafa9e14e8a";
    let tmp = tempfile::tempdir().unwrap();
    let (_logs, store) = common::sample_store(tmp.path());
    store.refresh().unwrap();
    let summary = store.session_summary(GEMINI_DOC).unwrap();
    assert!(summary.path.ends_with(".json"), "{}", summary.path);
    let conn = rusqlite::Connection::open(tmp.path().join("data/index.sqlite")).unwrap();
    let left: Vec<u32> = conn
        .prepare(
            "SELECT e.eid & 16777215, e.text FROM events e JOIN sessions s ON s.sid = e.eid >> 24
             WHERE s.id = ?1 ORDER BY e.eid",
        )
        .unwrap()
        .query_map([GEMINI_DOC], |r| {
            Ok((r.get(0)?, r.get::<_, StoredText>(1)?))
        })
        .unwrap()
        .map(Result::unwrap)
        .filter_map(|(i, t)| matches!(t, StoredText::InLog(_)).then_some(i))
        .collect();
    assert!(!left.is_empty(), "its long texts are left in the document");
    let parsed = store.load_session(GEMINI_DOC).unwrap();
    for i in left {
        let shown = store
            .get_event_without_raw(GEMINI_DOC, i)
            .unwrap()
            .event
            .text;
        assert_eq!(shown, parsed.events[i as usize].text, "event {i}");
    }
}

/// A search page whose hits are many long outputs reads them back on several threads: every
/// hit keeps its place and its own text, and a line rewritten since it was indexed drops only
/// its own hit.
#[test]
fn a_page_of_many_long_texts_reads_each_back_in_its_place() {
    let tmp = tempfile::tempdir().unwrap();
    let logs = tmp.path().join("logs");
    let dir = logs.join("claude/projects/-work-walrus");
    std::fs::create_dir_all(&dir).unwrap();
    let filler = "error[E0382]: borrow of moved value in src/walrus.rs\n".repeat(150);
    let texts: Vec<String> = (0..40)
        .map(|i| format!("otter{i} walrus {}{}", "x".repeat(i), filler))
        .collect();
    let lines: Vec<String> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| rec(i, "user", json!(t)))
        .collect();
    let path = dir.join(format!("{SESSION}.jsonl"));
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let store = TraceStore::open(Config::for_tree(&logs, &tmp.path().join("data"))).unwrap();
    store.refresh().unwrap();
    assert!(
        stored(&tmp.path().join("data")).iter().all(Option::is_none),
        "every text is left in its line"
    );
    // Line 20 rewritten in place, to the same length: its text is no longer the one indexed.
    let log = std::fs::read_to_string(&path).unwrap();
    let at = log.find("otter20 walrus").unwrap();
    let mut changed = log.clone();
    changed.replace_range(at..at + 7, "badge20");
    std::fs::write(&path, changed).unwrap();
    let page = store
        .search(&SearchQuery {
            text: "walrus".into(),
            limit: 50,
            ..Default::default()
        })
        .unwrap();
    let want: Vec<u32> = (0..40).rev().filter(|&i| i != 20).collect();
    let got: Vec<u32> = page.hits.iter().map(|h| h.event_index).collect();
    assert_eq!(got, want);
    for h in &page.hits {
        let text = &texts[h.event_index as usize];
        assert!(
            h.preview
                .starts_with(&format!("otter{} walrus", h.event_index)),
            "{}: {}",
            h.event_index,
            &h.preview[..40]
        );
        assert_eq!(h.text_chars, text.chars().count());
    }
}
