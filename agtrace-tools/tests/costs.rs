//! Token attribution and cost estimates (`get_session_costs`, `get_project_costs`) against
//! what the raw records say, computed here from the raw JSON without the parsers; the index
//! path (per-day, per-model rows written at ingest) against the parse path; appends, sub-agent
//! roll-up, unknown models, day ranges, and the schema 9 to 10 migration.

mod tools_support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use agtrace_tools::config::Config;
use agtrace_tools::pricing::prices;
use agtrace_tools::store::TraceStore;
use mcp_tool::testing::TestClient;
use serde_json::{Value, json};
use tools_support::*;

const CLAUDE_REL: &str =
    "claude/projects/-Users-test_user-agent-sample/7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl";
const CLAUDE_SESSION: &str = "7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9";

fn real_logs() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/real_logs")
}

async fn served(logs: &Path, data: &Path) -> (TraceStore, TestClient) {
    let store = TraceStore::open(Config::for_tree(logs, data)).unwrap();
    store.refresh().unwrap();
    let server = agtrace_tools::server::build(store.clone()).unwrap();
    let client = TestClient::in_process(&server).await;
    (store, client)
}

/// All rows of a `get_project_costs` query in one page (warnings allowed: the real logs have
/// models without a price).
async fn cost_rows(c: &TestClient, args: Value) -> Vec<Value> {
    let mut args = args;
    args["limit"] = json!(100);
    let a = c.call("get_project_costs", args).await;
    c.assert_within_size_hint(&a);
    assert!(a.next_cursor().is_none());
    a.expect_ok().as_array().unwrap().clone()
}

fn num(v: &Value, key: &str) -> u64 {
    v.get(key).and_then(Value::as_u64).unwrap_or(0)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 + 1e-9 * b.abs()
}

/// Tokens as the tool reports them (`tokens.input`, ...), for comparison.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Toks {
    input: u64,
    cached: u64,
    output: u64,
}

impl Toks {
    fn of(row: &Value) -> Self {
        Toks {
            input: num(&row["tokens"], "input"),
            cached: num(&row["tokens"], "cached_input"),
            output: num(&row["tokens"], "output"),
        }
    }
}

/// One Claude message from its streamed lines: the model, the last line's usage, and its tool
/// calls in order.
struct Message {
    model: String,
    usage: Value,
    tools: Vec<String>,
}

fn claude_messages(rel: &str) -> Vec<Message> {
    let text = std::fs::read_to_string(real_logs().join(rel)).unwrap();
    let mut out: Vec<(String, Message)> = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let r: Value = serde_json::from_str(line).unwrap();
        if r["type"] != "assistant" || r["isSidechain"] == true {
            continue;
        }
        let m = &r["message"];
        let id = m["id"].as_str().unwrap().to_owned();
        if !out.iter().any(|(k, _)| *k == id) {
            out.push((
                id.clone(),
                Message {
                    model: m["model"].as_str().unwrap().to_owned(),
                    usage: Value::Null,
                    tools: Vec::new(),
                },
            ));
        }
        let slot = &mut out.iter_mut().find(|(k, _)| *k == id).unwrap().1;
        slot.usage = m["usage"].clone();
        for b in m["content"].as_array().into_iter().flatten() {
            if b["type"] == "tool_use" {
                slot.tools.push(b["name"].as_str().unwrap().to_owned());
            }
        }
    }
    out.into_iter().map(|(_, m)| m).collect()
}

/// (input incl. cache, cache read, cache write, output) of a Claude usage block.
fn claude_usage(u: &Value) -> [u64; 4] {
    let (i, cr, cw, o) = (
        num(u, "input_tokens"),
        num(u, "cache_read_input_tokens"),
        num(u, "cache_creation_input_tokens"),
        num(u, "output_tokens"),
    );
    [i + cr + cw, cr, cw, o]
}

/// USD of (input, cache read, cache write, output) at a model's standard rates, from the table
/// as its file states them.
fn usd(model: &str, t: [u64; 4]) -> f64 {
    let p = prices().find(model).unwrap();
    let fresh = t[0] - t[1] - t[2];
    (fresh as f64 * p.input
        + t[1] as f64 * p.cached_input
        + t[2] as f64 * p.cache_write
        + t[3] as f64 * p.output)
        / 1e6
}

