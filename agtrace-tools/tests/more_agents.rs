//! Qwen Code and GitHub Copilot CLI on their files in `tests/real_logs/` (where each comes from
//! is in `SOURCES.md` there): agtrace's sessions, prompts, turns, tool calls, errors, tokens and
//! parent links against what the raw records say, computed here from the raw JSON by each
//! format's rule (`docs/providers/qwen-code.md`, `docs/providers/copilot-cli.md`) without the
//! parsers; every prompt found by search; the `agtrace` binary over MCP and `call` on them; and
//! a malformed file of each skipped with its reason.

mod common;

use common::phrase;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use agtrace_tools::config::Config;
use agtrace_tools::index::{SearchQuery, SessionFilter, SkipReason, SkippedFile};
use agtrace_tools::model::{EventKind, Provider};
use agtrace_tools::store::TraceStore;
use mcp_tool::rmcp::transport::TokioChildProcess;
use mcp_tool::testing::TestClient;
use serde_json::{Value, json};

fn real_logs() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/real_logs")
}

/// The set indexed in place (it is only read), with the index in a temp dir.
fn indexed() -> (tempfile::TempDir, TraceStore) {
    let tmp = tempfile::tempdir().unwrap();
    let store = TraceStore::open(Config::for_tree(&real_logs(), &tmp.path().join("data"))).unwrap();
    let stats = store.refresh().unwrap();
    assert_eq!(stats.malformed_lines, 0, "{:?}", stats.notes);
    assert!(stats.skipped.is_empty(), "{:?}", stats.skipped);
    (tmp, store)
}

fn jsonl(rel: &str) -> Vec<Value> {
    std::fs::read_to_string(real_logs().join(rel))
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{rel}: {e}: {l}")))
        .collect()
}

fn num(v: &Value, key: &str) -> u64 {
    v.get(key).and_then(Value::as_u64).unwrap_or(0)
}

fn text(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_string)
}

#[derive(Debug, Default, PartialEq, Eq, Clone, Copy)]
struct Tokens {
    input: u64,
    cached: u64,
    cache_write: u64,
    output: u64,
    reasoning: u64,
    total: u64,
}

/// One tool call as the raw records give it.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Clone)]
struct Call {
    id: String,
    name: String,
    args: String,
}

/// What one session's raw records say.
#[derive(Debug)]
struct Expected {
    rel: &'static str,
    id: String,
    parent: Option<String>,
    cwd: Option<String>,
    prompts: Vec<String>,
    calls: Vec<Call>,
    errors: usize,
    tokens: Tokens,
}

const QWEN: [&str; 4] = [
    "qwen/projects/-tmp-agtrace-qwen-real-project/chats/abb8c832-1bf0-4cca-a61d-de3bde0f47fb.jsonl",
    "qwen/projects/-tmp-agtrace-qwen-real-project/subagents/abb8c832-1bf0-4cca-a61d-de3bde0f47fb/agent-general-purpose-call_5.jsonl",
    "qwen/projects/-tmp-as-qwen-fixture-project/chats/019f0000-0000-7000-8000-000000000001.jsonl",
    "qwen/projects/-tmp-as-qwen-fixture-old-project/chats/019f0000-0000-7000-8000-000000000004.jsonl",
];

const COPILOT: [&str; 2] = [
    "copilot/session-state/aaaabbbb-1111-2222-3333-ccccddddeeee/events.jsonl",
    "copilot/session-state/copilot_stage0_small/events.jsonl",
];

