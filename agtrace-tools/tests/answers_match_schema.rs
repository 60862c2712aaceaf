//! Every answer of every trace tool matches the `outputSchema` the tool advertises, over a
//! generated corpus: every session, every page, a sample of events, and the error cases. The
//! testing kit checks each answer against the listed schema (as the Python and TypeScript SDK
//! clients do) and the server checks it too in debug builds, where a mismatch would come back
//! as an `internal` error: so no answer here may be one.

mod tools_support;

use std::collections::BTreeMap;

use agtrace_tools::config::Config;
use agtrace_tools::corpus::{CorpusSpec, generate};
use agtrace_tools::store::TraceStore;
use mcp_tool::testing::{Answer, TestClient};
use serde_json::{Value, json};
use tools_support::*;

#[derive(Default)]
struct Seen(BTreeMap<String, (usize, usize)>);

impl Seen {
    fn ok(&mut self, answers: &[Answer]) {
        for a in answers {
            self.0.entry(a.tool.clone()).or_default().0 += 1;
        }
    }

    fn error(&mut self, a: &Answer) {
        assert!(
            a.is_error,
            "{}: expected an error, got {}",
            a.tool, a.envelope
        );
        assert_ne!(
            a.envelope["error"]["code"], "internal",
            "{}: {}",
            a.tool, a.envelope
        );
        self.0.entry(a.tool.clone()).or_default().1 += 1;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_of_every_tool_matches_its_output_schema() {
    let tmp = tempfile::tempdir().unwrap();
    let logs = tmp.path().join("logs");
    let spec = CorpusSpec {
        turns: (1, 5),
        steps: (1, 4),
        max_tool_output: 200_000,
        projects: 3,
        ..CorpusSpec::new(9, 2026)
    };
    generate(&spec, &logs).unwrap();
    let store = TraceStore::open(Config::for_tree(&logs, &tmp.path().join("data"))).unwrap();
    store.refresh().unwrap();
    let server = agtrace_tools::server::build(store.clone()).unwrap();
    let c = TestClient::in_process(&server).await;
    let mut seen = Seen::default();

    let sessions = all_pages(
        &c,
        "list_sessions",
        json!({"include_subagents": true, "limit": 3}),
    )
    .await;
    seen.ok(&sessions);
    for provider in ["claude_code", "codex", "gemini"] {
        seen.ok(&all_pages(&c, "list_sessions", json!({"provider": provider})).await);
    }
    seen.ok(&all_pages(&c, "get_project_info", json!({"limit": 1})).await);
    for group_by in ["model", "day", "session"] {
        let args = json!({"group_by": group_by, "limit": 2});
        seen.ok(&all_pages(&c, "get_project_costs", args).await);
    }
    let ids: Vec<String> = items(&sessions)
        .iter()
        .map(|s| s["session_id"].as_str().unwrap().to_owned())
        .collect();
    assert!(ids.len() >= 9, "{ids:?}");

    for id in &ids {
        let detail = store.load_session(id).unwrap();
        for tool in [
            "get_session_summary",
            "analyze_session",
            "get_session_costs",
        ] {
            let a = c.call(tool, json!({"session_id": id})).await;
            a.expect_ok();
            seen.ok(&[a]);
        }
        seen.ok(&all_pages(
            &c,
            "get_session_turns",
            json!({"session_id": id, "limit": 2}),
        )
        .await);
        for turn in 0..detail.turns.len() {
            let args = json!({"session_id": id, "turn_index": turn, "limit": 3});
            seen.ok(&all_pages(&c, "get_turn_steps", args).await);
        }
        seen.ok(&all_pages(&c, "get_session_full", json!({"session_id": id})).await);
        for e in detail.events.iter().step_by(7) {
            let args = json!({"session_id": id, "event_index": e.index});
            seen.ok(&all_pages(&c, "get_event_details", args).await);
        }
        let turns = detail.turns.len();
        seen.error(
            &c.call(
                "get_turn_steps",
                json!({"session_id": id, "turn_index": turns}),
            )
            .await,
        );
        let events = detail.events.len();
        seen.error(
            &c.call(
                "get_event_details",
                json!({"session_id": id, "event_index": events}),
            )
            .await,
        );
    }
    for query in ["cargo", "error", "données", "no-such-word-anywhere"] {
        seen.ok(&all_pages(
            &c,
            "search_event_previews",
            json!({"query": query, "limit": 7}),
        )
        .await);
    }

    // The error cases: an unknown session for every tool that takes one, arguments out of
    // range, a mangled cursor.
    for tool in &server_tools_with(&c, "session_id").await {
        let mut args = json!({"session_id": "00000000-no-such-session"});
        if tool == "get_turn_steps" {
            args["turn_index"] = json!(0);
        }
        if tool == "get_event_details" {
            args["event_index"] = json!(0);
        }
        seen.error(&c.call(tool, args).await);
    }
    seen.error(&c.call("list_sessions", json!({"limit": 100_000})).await);
    seen.error(&c.call("list_sessions", json!({"provider": "cursor"})).await);
    seen.error(
        &c.call("list_sessions", json!({"cursor": "not-a-cursor"}))
            .await,
    );
    seen.error(&c.call("search_event_previews", json!({})).await);
    seen.error(
        &c.call("get_project_costs", json!({"group_by": "week"}))
            .await,
    );
    seen.error(
        &c.call("get_project_costs", json!({"since": "yesterday"}))
            .await,
    );

    for path in ["src/", "**/*.rs", "/home"] {
        seen.ok(&all_pages(&c, "list_file_history", json!({"path": path, "limit": 7})).await);
    }
    seen.error(
        &c.call("list_file_history", json!({"path": "src/[ab"}))
            .await,
    );

    for (tool, (ok, errors)) in &seen.0 {
        eprintln!("{tool:<24} {ok:>5} answers, {errors:>3} errors, all matching the schema");
    }
    let called: Vec<&str> = seen.0.keys().map(String::as_str).collect();
    assert_rows_cover("tools checked", called, tool_names(&server));
    assert!(
        seen.0.values().all(|(ok, _)| *ok > 0),
        "a tool never answered ok"
    );
}

/// The listed tools whose input schema has a `property`.
async fn server_tools_with(c: &TestClient, property: &str) -> Vec<String> {
    c.list_tools()
        .await
        .iter()
        .filter(|t| {
            t.input_schema
                .get("properties")
                .and_then(Value::as_object)
                .is_some_and(|p| p.contains_key(property))
        })
        .map(|t| t.name.to_string())
        .collect()
}