#[tokio::test]
async fn a_claude_sessions_costs_per_model_and_tool_match_its_raw_records() {
    let tmp = tempfile::tempdir().unwrap();
    let (_store, c) = served(&real_logs(), &tmp.path().join("data")).await;
    let a = c
        .call("get_session_costs", json!({"session_id": CLAUDE_SESSION}))
        .await;
    c.assert_within_size_hint(&a);
    let d = a.expect_ok().clone();
    assert_eq!(d["prices_as_of"], prices().date.as_str());

    let messages = claude_messages(CLAUDE_REL);
    assert!(messages.len() >= 5);
    // Whole session, and per model (one model here).
    let mut total = [0u64; 4];
    let mut cost = 0.0;
    for m in &messages {
        let u = claude_usage(&m.usage);
        (0..4).for_each(|i| total[i] += u[i]);
        cost += usd(&m.model, u);
    }
    let session = &d["session"];
    assert_eq!(
        Toks::of(session),
        Toks {
            input: total[0],
            cached: total[1],
            output: total[3]
        }
    );
    assert_eq!(num(session, "requests"), messages.len() as u64);
    assert!(
        close(session["estimated_cost_usd"].as_f64().unwrap(), cost),
        "{session} vs {cost}"
    );
    assert!(cost > 0.0);
    let models = d["by_model"].as_array().unwrap();
    assert_eq!(models.len(), 1);
    assert_eq!(models[0]["model"], "claude-sonnet-4-5-20250929");
    assert_eq!(
        models[0]["priced_as"],
        prices().find("claude-sonnet-4-5").unwrap().name.as_str()
    );
    assert_eq!(Toks::of(&models[0]), Toks::of(session));

    // Per tool: each message's tokens split evenly among its calls, in order (remainder to the
    // first); messages without calls under `no_tool_call`.
    let mut by_tool: BTreeMap<Option<String>, ([u64; 4], f64, u64)> = BTreeMap::new();
    for m in &messages {
        let u = claude_usage(&m.usage);
        if m.tools.is_empty() {
            let slot = by_tool.entry(None).or_default();
            (0..4).for_each(|i| slot.0[i] += u[i]);
            slot.1 += usd(&m.model, u);
            continue;
        }
        let n = m.tools.len() as u64;
        for (i, name) in m.tools.iter().enumerate() {
            let slot = by_tool.entry(Some(name.clone())).or_default();
            (0..4).for_each(|k| slot.0[k] += u[k] / n + u64::from((i as u64) < u[k] % n));
            slot.1 += usd(&m.model, u) / n as f64;
            slot.2 += 1;
        }
    }
    let rows = d["by_tool"].as_array().unwrap();
    assert_eq!(rows.len(), by_tool.len(), "{rows:?}");
    assert!(by_tool.contains_key(&Some("Bash".to_owned())) && by_tool.contains_key(&None));
    for (tool, (t, usd, calls)) in &by_tool {
        let row = rows
            .iter()
            .find(|r| match tool {
                Some(name) => r["part"] == "tool_calls" && r["tool"] == name.as_str(),
                None => r["part"] == "no_tool_call",
            })
            .unwrap_or_else(|| panic!("no row for {tool:?}: {rows:?}"));
        assert_eq!(
            Toks::of(row),
            Toks {
                input: t[0],
                cached: t[1],
                output: t[3]
            },
            "{tool:?}"
        );
        assert_eq!(num(row, "calls"), *calls, "{tool:?}");
        assert!(
            close(row["estimated_cost_usd"].as_f64().unwrap(), *usd),
            "{tool:?}: {row}"
        );
    }
    // Most expensive first.
    let costs: Vec<f64> = rows
        .iter()
        .map(|r| r["estimated_cost_usd"].as_f64().unwrap())
        .collect();
    assert!(costs.windows(2).all(|w| w[0] >= w[1]), "{costs:?}");
}

/// A session's tool rows (and model rows) add up to the session, and the calls to its tool calls.
fn assert_parts_sum_to_the_session(d: &Value, tool_calls: u64) {
    let session = Toks::of(&d["session"]);
    for part in ["by_tool", "by_model"] {
        let rows = d[part].as_array().unwrap();
        let sum = rows
            .iter()
            .map(Toks::of)
            .fold(Toks::default(), |a, b| Toks {
                input: a.input + b.input,
                cached: a.cached + b.cached,
                output: a.output + b.output,
            });
        assert_eq!(sum, session, "{part} of {}", d["session_id"]);
    }
    let calls: u64 = d["by_tool"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| num(r, "calls"))
        .sum();
    assert_eq!(calls, tool_calls, "{}", d["session_id"]);
}

