//! Size budgets on a generated corpus plus one session built to be hostile (a megabyte of
//! text that JSON escaping inflates, a step with hundreds of events, repeated failing calls):
//! every page of every tool stays within its size hint, and the paged full texts are exact.

mod tools_support;

use std::collections::BTreeMap;
use std::path::Path;

use agtrace_tools::config::Config;
use agtrace_tools::corpus::{CorpusSpec, generate};
use agtrace_tools::model::{Event, RESULT_TEXT_KEPT};
use agtrace_tools::providers::parse_file;
use agtrace_tools::store::TraceStore;
use mcp_tool::testing::{Answer, TestClient};
use serde_json::{Value, json};
use tools_support::*;

const BIG_ID: &str = "b16b16b1-0000-4000-8000-00000000b16b";

/// Text where every kind of JSON escape occurs: quotes, backslashes, control characters,
/// multi-byte characters (a piece can only end on a char boundary).
fn hostile(bytes: usize) -> String {
    let unit = "line \"quoted\" C:\\path\\file \u{1}\u{1f}\tnaïve 日本語 emoji🙂\r\n";
    unit.repeat(bytes / unit.len() + 1)
}

fn write_big_session(logs: &Path) {
    let dir = logs.join("claude/projects/-home-dev-src-big");
    std::fs::create_dir_all(&dir).unwrap();
    let mut lines: Vec<Value> = Vec::new();
    let mut t = 0;
    let mut ts = || {
        t += 1;
        format!("2025-03-01T10:{:02}:{:02}.000Z", t / 60, t % 60)
    };
    let base = |v: Value| {
        let mut v = v;
        v["sessionId"] = json!(BIG_ID);
        v["cwd"] = json!("/home/dev/src/big");
        v
    };
    let mut n = 0;
    let mut uuid = || {
        n += 1;
        format!("00000000-0000-4000-8000-{n:012}")
    };
    let user = |text: Value, ts: String, uuid: String| {
        base(
            json!({"type": "user", "uuid": uuid, "timestamp": ts, "message": {"role": "user", "content": text}}),
        )
    };
    let assistant = |id: &str, content: Value, ts: String, uuid: String| {
        base(
            json!({"type": "assistant", "uuid": uuid, "timestamp": ts, "message": {"id": id, "model": "claude-sonnet-4-5-20250929", "role": "assistant", "content": content,
            "usage": {"input_tokens": 10, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 1000, "output_tokens": 5}}}),
        )
    };
    let result = |call: &str, out: String, err: bool, ts: String, uuid: String| {
        user(
            json!([{"type": "tool_result", "tool_use_id": call, "content": out, "is_error": err}]),
            ts,
            uuid,
        )
    };
    // Turn 0: a long prompt, a 1 MB tool output.
    lines.push(user(json!(hostile(200_000)), ts(), uuid()));
    lines.push(assistant(
        "msg_a",
        json!([{"type": "thinking", "thinking": hostile(60_000)}]),
        ts(),
        uuid(),
    ));
    lines.push(assistant("msg_a", json!([{"type": "tool_use", "id": "call_big", "name": "Bash", "input": {"command": "cat \"huge.log\""}}]), ts(), uuid()));
    lines.push(result("call_big", hostile(1 << 20), false, ts(), uuid()));
    // Turn 1: one step with 150 tool calls, each with a 3 KB output.
    lines.push(user(json!("read everything"), ts(), uuid()));
    let calls: Vec<Value> = (0..150).map(|i| json!({"type": "tool_use", "id": format!("call_r{i}"), "name": "Read", "input": {"file_path": format!("/src/f{i}.rs")}})).collect();
    lines.push(assistant("msg_b", json!(calls), ts(), uuid()));
    for i in 0..150 {
        lines.push(result(
            &format!("call_r{i}"),
            hostile(3000),
            false,
            ts(),
            uuid(),
        ));
    }
    // Turns 2..: the same failing call again and again, with long error texts.
    for turn in 0..40 {
        lines.push(user(json!(format!("try again {turn}")), ts(), uuid()));
        let id = format!("msg_c{turn}");
        let call = format!("call_t{turn}");
        lines.push(assistant(&id, json!([{"type": "tool_use", "id": call, "name": "Bash", "input": {"command": "cargo test --all"}}]), ts(), uuid()));
        lines.push(result(&call, hostile(5000), true, ts(), uuid()));
        lines.push(assistant(
            &id,
            json!([{"type": "text", "text": hostile(800)}]),
            ts(),
            uuid(),
        ));
    }
    let body: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.join(format!("{BIG_ID}.jsonl")), body).unwrap();
}

