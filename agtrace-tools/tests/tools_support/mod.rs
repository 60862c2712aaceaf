//! Helpers for the tool tests: a served store over the samples, and page walking.
#![allow(dead_code)]

use std::collections::BTreeSet;

use agtrace_tools::config::Config;
use agtrace_tools::store::TraceStore;
use mcp_tool::ToolServer;
use mcp_tool::testing::{Answer, TestClient};
use serde_json::{Value, json};

#[path = "../common/mod.rs"]
pub mod common;

pub const CLAUDE_ID: &str = "7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9";
pub const CODEX_ID: &str = "019b04ae-b1c6-7c72-a134-a4c2de66058c";
pub const GEMINI_ID: &str = "f0a689a6-b0ac-407f-afcc-4fafa9e14e8a";
pub const SAMPLE_ROOT: &str = "/Users/test_user/agent-sample";

/// A client on the trace server over an indexed copy of the bundled samples.
pub struct Served {
    pub _tmp: tempfile::TempDir,
    pub store: TraceStore,
    pub server: ToolServer,
    pub client: TestClient,
}

pub async fn samples() -> Served {
    let tmp = tempfile::tempdir().unwrap();
    let (_, store) = common::sample_store(tmp.path());
    store.refresh().unwrap();
    let server = agtrace_tools::server::build(store.clone()).unwrap();
    let client = TestClient::in_process(&server).await;
    Served {
        _tmp: tmp,
        store,
        server,
        client,
    }
}

/// The tools `server` serves, in `tools/list` order. Tests take the expected tool set from the
/// server's own definitions instead of listing it, so that adding a tool is adding one file.
pub fn tool_names(server: &ToolServer) -> Vec<&'static str> {
    server.definitions().map(|d| d.name).collect()
}

/// [`tool_names`] of a trace server over an empty tree, for tests that run the binary.
pub fn served_tool_names() -> Vec<&'static str> {
    let tmp = tempfile::tempdir().unwrap();
    let config = Config::for_tree(&tmp.path().join("logs"), &tmp.path().join("data"));
    let server = agtrace_tools::server::build(TraceStore::open(config).unwrap()).unwrap();
    tool_names(&server)
}

/// Panics, naming every difference, unless the rows of a test's per-tool `table` name exactly
/// the tools in `expected`: a new tool without a row fails here, not silently untested.
pub fn assert_rows_cover<'a>(
    table: &str,
    rows: impl IntoIterator<Item = &'a str>,
    expected: impl IntoIterator<Item = &'a str>,
) {
    let rows: Vec<&str> = rows.into_iter().collect();
    let unique: BTreeSet<&str> = rows.iter().copied().collect();
    assert_eq!(
        unique.len(),
        rows.len(),
        "{table}: a tool has two rows: {rows:?}"
    );
    let expected: BTreeSet<&str> = expected.into_iter().collect();
    let missing: Vec<_> = expected.difference(&unique).collect();
    let unknown: Vec<_> = unique.difference(&expected).collect();
    assert!(
        missing.is_empty() && unknown.is_empty(),
        "{table}: tools without a row: {missing:?}; rows for tools not served: {unknown:?}"
    );
}

/// Calls `tool` page after page until the last, checking every page's pagination facts and
/// size budget. Panics on an error answer.
pub async fn all_pages(client: &TestClient, tool: &str, args: Value) -> Vec<Answer> {
    let mut pages: Vec<Answer> = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut a = args.clone();
        if let Some(c) = &cursor {
            a["cursor"] = json!(c);
        }
        let answer = client.call(tool, a).await;
        answer.expect_ok();
        client.assert_within_size_hint(&answer);
        assert!(
            answer.envelope.get("warnings").is_none(),
            "{tool}: {}",
            answer.envelope["warnings"]
        );
        let p = &answer.envelope["pagination"];
        assert_eq!(
            p["has_more"].as_bool(),
            Some(answer.next_cursor().is_some()),
            "{tool}: {p}"
        );
        assert_eq!(
            p["total_in_page"].as_u64().unwrap() as usize,
            answer.data().as_array().unwrap().len()
        );
        cursor = answer.next_cursor().map(str::to_owned);
        let more = cursor.is_some();
        if more {
            assert!(
                !answer.data().as_array().unwrap().is_empty(),
                "{tool}: an empty page before the end"
            );
        }
        pages.push(answer);
        assert!(pages.len() < 2000, "{tool}: runaway pagination");
        if !more {
            return pages;
        }
    }
}

/// Every item of every page, in order.
pub fn items(pages: &[Answer]) -> Vec<Value> {
    pages
        .iter()
        .flat_map(|p| p.data().as_array().unwrap().clone())
        .collect()
}

/// Reassembles event texts from `get_session_full` / `get_event_details` parts, checking that
/// each part starts exactly where the previous one stopped.
pub fn reassemble(parts: &[Value]) -> Vec<(u64, String)> {
    let mut out: Vec<(u64, String)> = Vec::new();
    let mut open = false;
    for p in parts {
        let index = p["event_index"].as_u64().unwrap();
        let text = p["text"].as_str().unwrap();
        let offset = p["text_offset"].as_u64().unwrap() as usize;
        match out.last_mut() {
            Some((last, whole)) if open && *last == index => {
                assert_eq!(
                    whole.chars().count(),
                    offset,
                    "event {index} resumes at the wrong offset"
                );
                whole.push_str(text);
            }
            _ => {
                assert!(!open, "event before {index} was left unfinished");
                assert_eq!(offset, 0, "event {index} starts mid-text");
                out.push((index, text.to_owned()));
            }
        }
        open = p["continues"].as_bool().unwrap();
        if !open {
            let (_, whole) = out.last().unwrap();
            assert_eq!(
                whole.chars().count() as u64,
                p["text_chars"].as_u64().unwrap()
            );
        }
    }
    assert!(!open, "the last part says it continues");
    out
}

pub fn error_code(answer: &Answer) -> &str {
    assert!(
        answer.is_error,
        "expected an error from `{}`, got {}",
        answer.tool, answer.envelope
    );
    answer.error_code().unwrap()
}