#[tokio::test]
async fn every_real_session_splits_exactly_and_the_index_agrees_with_the_parse() {
    let tmp = tempfile::tempdir().unwrap();
    let (store, c) = served(&real_logs(), &tmp.path().join("data")).await;
    let sessions = items(
        &all_pages(
            &c,
            "list_sessions",
            json!({"include_subagents": true, "limit": 50}),
        )
        .await,
    );
    assert!(sessions.len() >= 10);
    // Per model over all sessions, by the parse path.
    let mut parsed: BTreeMap<String, Toks> = BTreeMap::new();
    let mut parsed_total = Toks::default();
    for s in &sessions {
        let id = s["session_id"].as_str().unwrap();
        let a = c.call("get_session_costs", json!({"session_id": id})).await;
        c.assert_within_size_hint(&a);
        let d = a.expect_ok();
        let detail = store.load_session(id).unwrap();
        assert_parts_sum_to_the_session(
            d,
            detail.turns.iter().map(|t| u64::from(t.tool_calls)).sum(),
        );
        // The session's own tokens are the index's session totals.
        let summary = store.session_summary(id).unwrap();
        assert_eq!(
            Toks::of(&d["session"]),
            Toks {
                input: summary.tokens.input,
                cached: summary.tokens.cached_input,
                output: summary.tokens.output
            },
            "{id}"
        );
        for m in d["by_model"].as_array().unwrap() {
            let t = Toks::of(m);
            let e = parsed
                .entry(m["model"].as_str().unwrap_or("").to_owned())
                .or_default();
            *e = Toks {
                input: e.input + t.input,
                cached: e.cached + t.cached,
                output: e.output + t.output,
            };
            parsed_total = Toks {
                input: parsed_total.input + t.input,
                cached: parsed_total.cached + t.cached,
                output: parsed_total.output + t.output,
            };
        }
    }
    parsed.retain(|_, t| *t != Toks::default());
    // The same per model from the index, without parsing.
    let rows = cost_rows(&c, json!({"group_by": "model"})).await;
    let indexed: BTreeMap<String, Toks> = rows
        .iter()
        .map(|r| (r["model"].as_str().unwrap_or("").to_owned(), Toks::of(r)))
        .filter(|(_, t)| *t != Toks::default())
        .collect();
    assert_eq!(indexed, parsed);
    assert!(indexed.len() >= 3, "{indexed:?}");
    // Grouped by day or by session, the same grand total.
    for group_by in ["day", "session"] {
        let rows = cost_rows(&c, json!({"group_by": group_by})).await;
        let sum = rows
            .iter()
            .map(Toks::of)
            .fold(Toks::default(), |a, b| Toks {
                input: a.input + b.input,
                cached: a.cached + b.cached,
                output: a.output + b.output,
            });
        assert_eq!(sum, parsed_total, "{group_by}");
    }
}

#[tokio::test]
async fn sub_agents_roll_up_under_the_session_that_spawned_them() {
    let tmp = tempfile::tempdir().unwrap();
    let (store, c) = served(&real_logs(), &tmp.path().join("data")).await;
    let mut checked = 0;
    let sessions = items(&all_pages(&c, "list_sessions", json!({"limit": 50})).await);
    for s in &sessions {
        let id = s["session_id"].as_str().unwrap();
        let children = store.load_session(id).unwrap().children.clone();
        let d = c
            .call("get_session_costs", json!({"session_id": id}))
            .await
            .expect_ok()
            .clone();
        let subs = d["subagents"].as_array().unwrap();
        assert_eq!(
            subs.len() + d["subagents_left_out"].as_u64().unwrap() as usize,
            children.len(),
            "{id}"
        );
        let mut sum = Toks::of(&d["session"]);
        for sub in subs {
            let sid = sub["session_id"].as_str().unwrap();
            assert!(children.iter().any(|c| c == sid));
            let own = c
                .call("get_session_costs", json!({"session_id": sid}))
                .await
                .expect_ok()
                .clone();
            assert_eq!(Toks::of(sub), Toks::of(&own["session"]), "{sid}");
            let t = Toks::of(sub);
            sum = Toks {
                input: sum.input + t.input,
                cached: sum.cached + t.cached,
                output: sum.output + t.output,
            };
            checked += 1;
        }
        assert_eq!(Toks::of(&d["with_subagents"]), sum, "{id}");
        // Per session from the index: a sub-agent's tokens count with its parent.
        if !children.is_empty() {
            let rows = cost_rows(&c, json!({"group_by": "session"})).await;
            match rows.iter().find(|r| r["session_id"] == id) {
                Some(row) => assert_eq!(Toks::of(row), sum, "{id}"),
                None => assert_eq!(sum, Toks::default(), "{id} has tokens but no row"),
            }
            assert!(
                rows.iter()
                    .all(|r| !children.iter().any(|c| r["session_id"] == c.as_str()))
            );
        }
    }
    assert!(
        checked >= 2,
        "the real logs have sub-agents with usage: {checked}"
    );
}