/// A Qwen Code file. Prompts: `user` records a person wrote (not the CLI's notification,
/// cron and Goal records, by `subtype` and `provenance`), their `displayText` or text parts.
/// Tokens: `usageMetadata` once per record uuid, output as the CLI counts it (total - prompt).
/// A sub-agent transcript (`subagents/<parent>/agent-*.jsonl`) is its own session, named by
/// file and parent folder, since its records carry the parent's `sessionId`.
fn qwen(rel: &'static str) -> Expected {
    let recs = jsonl(rel);
    let path = Path::new(rel);
    let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
    let folder = |up: usize| {
        let mut p = path.parent().unwrap();
        for _ in 0..up {
            p = p.parent().unwrap();
        }
        p.file_name().unwrap().to_str().unwrap().to_string()
    };
    let (id, parent) = if folder(1) == "subagents" {
        (format!("{stem}@{}", folder(0)), Some(folder(0)))
    } else {
        (text(&recs[0], "sessionId").unwrap(), None)
    };
    let mut prompts = Vec::new();
    let mut calls = Vec::new();
    let mut errors = 0;
    let mut usage_by_uuid: Vec<(String, &Value)> = Vec::new();
    for r in &recs {
        let parts = r["message"]["parts"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        match r["type"].as_str().unwrap_or("") {
            "user" => {
                let person = !matches!(
                    r["subtype"].as_str(),
                    Some("notification" | "cron" | "goal_runtime")
                ) && r["provenance"].as_str().is_none_or(|p| p == "real_user");
                let typed = text(&r["systemPayload"], "displayText").unwrap_or_else(|| {
                    parts
                        .iter()
                        .filter(|p| p["thought"] != true)
                        .filter_map(|p| text(p, "text"))
                        .collect::<Vec<_>>()
                        .join("\n")
                });
                if person && !typed.trim().is_empty() {
                    prompts.push(typed);
                }
            }
            "assistant" => {
                for p in &parts {
                    if let Some(c) = p.get("functionCall") {
                        calls.push(Call {
                            id: text(c, "id").unwrap(),
                            name: text(c, "name").unwrap(),
                            args: c["args"].to_string(),
                        });
                    }
                }
                if let Some(u) = r.get("usageMetadata") {
                    let uuid = text(r, "uuid").unwrap();
                    match usage_by_uuid.iter_mut().find(|(k, _)| *k == uuid) {
                        Some(slot) => slot.1 = u,
                        None => usage_by_uuid.push((uuid, u)),
                    }
                }
            }
            "tool_result" => {
                let failed = r["toolCallResult"]["status"] == "error";
                errors += parts
                    .iter()
                    .filter(|p| {
                        p.get("functionResponse").is_some()
                            && (failed || p["functionResponse"]["response"].get("error").is_some())
                    })
                    .count();
            }
            _ => {}
        }
    }
    let mut t = Tokens::default();
    for (_, u) in usage_by_uuid {
        let input = num(u, "promptTokenCount") + num(u, "toolUsePromptTokenCount");
        let (cand, thoughts) = (num(u, "candidatesTokenCount"), num(u, "thoughtsTokenCount"));
        let output = match u.get("totalTokenCount").and_then(Value::as_u64) {
            Some(total) => total - input,
            None if cand > thoughts => cand,
            None => cand + thoughts,
        };
        t.input += input;
        t.cached += num(u, "cachedContentTokenCount");
        t.output += output;
        t.reasoning += thoughts;
    }
    t.total = t.input + t.output;
    Expected {
        rel,
        id,
        parent,
        cwd: recs.iter().find_map(|r| text(r, "cwd")),
        prompts,
        calls,
        errors,
        tokens: t,
    }
}

/// A Copilot CLI events file. Prompts: `user.message` content (not a sub-agent's, which has a
/// `parentToolCallId`). Calls: the messages' `toolRequests`, and `tool.execution_start` of a
/// call no message asked for. Tokens: the `session.shutdown` totals (`tokenDetails.input` is
/// the uncached part; the files here have at most one, so whether totals are cumulative does
/// not matter) or, for a run without one, the messages' `outputTokens`.
fn copilot(rel: &'static str) -> Expected {
    let recs = jsonl(rel);
    let start = recs.iter().find(|r| r["type"] == "session.start").unwrap();
    let mut prompts = Vec::new();
    let mut calls: Vec<Call> = Vec::new();
    let mut errors = 0;
    let mut t = Tokens::default();
    let mut run_output = 0;
    let args = |a: &Value| match a {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    for r in &recs {
        let d = &r["data"];
        match r["type"].as_str().unwrap() {
            "user.message" if d["parentToolCallId"].is_null() => {
                prompts.extend(text(d, "content").filter(|c| !c.trim().is_empty()))
            }
            "assistant.message" => {
                for q in d["toolRequests"].as_array().into_iter().flatten() {
                    calls.push(Call {
                        id: text(q, "toolCallId").unwrap(),
                        name: text(q, "name").unwrap(),
                        args: args(&q["arguments"]),
                    });
                }
                run_output += num(d, "outputTokens");
            }
            "tool.execution_start" => {
                let id = text(d, "toolCallId").unwrap();
                if !calls.iter().any(|c| c.id == id) {
                    calls.push(Call {
                        id,
                        name: text(d, "toolName").unwrap(),
                        args: args(&d["arguments"]),
                    });
                }
            }
            "tool.execution_complete" if d["success"] == false => errors += 1,
            "session.shutdown" => {
                let c = |k: &str| d["tokenDetails"][k]["tokenCount"].as_u64().unwrap_or(0);
                t.input += c("input") + c("cache_read") + c("cache_write");
                t.cached += c("cache_read");
                t.cache_write += c("cache_write");
                t.output += c("output");
                run_output = 0;
            }
            _ => {}
        }
    }
    t.output += run_output;
    t.total = t.input + t.output;
    Expected {
        rel,
        id: text(&start["data"], "sessionId").unwrap(),
        parent: None,
        cwd: start["data"]["context"]["cwd"].as_str().map(str::to_string),
        prompts,
        calls,
        errors,
        tokens: t,
    }
}

fn expected(p: Provider) -> Vec<Expected> {
    match p {
        Provider::QwenCode => QWEN.iter().map(|r| qwen(r)).collect(),
        Provider::CopilotCli => COPILOT.iter().map(|r| copilot(r)).collect(),
        _ => unreachable!(),
    }
}

const AGENTS: [Provider; 2] = [Provider::QwenCode, Provider::CopilotCli];

#[test]
fn each_file_is_one_session_with_its_parent_and_project() {
    let (_tmp, store) = indexed();
    for p in AGENTS {
        let filter = SessionFilter {
            provider: Some(p),
            include_subagents: true,
            ..Default::default()
        };
        let listed: BTreeSet<String> = store
            .list_sessions(&filter, None, 100)
            .unwrap()
            .sessions
            .into_iter()
            .map(|s| s.id)
            .collect();
        let all = expected(p);
        let want: BTreeSet<String> = all.iter().map(|e| e.id.clone()).collect();
        assert_eq!(listed, want, "{p}");
        for e in &all {
            let s = store.session_summary(&e.id).unwrap();
            assert_eq!(s.provider, p);
            assert!(
                s.path.ends_with(e.rel.rsplit('/').next().unwrap()),
                "{}",
                s.path
            );
            assert_eq!(s.parent_id, e.parent, "{}", e.id);
            assert_eq!(s.is_subagent, e.parent.is_some(), "{}", e.id);
            assert_eq!(s.project.root, e.cwd, "{}", e.id);
            if let Some(parent) = &e.parent {
                let children = &store.load_session(parent).unwrap().children;
                assert!(children.contains(&e.id), "{parent}: {children:?}");
            }
        }
    }
    // The real Qwen session spawned one sub-agent, and it is linked.
    assert_eq!(
        expected(Provider::QwenCode)
            .iter()
            .filter(|e| e.parent.is_some())
            .count(),
        1
    );
}

#[test]
fn turns_are_the_persons_prompts() {
    let (_tmp, store) = indexed();
    for e in AGENTS.into_iter().flat_map(expected) {
        let s = store.session_summary(&e.id).unwrap();
        assert_eq!(
            (s.prompt_count as usize, s.turn_count as usize),
            (e.prompts.len(), e.prompts.len()),
            "{}: {:?}",
            e.id,
            e.prompts
        );
        let detail = store.load_session(&e.id).unwrap();
        let got: Vec<String> = detail
            .turns
            .iter()
            .filter_map(|t| t.prompt.clone())
            .collect();
        assert_eq!(got, e.prompts, "{}", e.id);
    }
}

#[test]
fn tool_calls_carry_their_arguments_and_results_and_errors_count() {
    let (_tmp, store) = indexed();
    let mut results_seen = 0;
    for e in AGENTS.into_iter().flat_map(expected) {
        let detail = store.load_session(&e.id).unwrap();
        let got: Vec<Call> = detail
            .events
            .iter()
            .filter(|ev| ev.kind == EventKind::ToolCall)
            .map(|ev| Call {
                id: ev.call_id.clone().unwrap_or_default(),
                name: ev.tool_name.clone().unwrap_or_default(),
                args: ev.text.clone(),
            })
            .collect();
        assert_eq!(got, e.calls, "{}", e.id);
        let s = &detail.summary;
        assert_eq!(s.tool_calls as usize, e.calls.len(), "{}", e.id);
        assert_eq!(s.tool_errors as usize, e.errors, "{}", e.id);
        // Every result pairs with the call before it with its id, in the same turn (the
        // redacted fixture reuses one id, and has a result whose call was redacted away).
        for r in detail
            .events
            .iter()
            .filter(|ev| ev.kind == EventKind::ToolResult)
        {
            let id = r.call_id.as_deref().unwrap();
            let call = detail.events.iter().rev().find(|c| {
                c.index < r.index
                    && c.kind == EventKind::ToolCall
                    && c.call_id.as_deref() == Some(id)
            });
            if let Some(call) = call {
                assert_eq!(call.turn, r.turn, "{}: {id}", e.id);
                assert_eq!(call.tool_name, r.tool_name, "{}: {id}", e.id);
                results_seen += 1;
            }
        }
    }
    assert!(results_seen >= 6, "{results_seen}");
}

#[test]
fn the_real_qwen_session_has_what_was_done_in_it() {
    let (_tmp, store) = indexed();
    let e = qwen(QWEN[0]);
    let detail = store.load_session(&e.id).unwrap();
    let failed: Vec<&str> = detail
        .events
        .iter()
        .filter(|ev| ev.kind == EventKind::ToolResult && ev.is_error)
        .map(|ev| ev.text.as_str())
        .collect();
    assert_eq!(failed, ["params must have required property 'file_path'"]);
    assert_eq!(detail.summary.model.as_deref(), Some("stand-in-model"));
    // The background agent's completion is a notice, not a fourth prompt.
    assert!(detail.events.iter().any(|ev| ev.kind == EventKind::Notification
        && ev.text.starts_with("Background agent")));
    assert!(
        detail
            .events
            .iter()
            .filter(|ev| ev.kind == EventKind::Reasoning)
            .count()
            >= 4
    );
}

#[test]
fn token_totals_match_the_raw_records() {
    let (_tmp, store) = indexed();
    let mut nonzero = 0;
    for e in AGENTS.into_iter().flat_map(expected) {
        let s = store.session_summary(&e.id).unwrap();
        let got = Tokens {
            input: s.tokens.input,
            cached: s.tokens.cached_input,
            cache_write: s.tokens.cache_creation_input,
            output: s.tokens.output,
            reasoning: s.tokens.reasoning_output,
            total: s.tokens.total,
        };
        assert_eq!(got, e.tokens, "{}", e.id);
        nonzero += usize::from(e.tokens.total > 0);
    }
    // Real numbers, including cached and reasoning tokens, not only zeros.
    let real = qwen(QWEN[0]).tokens;
    assert!(
        real.cached > 0 && real.reasoning > 0 && real.output > 0,
        "{real:?}"
    );
    assert!(nonzero >= 5, "{nonzero}");
}

#[test]
fn search_finds_every_prompt_as_a_user_event() {
    let (_tmp, store) = indexed();
    let mut searched = 0;
    for p in AGENTS {
        for e in expected(p) {
            for prompt in &e.prompts {
                let page = store
                    .search(&SearchQuery {
                        text: phrase(prompt),
                        provider: Some(p),
                        kind: Some(EventKind::User),
                        limit: 50,
                        ..Default::default()
                    })
                    .unwrap();
                assert!(
                    page.hits.iter().any(|h| h.session_id == e.id),
                    "{}: {} not found",
                    e.id,
                    phrase(prompt)
                );
                searched += 1;
            }
        }
    }
    assert!(searched >= 8, "only {searched} prompts");
}

/// The two agents' roots as the binary's flags (the others pointed at an empty folder), and
/// the data dir.
fn flags(data: &Path, empty: &Path) -> Vec<String> {
    let mut out: Vec<String> = Provider::ALL
        .into_iter()
        .map(|p| {
            let root = if AGENTS.contains(&p) {
                real_logs().join(p.spec().tree_root)
            } else {
                empty.to_path_buf()
            };
            format!("--{}={}", p.spec().flag, root.display())
        })
        .collect();
    out.push(format!("--data-dir={}", data.display()));
    out
}

#[tokio::test]
async fn the_binary_serves_both_agents_over_mcp_and_call() {
    let tmp = tempfile::tempdir().unwrap();
    let (data, empty) = (tmp.path().join("data"), tmp.path().join("empty"));
    std::fs::create_dir_all(&empty).unwrap();
    let args = flags(&data, &empty);

    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_agtrace"));
    command
        .args(&args)
        .arg("serve")
        .stderr(std::process::Stdio::null());
    let client = TestClient::connect(TokioChildProcess::new(command).unwrap())
        .await
        .expect("MCP handshake with agtrace serve");
    for p in AGENTS {
        let page = client
            .call(
                "list_sessions",
                json!({"provider": p.as_str(), "include_subagents": true, "limit": 50}),
            )
            .await;
        let rows = page.expect_ok().as_array().unwrap().clone();
        let mut got: Vec<String> = rows
            .iter()
            .map(|r| r["session_id"].as_str().unwrap().to_owned())
            .collect();
        got.sort();
        let mut want: Vec<String> = expected(p).into_iter().map(|e| e.id).collect();
        want.sort();
        assert_eq!(got, want, "{p}");
        assert!(rows.iter().all(|r| r["provider"] == p.as_str()), "{rows:?}");
    }
    let e = qwen(QWEN[0]);
    let summary = client
        .call("get_session_summary", json!({"session_id": e.id}))
        .await;
    let s = summary.expect_ok();
    assert_eq!(s["provider"], "qwen_code", "{s}");
    let hits = client
        .call(
            "search_event_previews",
            json!({"query": phrase(&e.prompts[1]), "provider": "qwen_code"}),
        )
        .await;
    let hits = hits.expect_ok().as_array().unwrap().clone();
    assert!(
        hits.iter().any(|h| h["session_id"] == e.id.as_str()),
        "{hits:?}"
    );
    client.close().await;

    let c = copilot(COPILOT[0]);
    let out = Command::new(env!("CARGO_BIN_EXE_agtrace"))
        .args(&args)
        .args(["call", "get_session_summary"])
        .arg(json!({"session_id": c.id}).to_string())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let envelope: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(envelope["status"], "ok", "{envelope}");
    assert_eq!(envelope["data"]["provider"], "copilot_cli", "{envelope}");
}

/// Each agent's root in a temp tree, created, and the config.
fn tree(tmp: &Path) -> (PathBuf, PathBuf, Config) {
    let logs = tmp.join("logs");
    let qwen = logs.join("qwen/projects/-p/chats");
    let copilot = logs.join("copilot/session-state");
    std::fs::create_dir_all(&qwen).unwrap();
    std::fs::create_dir_all(&copilot).unwrap();
    (qwen, copilot, Config::for_tree(&logs, &tmp.join("data")))
}

#[test]
fn malformed_files_are_skipped_with_their_reason_and_bad_lines_counted() {
    let tmp = tempfile::tempdir().unwrap();
    let (qwen_dir, copilot_dir, cfg) = tree(tmp.path());
    std::fs::write(qwen_dir.join("garbage.jsonl"), "not json\n{ nor this\n").unwrap();
    std::fs::write(qwen_dir.join("arrays.jsonl"), "[1]\n[2]\n").unwrap();
    std::fs::create_dir_all(copilot_dir.join("s-bad")).unwrap();
    std::fs::write(
        copilot_dir.join("s-bad/events.jsonl"),
        "\u{0}\u{1} binary\n",
    )
    .unwrap();
    // A good file with one broken line in the middle: indexed, the line counted.
    let good = std::fs::read_to_string(real_logs().join(COPILOT[0])).unwrap();
    let mut lines: Vec<&str> = good.lines().collect();
    lines.insert(
        3,
        "{\"type\": \"user.message\", \"data\": {\"content\": \"cut sh",
    );
    std::fs::create_dir_all(copilot_dir.join("s-good")).unwrap();
    std::fs::write(
        copilot_dir.join("s-good/events.jsonl"),
        lines.join("\n") + "\n",
    )
    .unwrap();
    // Beside a session's events: not logs, not skipped either.
    std::fs::write(copilot_dir.join("s-good/workspace.yaml"), "cwd: /tmp\n").unwrap();

    let store = TraceStore::open(cfg).unwrap();
    let stats = store.refresh().unwrap();
    let skipped = |path: &str, reason| SkippedFile {
        path: path.to_string(),
        reason,
    };
    assert_eq!(
        stats.skipped,
        vec![
            skipped(
                "<copilot_cli root>/s-bad/events.jsonl",
                SkipReason::NotValidJson
            ),
            skipped(
                "<qwen_code root>/-p/chats/arrays.jsonl",
                SkipReason::NotALog
            ),
            skipped(
                "<qwen_code root>/-p/chats/garbage.jsonl",
                SkipReason::NotValidJson
            ),
        ]
    );
    assert_eq!(stats.files_parsed, 1);
    assert_eq!(stats.malformed_lines, 1);
    let c = copilot(COPILOT[0]);
    let s = store.session_summary(&c.id).unwrap();
    assert_eq!(
        (s.malformed_lines, s.prompt_count as usize),
        (1, c.prompts.len())
    );
}

/// Record shapes the test set lacks, written here: a Qwen Code session started by another
/// (`parent_session`) with a record copied from its source by `/branch` (`forkedFrom`), and a
/// Copilot CLI session run twice (two `session.shutdown`s, one with per-model usage as newer
/// versions write it, values as a public reader's test of 1.0.7x shows them).
#[test]
fn parent_sessions_forks_and_several_runs_are_counted_once_each() {
    let tmp = tempfile::tempdir().unwrap();
    let (qwen_dir, copilot_dir, cfg) = tree(tmp.path());
    let usage = |p: u64, c: u64, t: u64| json!({"promptTokenCount": p, "candidatesTokenCount": c, "totalTokenCount": t});
    let base = |uuid: &str, ty: &str| {
        json!({"uuid": uuid, "sessionId": "child-1", "timestamp": "2026-09-01T10:00:00Z",
               "type": ty, "cwd": "/w/app", "version": "0.24.4"})
    };
    let with = |mut v: Value, extra: Value| {
        v.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        v
    };
    let qwen_lines = [
        with(
            base("u0", "system"),
            json!({"subtype": "parent_session", "systemPayload": {"parentSessionId": "root-1"}}),
        ),
        with(
            base("u1", "user"),
            json!({"message": {"role": "user", "parts": [{"text": "copied prompt"}]},
                   "forkedFrom": {"sessionId": "root-1", "messageUuid": "x1"}}),
        ),
        with(
            base("u2", "assistant"),
            json!({"model": "m", "usageMetadata": usage(100, 10, 110),
                   "message": {"role": "model", "parts": [{"text": "copied answer"}]},
                   "forkedFrom": {"sessionId": "root-1", "messageUuid": "x2"}}),
        ),
        with(
            base("u3", "user"),
            json!({"message": {"role": "user", "parts": [{"text": "new prompt"}]}}),
        ),
        with(
            base("u4", "assistant"),
            json!({"model": "m", "usageMetadata": usage(200, 20, 220),
                   "message": {"role": "model", "parts": [{"text": "new answer"}]}}),
        ),
    ];
    let text: String = qwen_lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(qwen_dir.join("child-1.jsonl"), text).unwrap();

    let ev = |ty: &str, data: Value| json!({"type": ty, "data": data, "id": ty, "timestamp": "2026-09-01T10:00:00Z"});
    let metrics = json!({"claude-opus-4.7": {"usage": {"inputTokens": 393500, "outputTokens": 3546,
        "cacheReadTokens": 311321, "cacheWriteTokens": 82162, "reasoningTokens": 40}}});
    let copilot_lines = [
        ev(
            "session.start",
            json!({"sessionId": "cp-1", "context": {"cwd": "/w/app"}}),
        ),
        ev("user.message", json!({"content": "first run"})),
        ev(
            "assistant.message",
            json!({"messageId": "m1", "content": "a", "outputTokens": 3000}),
        ),
        ev(
            "session.shutdown",
            json!({"modelMetrics": metrics, "tokenDetails": {"input": {"tokenCount": 17}}}),
        ),
        ev("session.resume", json!({"context": {"cwd": "/w/app"}})),
        ev("user.message", json!({"content": "second run"})),
        ev(
            "assistant.message",
            json!({"messageId": "m2", "content": "b", "outputTokens": 7}),
        ),
        ev(
            "session.shutdown",
            json!({"tokenDetails": {"input": {"tokenCount": 2}, "cache_read": {"tokenCount": 0},
                "cache_write": {"tokenCount": 24208}, "output": {"tokenCount": 9}}}),
        ),
        ev("session.resume", json!({})),
        ev(
            "assistant.message",
            json!({"messageId": "m3", "content": "c", "outputTokens": 5}),
        ),
    ];
    std::fs::create_dir_all(copilot_dir.join("cp-1")).unwrap();
    let text: String = copilot_lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(copilot_dir.join("cp-1/events.jsonl"), text).unwrap();

    let store = TraceStore::open(cfg).unwrap();
    let stats = store.refresh().unwrap();
    assert_eq!((stats.files_parsed, stats.malformed_lines), (2, 0));

    let q = store.session_summary("child-1").unwrap();
    assert_eq!(q.parent_id.as_deref(), Some("root-1"));
    assert!(q.is_subagent);
    // The copied prompt is still a turn of the fork; its tokens were spent in the source.
    assert_eq!(q.prompt_count, 2);
    assert_eq!((q.tokens.input, q.tokens.output), (200, 20));

    let c = store.session_summary("cp-1").unwrap();
    assert_eq!(c.prompt_count, 2);
    let t = c.tokens;
    // Run 1 by its per-model usage, run 2 by tokenDetails (input is the uncached part), the
    // unfinished run 3 by its message's output only.
    assert_eq!(t.input, 393500 + (2 + 24208));
    assert_eq!(t.cached_input, 311321);
    assert_eq!(t.cache_creation_input, 82162 + 24208);
    assert_eq!(t.output, 3546 + 9 + 5);
    assert_eq!(t.reasoning_output, 40);
    assert_eq!(t.total, t.input + t.output);
}