struct Sizes(BTreeMap<String, (usize, usize)>);

impl Sizes {
    fn record(&mut self, answers: &[Answer]) {
        for a in answers {
            let e = self.0.entry(a.tool.clone()).or_default();
            e.0 = e.0.max(a.bytes());
            e.1 += 1;
        }
    }
}

async fn corpus() -> (tempfile::TempDir, TraceStore, TestClient) {
    let tmp = tempfile::tempdir().unwrap();
    let logs = tmp.path().join("logs");
    let spec = CorpusSpec {
        turns: (2, 4),
        steps: (1, 3),
        max_tool_output: 1 << 20,
        projects: 3,
        ..CorpusSpec::new(6, 42)
    };
    generate(&spec, &logs).unwrap();
    write_big_session(&logs);
    let store = TraceStore::open(Config::for_tree(&logs, &tmp.path().join("data"))).unwrap();
    store.refresh().unwrap();
    let server = agtrace_tools::server::build(store.clone()).unwrap();
    let client = TestClient::in_process(&server).await;
    (tmp, store, client)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_of_every_tool_fits_its_budget_and_full_texts_are_exact() {
    let (_tmp, store, c) = corpus().await;
    let mut sizes = Sizes(BTreeMap::new());

    let sessions = all_pages(
        &c,
        "list_sessions",
        json!({"include_subagents": true, "limit": 50}),
    )
    .await;
    sizes.record(&sessions);
    let ids: Vec<String> = items(&sessions)
        .iter()
        .map(|r| r["session_id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ids.len(), 7);
    assert!(ids.contains(&BIG_ID.to_owned()));
    sizes.record(&all_pages(&c, "list_sessions", json!({"limit": 1})).await);
    sizes.record(&all_pages(&c, "get_project_info", json!({"limit": 100})).await);
    for group_by in ["model", "day", "session"] {
        let args = json!({"group_by": group_by, "limit": 100});
        sizes.record(&all_pages(&c, "get_project_costs", args).await);
    }

    for id in &ids {
        let detail = store.load_session(id).unwrap();
        for tool in [
            "get_session_summary",
            "analyze_session",
            "get_session_costs",
        ] {
            let a = c.call(tool, json!({"session_id": id})).await;
            a.expect_ok();
            c.assert_within_size_hint(&a);
            assert!(a.envelope.get("warnings").is_none());
            sizes.record(&[a]);
        }
        let turns = all_pages(
            &c,
            "get_session_turns",
            json!({"session_id": id, "limit": 50}),
        )
        .await;
        assert_eq!(items(&turns).len(), detail.turns.len());
        sizes.record(&turns);
        for t in 0..detail.turns.len() {
            let steps = all_pages(
                &c,
                "get_turn_steps",
                json!({"session_id": id, "turn_index": t, "limit": 50}),
            )
            .await;
            // Every event of every step is shown once, in order (a step may span pages).
            let shown: Vec<u64> = items(&steps)
                .iter()
                .flat_map(|s| {
                    s["events"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|e| e["event_index"].as_u64().unwrap())
                })
                .collect();
            let expected: Vec<u64> = detail.turns[t]
                .steps
                .iter()
                .flat_map(|s| &s.events)
                .filter(|&&i| {
                    detail.events[i as usize].kind != agtrace_tools::model::EventKind::TokenUsage
                })
                .map(|&i| u64::from(i))
                .collect();
            assert_eq!(shown, expected, "{id} turn {t}");
            sizes.record(&steps);
        }
        // The session keeps the beginning of a long tool output; the log has all of it.
        let uncut = parse_file(
            detail.summary.provider,
            Path::new(&detail.summary.path),
            false,
        )
        .unwrap()
        .1;
        let whole = |e: &Event| -> String {
            let Some(chars) = e.whole_text_chars else {
                return e.text.clone();
            };
            let whole = &uncut[e.index as usize].text;
            assert!(e.text.len() <= RESULT_TEXT_KEPT && whole.starts_with(&e.text));
            assert_eq!(whole.chars().count(), chars, "{id} event {}", e.index);
            whole.clone()
        };
        if id == BIG_ID {
            assert!(detail.events.iter().any(|e| e.whole_text_chars.is_some()));
        }
        let full = all_pages(&c, "get_session_full", json!({"session_id": id})).await;
        let texts = reassemble(&items(&full));
        assert_eq!(texts.len(), detail.events.len());
        for ((index, text), e) in texts.iter().zip(&detail.events) {
            assert_eq!(*index, u64::from(e.index));
            assert!(
                *text == whole(e),
                "{id} event {index}: the pages do not reassemble its text"
            );
        }
        sizes.record(&full);
        for e in detail.events.iter().filter(|e| whole(e).len() > 30_000) {
            let parts = all_pages(
                &c,
                "get_event_details",
                json!({"session_id": id, "event_index": e.index}),
            )
            .await;
            let texts = reassemble(&items(&parts));
            assert_eq!(texts.len(), 1);
            assert!(
                texts[0].1 == whole(e),
                "{id} event {}: the pages do not reassemble its text",
                e.index
            );
            sizes.record(&parts);
        }
    }
    for query in ["ZEBRA-4471", "cargo", "données", "quoted"] {
        sizes.record(
            &all_pages(
                &c,
                "search_event_previews",
                json!({"query": query, "limit": 50}),
            )
            .await,
        );
    }
    // File history: a corpus directory and glob, and the hostile session's 150 files read in
    // one turn.
    for path in ["src/cargo/", "src/**/3.rs", "/src"] {
        let pages = all_pages(&c, "list_file_history", json!({"path": path, "limit": 50})).await;
        assert!(!items(&pages).is_empty(), "{path}");
        sizes.record(&pages);
    }
    for (tool, (max, n)) in &sizes.0 {
        eprintln!("{tool:<24} {n:>4} answers, largest {max:>6} bytes");
    }
    let measured: Vec<&str> = sizes.0.keys().map(String::as_str).collect();
    let server = agtrace_tools::server::build(store.clone()).unwrap();
    assert_rows_cover("measured tools", measured, tool_names(&server));
}

#[tokio::test]
async fn the_hostile_session_is_paged_shortened_and_analyzed_as_it_says() {
    let (_tmp, _store, c) = corpus().await;
    // A step of 150 calls does not fit 50KB even shortened: it continues on the next page.
    let steps = all_pages(
        &c,
        "get_turn_steps",
        json!({"session_id": BIG_ID, "turn_index": 1}),
    )
    .await;
    assert!(steps.len() >= 2);
    assert_eq!(steps[0].data()[0]["continues_on_next_page"], true);
    let events = steps[0].data()[0]["events"].as_array().unwrap();
    let first = &events.iter().find(|e| e["kind"] == "tool_result").unwrap()["text"];
    assert_eq!(first["truncated"], true);
    assert!(
        first["original_chars"].as_u64().unwrap()
            > first["text"].as_str().unwrap().chars().count() as u64
    );
    assert!(
        steps[0].envelope["hint"]
            .as_str()
            .unwrap()
            .contains("get_event_details")
    );

    // The 1 MB output: shortened in steps, whole by cursor in details.
    let turn0 = c
        .call(
            "get_turn_steps",
            json!({"session_id": BIG_ID, "turn_index": 0}),
        )
        .await;
    let out = turn0.expect_ok()[0]["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "tool_result")
        .unwrap()
        .clone();
    assert_eq!(out["text"]["truncated"], true);
    assert!(
        out["text"]["original_chars"].as_u64().unwrap() > 800_000,
        "{}",
        out["text"]["original_chars"]
    );
    let index = out["event_index"].clone();
    let first = c
        .call(
            "get_event_details",
            json!({"session_id": BIG_ID, "event_index": index}),
        )
        .await;
    assert_eq!(first.expect_ok()[0]["continues"], true);
    let cursor = first.next_cursor().unwrap().to_owned();
    let other_event = c
        .call(
            "get_event_details",
            json!({"session_id": BIG_ID, "event_index": 0, "cursor": cursor}),
        )
        .await;
    assert_eq!(error_code(&other_event), "invalid_cursor");
    let mut mangled = cursor.clone();
    mangled.insert(4, 'x');
    let bad = c
        .call(
            "get_event_details",
            json!({"session_id": BIG_ID, "event_index": index, "cursor": mangled}),
        )
        .await;
    assert_eq!(error_code(&bad), "invalid_cursor");
    let second = c
        .call(
            "get_event_details",
            json!({"session_id": BIG_ID, "event_index": index, "cursor": cursor}),
        )
        .await;
    assert!(second.expect_ok()[0]["text_offset"].as_u64().unwrap() > 0);

    let full = c
        .call("get_session_full", json!({"session_id": BIG_ID}))
        .await;
    let cursor = full.next_cursor().unwrap().to_owned();
    let other_session = c
        .call(
            "get_session_full",
            json!({"session_id": "b16b16b1-0000", "cursor": cursor}),
        )
        .await;
    assert_eq!(error_code(&other_session), "invalid_cursor");

    // Forty identical failing calls: failures capped with a count, a loop, a verdict.
    let a = c
        .call("analyze_session", json!({"session_id": BIG_ID}))
        .await;
    c.assert_within_size_hint(&a);
    let d = a.expect_ok();
    let shown = d["failures"].as_array().unwrap().len() as u64;
    assert!(shown > 0 && shown < 40);
    assert_eq!(shown + d["failures_left_out"].as_u64().unwrap(), 40);
    assert!(
        d["failures"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["severity"] == "critical" && f["error"]["truncated"] == true)
    );
    let same_call = d["loops"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["kind"] == "same_call")
        .unwrap();
    assert_eq!(same_call["pattern"], "Bash `cargo test --all`");
    assert_eq!(same_call["repeats"], 40);
    assert_eq!(same_call["severity"], "critical");
    let verdict = d["verdict"].as_str().unwrap();
    assert!(
        verdict.starts_with("Critical: 40 failed tool calls"),
        "{verdict}"
    );

    let summary = c
        .call("get_session_summary", json!({"session_id": BIG_ID}))
        .await;
    c.assert_within_size_hint(&summary);
    let prompt = &summary.expect_ok()["first_prompt"];
    assert_eq!(prompt["truncated"], true);
    assert!(prompt["original_chars"].as_u64().unwrap() > 100_000);

    let turns = all_pages(
        &c,
        "get_session_turns",
        json!({"session_id": BIG_ID, "limit": 50}),
    )
    .await;
    let rows = items(&turns);
    assert_eq!(rows.len(), 42);
    assert_eq!(
        rows[2]["actions"],
        json!(["Bash `cargo test --all` failed"])
    );
    assert_eq!(rows[1]["actions_left_out"], 144);
}