fn claude_line(msg: &str, model: &str, content: Value, input: u64, out: u64, ts: &str) -> String {
    json!({"type": "assistant", "sessionId": "c0570000-0000-4000-8000-000000000001", "cwd": "/home/dev/costs", "uuid": format!("u-{msg}-{out}"), "timestamp": ts,
        "message": {"id": msg, "model": model, "role": "assistant", "content": content,
            "usage": {"input_tokens": input, "cache_creation_input_tokens": 100, "cache_read_input_tokens": 1000, "output_tokens": out}}})
    .to_string()
}

fn user_line(text: &str, ts: &str) -> String {
    json!({"type": "user", "sessionId": "c0570000-0000-4000-8000-000000000001", "cwd": "/home/dev/costs", "uuid": format!("p-{ts}"), "timestamp": ts, "message": {"role": "user", "content": text}}).to_string()
}

/// A session over two days whose second message is streamed in three lines.
fn two_day_session(model: &str) -> Vec<String> {
    let call = |id: &str| json!([{"type": "tool_use", "id": id, "name": "Bash", "input": {"command": "ls"}}]);
    vec![
        user_line("list the files", "2026-03-01T23:59:00.000Z"),
        claude_line(
            "m1",
            model,
            json!([{"type": "text", "text": "Listing."}]),
            10,
            7,
            "2026-03-01T23:59:01.000Z",
        ),
        claude_line(
            "m2",
            model,
            json!([{"type": "thinking", "thinking": "hm"}]),
            20,
            1,
            "2026-03-01T23:59:59.000Z",
        ),
        claude_line("m2", model, call("c1"), 20, 50, "2026-03-02T00:00:01.000Z"),
        claude_line("m2", model, call("c2"), 20, 91, "2026-03-02T00:00:02.000Z"),
        user_line("thanks", "2026-03-02T08:00:00.000Z"),
        claude_line(
            "m3",
            model,
            json!([{"type": "text", "text": "Done."}]),
            30,
            5,
            "2026-03-02T08:00:01.000Z",
        ),
    ]
}

fn write_session(logs: &Path, lines: &[String]) -> PathBuf {
    let dir = logs.join("claude/projects/-home-dev-costs");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("c0570000-0000-4000-8000-000000000001.jsonl");
    std::fs::write(
        &path,
        lines.iter().map(|l| format!("{l}\n")).collect::<String>(),
    )
    .unwrap();
    path
}

#[tokio::test]
async fn an_append_inside_a_streamed_message_counts_it_once_and_days_split_by_request_time() {
    let tmp = tempfile::tempdir().unwrap();
    let logs = tmp.path().join("logs");
    let lines = two_day_session("claude-haiku-4-5-20251001");
    // Cut between two streamed lines of message m2.
    let path = write_session(&logs, &lines[..4]);
    let (_store, c) = served(&logs, &tmp.path().join("data")).await;
    let first = items(&all_pages(&c, "get_project_costs", json!({"group_by": "day"})).await);
    assert_eq!(first.len(), 2, "{first:?}");
    std::fs::write(
        &path,
        lines.iter().map(|l| format!("{l}\n")).collect::<String>(),
    )
    .unwrap();
    let (store, c) = served(&logs, &tmp.path().join("data")).await;
    let appended = items(&all_pages(&c, "get_project_costs", json!({"group_by": "day"})).await);
    // A fresh index of the whole file says the same.
    let (_fresh, fresh_client) = served(&logs, &tmp.path().join("fresh")).await;
    let fresh = items(
        &all_pages(
            &fresh_client,
            "get_project_costs",
            json!({"group_by": "day"}),
        )
        .await,
    );
    assert_eq!(appended, fresh);
    // What each line adds counts on its own day: m1 and m2's first line on March 1st, the rest
    // of m2's output and m3 on March 2nd. Each message's input includes 1,100 cache tokens.
    let input = |msgs: u64| msgs * 1_100;
    let day = |d: &str| appended.iter().find(|r| r["day"] == d).unwrap().clone();
    let (d1, d2) = (day("2026-03-01"), day("2026-03-02"));
    assert_eq!(
        num(&d1["tokens"], "input") + num(&d2["tokens"], "input"),
        input(3) + 10 + 20 + 30
    );
    assert_eq!(
        num(&d1["tokens"], "output") + num(&d2["tokens"], "output"),
        7 + 91 + 5
    );
    assert_eq!(num(&d1, "requests") + num(&d2, "requests"), 3);
    assert_eq!(num(&d1["tokens"], "input"), 1_100 + 10 + 1_100 + 20);
    assert_eq!(num(&d1["tokens"], "output"), 7 + 1);
    let summary = store
        .session_summary("c0570000-0000-4000-8000-000000000001")
        .unwrap();
    assert_eq!(summary.tokens.output, 7 + 91 + 5);
    // Range filters take whole UTC days.
    let only = items(&all_pages(&c, "get_project_costs", json!({"group_by": "day", "since": "2026-03-02T12:00:00Z", "until": "2026-03-02T13:00:00+00:00"})).await);
    assert_eq!(only, vec![d2.clone()]);
    let none = c
        .call(
            "get_project_costs",
            json!({"since": "2026-04-01T00:00:00Z"}),
        )
        .await;
    assert_eq!(none.expect_ok().as_array().unwrap().len(), 0);
    let project = items(
        &all_pages(
            &c,
            "get_project_costs",
            json!({"project": "/home/dev/costs"}),
        )
        .await,
    );
    assert_eq!(project.len(), 1);
    let other = c
        .call(
            "get_project_costs",
            json!({"project": "/home/dev/elsewhere"}),
        )
        .await;
    assert_eq!(other.expect_ok().as_array().unwrap().len(), 0);
    // The tool split of m2: two Bash calls share its tokens.
    let d = c
        .call("get_session_costs", json!({"session_id": "c0570000"}))
        .await
        .expect_ok()
        .clone();
    let bash = d["by_tool"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["tool"] == "Bash")
        .unwrap()
        .clone();
    assert_eq!(num(&bash, "calls"), 2);
    assert_eq!(num(&bash["tokens"], "output"), 91);
    assert_eq!(num(&bash, "requests"), 1);
    let bad = c
        .call(
            "get_project_costs",
            json!({"since": "2026-03-02T00:00:00Z", "until": "2026-03-01T00:00:00Z"}),
        )
        .await;
    assert_eq!(error_code(&bad), "invalid_parameter");
}

#[tokio::test]
async fn a_model_without_a_price_costs_null_and_is_named_never_zero() {
    let tmp = tempfile::tempdir().unwrap();
    let logs = tmp.path().join("logs");
    write_session(&logs, &two_day_session("claude-imaginary-9"));
    let (_store, c) = served(&logs, &tmp.path().join("data")).await;
    let a = c
        .call("get_session_costs", json!({"session_id": "c0570000"}))
        .await;
    let d = a.expect_ok();
    assert!(d["session"]["estimated_cost_usd"].is_null(), "{d}");
    assert_eq!(
        num(&d["session"], "unpriced_tokens"),
        num(&d["session"]["tokens"], "total")
    );
    assert!(num(&d["session"]["tokens"], "total") > 0);
    assert!(d["by_model"][0]["priced_as"].is_null());
    let warnings = a.envelope["warnings"].to_string();
    assert!(warnings.contains("claude-imaginary-9"), "{warnings}");
    let rows = c.call("get_project_costs", json!({})).await;
    assert!(rows.expect_ok()[0]["estimated_cost_usd"].is_null());
    assert!(
        rows.envelope["warnings"]
            .to_string()
            .contains("claude-imaginary-9")
    );
}

#[tokio::test]
async fn an_index_of_version_9_gains_usage_in_place_and_reparses_once() {
    let tmp = tempfile::tempdir().unwrap();
    let logs = tmp.path().join("logs");
    write_session(&logs, &two_day_session("claude-sonnet-4-5"));
    let data = tmp.path().join("data");
    let (_store, c) = served(&logs, &data).await;
    let before = items(&all_pages(&c, "get_project_costs", json!({"group_by": "day"})).await);
    drop(c);
    drop(_store);
    {
        let conn = rusqlite::Connection::open(data.join("index.sqlite")).unwrap();
        conn.execute_batch("DROP TABLE usage; PRAGMA user_version = 9;")
            .unwrap();
    }
    let store = TraceStore::open(Config::for_tree(&logs, &data)).unwrap();
    let stats = store.refresh().unwrap();
    assert_eq!(stats.files_parsed, 1, "{stats:?}");
    let server = agtrace_tools::server::build(store.clone()).unwrap();
    let c = TestClient::in_process(&server).await;
    let after = items(&all_pages(&c, "get_project_costs", json!({"group_by": "day"})).await);
    assert_eq!(after, before);
    assert!(!after.is_empty());
}
