//! The real-log test set (`tests/real_logs/`; where each file comes from is in its
//! `SOURCES.md`): agtrace's numbers against what the raw records say, computed here from the raw
//! JSON by each provider's rule (`docs/provider-formats.md`), without the parsers:
//! - Claude Code: usage counted once per `message.id` (from its last streamed line, which has
//!   the final output count), input = input + cache creation + cache read, of every record of
//!   the file (inline sidechain records were billed too);
//! - Codex: the cumulative `token_count` (`total_token_usage`): its last value, plus the value
//!   before each reset to a lower one; for a fork, less the parent's total at the fork;
//! - Gemini: the sum of the per-message `tokens`;
//!
//! and the person's prompts (turn count), each of which search must find.

mod common;

use common::phrase;

use std::path::{Path, PathBuf};

use agtrace_tools::config::Config;
use agtrace_tools::index::SearchQuery;
use agtrace_tools::model::EventKind;
use agtrace_tools::store::TraceStore;
use serde_json::Value;

fn real_logs() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/real_logs")
}

/// The set indexed in place (it is only read), with the index in a temp dir.
fn indexed() -> (tempfile::TempDir, TraceStore) {
    let tmp = tempfile::tempdir().unwrap();
    let store = TraceStore::open(Config::for_tree(&real_logs(), &tmp.path().join("data"))).unwrap();
    let stats = store.refresh().unwrap();
    assert_eq!(stats.malformed_lines, 0, "{:?}", stats.notes);
    (tmp, store)
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(real_logs().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn jsonl(rel: &str) -> Vec<Value> {
    read(rel)
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

/// Token counts as the raw records give them.
#[derive(Debug, Default, PartialEq, Eq)]
struct Tokens {
    input: u64,
    cached: u64,
    cache_creation: u64,
    output: u64,
    reasoning: u64,
    total: u64,
}

/// What one session's raw records say.
#[derive(Debug)]
struct Expected {
    id: String,
    tokens: Tokens,
    prompts: Vec<String>,
}

/// User texts Claude Code writes that no person typed.
fn claude_injected(t: &str) -> bool {
    let t = t.trim_start();
    [
        "This session is being continued",
        "<command-name>",
        "<command-message>",
        "<local-command-stdout>",
        "<local-command-stderr>",
        "Caveat: The messages below were generated",
    ]
    .iter()
    .any(|p| t.starts_with(p))
}

/// A Claude Code file: the tokens of all its records (a main file's inline sidechain records, a
/// Task sub-agent's, were billed too), the prompts of the session's own chain (`isSidechain`
/// equal to the file's first record's, so a sub-agent file counts its own records, and a main
/// file with inline sidechains, written by Claude Code 2.0.x, only the main chain's).
fn claude(rel: &str) -> Expected {
    claude_chain(rel, Chain::All)
}

/// Which records of a Claude Code file count.
#[derive(Clone, Copy, PartialEq)]
enum Chain {
    All,
    Main,
    Side,
}

fn claude_chain(rel: &str, chain: Chain) -> Expected {
    let recs = jsonl(rel);
    let own_chain = recs
        .iter()
        .find(|r| r.get("isSidechain").is_some())
        .and_then(|r| r["isSidechain"].as_bool())
        .unwrap_or(false);
    let own = |r: &&Value| r["isSidechain"].as_bool().unwrap_or(false) == own_chain;
    let counted = |r: &&Value| match chain {
        Chain::All => true,
        Chain::Main => r["isSidechain"].as_bool() != Some(true),
        Chain::Side => r["isSidechain"].as_bool() == Some(true),
    };
    // Streaming writes one line per content block, all with the message's usage so far: the
    // input counts repeat, `output_tokens` grows, and the message's last line has its final
    // usage. (ccusage keeps the first line instead, which undercounts output: see
    // docs/real-logs.md.)
    let mut last: Vec<(Option<String>, &Value)> = Vec::new();
    for r in recs.iter().filter(counted) {
        let Some(u) = r
            .pointer("/message/usage")
            .filter(|_| r["type"] == "assistant")
        else {
            continue;
        };
        let id = text(&r["message"], "id");
        match last.iter_mut().find(|(k, _)| id.is_some() && *k == id) {
            Some(slot) => slot.1 = u,
            None => last.push((id, u)),
        }
    }
    let mut t = Tokens::default();
    for (_, u) in last {
        let (inp, cr, cc, out) = (
            num(u, "input_tokens"),
            num(u, "cache_read_input_tokens"),
            num(u, "cache_creation_input_tokens"),
            num(u, "output_tokens"),
        );
        t.input += inp + cr + cc;
        t.cached += cr;
        t.cache_creation += cc;
        t.output += out;
    }
    t.total = t.input + t.output;
    let mut prompts = Vec::new();
    for r in recs.iter().filter(own) {
        if r["type"] != "user"
            || r["isMeta"].as_bool().unwrap_or(false)
            || r["isCompactSummary"].as_bool().unwrap_or(false)
        {
            continue;
        }
        let content = &r["message"]["content"];
        let texts: Vec<String> = match content {
            Value::String(s) => vec![s.clone()],
            Value::Array(blocks) => blocks
                .iter()
                .filter(|b| b["type"] == "text")
                .filter_map(|b| text(b, "text"))
                .collect(),
            _ => Vec::new(),
        };
        prompts.extend(texts.into_iter().filter(|t| !claude_injected(t)));
    }
    let stem = Path::new(rel).file_stem().unwrap().to_str().unwrap();
    Expected {
        id: stem.to_string(),
        tokens: t,
        prompts,
    }
}

/// User blocks Codex writes before the person's prompt.
fn codex_injected(t: &str) -> bool {
    let t = t.trim_start();
    t.starts_with("<environment_context>")
        || t.starts_with("<user_instructions>")
        || t.starts_with("# AGENTS.md instructions")
}

/// A Codex `total_token_usage`. `input_tokens` holds the cached part and the cache writes,
/// `output_tokens` the reasoning part.
fn codex_total(u: &Value) -> Tokens {
    Tokens {
        input: num(u, "input_tokens"),
        cached: num(u, "cached_input_tokens"),
        cache_creation: num(u, "cache_write_input_tokens"),
        output: num(u, "output_tokens"),
        reasoning: num(u, "reasoning_output_tokens"),
        total: num(u, "input_tokens") + num(u, "output_tokens"),
    }
}

impl Tokens {
    fn plus(&self, o: &Tokens) -> Tokens {
        Tokens {
            input: self.input + o.input,
            cached: self.cached + o.cached,
            cache_creation: self.cache_creation + o.cache_creation,
            output: self.output + o.output,
            reasoning: self.reasoning + o.reasoning,
            total: self.total + o.total,
        }
    }

    fn minus(&self, o: &Tokens) -> Tokens {
        Tokens {
            input: self.input - o.input,
            cached: self.cached - o.cached,
            cache_creation: self.cache_creation - o.cache_creation,
            output: self.output - o.output,
            reasoning: self.reasoning - o.reasoning,
            total: self.total - o.total,
        }
    }
}

/// The usage of `recs`' cumulative `token_count`s: the last total, plus the total before each
/// reset to a lower one (a zeroed row starts the count again).
fn codex_cumulative<'a>(recs: impl IntoIterator<Item = &'a Value>) -> Tokens {
    let (mut done, mut last) = (Tokens::default(), Tokens::default());
    for r in recs {
        if let Some(u) = r
            .pointer("/payload/info/total_token_usage")
            .filter(|_| r["payload"]["type"] == "token_count")
        {
            let t = codex_total(u);
            if t.total < last.total {
                done = done.plus(&last);
            }
            last = t;
        }
    }
    done.plus(&last)
}

/// How many records after a fork's own `session_meta` are the parent's, copied: the longest run
/// equal, but for the time written, to the start of the parent's rollout.
fn copied_from(recs: &[Value], parent: &[Value]) -> usize {
    let bare = |r: &Value| {
        let mut r = r.clone();
        r.as_object_mut().unwrap().remove("timestamp");
        r
    };
    recs[1..]
        .iter()
        .zip(parent)
        .take_while(|(a, b)| bare(a) == bare(b))
        .count()
}

/// A Codex rollout: its cumulative `token_count` usage; prompts from the user messages. A fork
/// (first `session_meta` with `forked_from_id`) counts only what follows its copy of the
/// parent's history: its totals continue the parent's, so the parent's total at the fork is
/// taken off.
fn codex(rel: &str) -> Expected {
    let recs = jsonl(rel);
    let meta = recs.iter().find(|r| r["type"] == "session_meta").unwrap();
    let id = text(&meta["payload"], "id").unwrap();
    let mut own = &recs[..];
    let mut inherited = Tokens::default();
    if let Some(parent_id) = text(&meta["payload"], "forked_from_id") {
        let parent = CODEX
            .iter()
            .map(|r| jsonl(r))
            .find(|p| p[0]["payload"]["id"] == parent_id.as_str())
            .expect("the fork's parent is in the set");
        let n = copied_from(&recs, &parent);
        assert!(n > 0, "{rel}: no copied history");
        inherited = codex_cumulative(&parent[..n]);
        own = &recs[1 + n..];
    }
    let t = codex_cumulative(own).minus(&inherited);
    // `event_msg`/`user_message` is written once per typed prompt (trimmed rollouts keep only
    // these); the `response_item` user messages repeat it beside injected context blocks.
    let prompts = own
        .iter()
        .filter(|r| r["type"] == "event_msg" && r["payload"]["type"] == "user_message")
        .filter_map(|r| text(&r["payload"], "message"))
        .filter(|t| !codex_injected(t))
        .collect();
    Expected {
        id,
        tokens: t,
        prompts,
    }
}

/// A Gemini CLI session document: the sum of the messages' own `tokens`.
fn gemini(rel: &str) -> Expected {
    let doc: Value = serde_json::from_str(&read(rel)).unwrap();
    let mut t = Tokens::default();
    let mut prompts = Vec::new();
    for m in doc["messages"].as_array().unwrap() {
        if m["type"] == "user" {
            prompts.extend(text(m, "content"));
        }
        if let Some(k) = m.get("tokens").filter(|k| k.is_object()) {
            // input already holds cached; total = input + output + thoughts (+ tool).
            t.input += num(k, "input") + num(k, "tool");
            t.cached += num(k, "cached");
            t.output += num(k, "output") + num(k, "thoughts");
            t.reasoning += num(k, "thoughts");
            t.total += num(k, "total");
        }
    }
    Expected {
        id: text(&doc, "sessionId").unwrap(),
        tokens: t,
        prompts,
    }
}

/// The sessions compared here. The set's other files are indexed too (every line must parse)
/// and checked by the tests below them: `88a8d761-7b9a-4bf1-a8ca-c1febe6bf358` (inline
/// sidechains, no prompt at all), the Codex 0.146 fixture and `ses_stage0_small` (catalogues of
/// record types rather than coherent sessions: their identity and tokens are checked, not their
/// prompts).
const CLAUDE: [&str; 4] = [
    "claude/projects/-Users-test_user-agent-sample/7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl",
    "claude/projects/-Users-test_user-agent-sample/agent-0c4c3cf8.jsonl",
    "claude/projects/-tmp/0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f.jsonl",
    "claude/projects/-tmp/0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f/subagents/agent-a0ad4f44468bdf20d.jsonl",
];
const CODEX: [&str; 4] = [
    "codex/sessions/2025/12/09/rollout-2025-12-09T19-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c.jsonl",
    "codex/sessions/2026/01/04/rollout-2026-01-04T11-59-02-019b88e0-0b0f-7bb0-a9ba-5cc2d8dffde9.jsonl",
    "codex/sessions/2026/01/04/rollout-2026-01-04T12-05-09-019b88e5-a2e4-7b90-8953-38fce393c653.jsonl",
    FORK,
];
/// A fork of the 0.66 rollout above, written here from it as Codex writes forks (SOURCES.md).
const FORK: &str = "codex/sessions/2025/12/09/rollout-2025-12-09T20-10-00-019b04bc-2dc0-7a3e-9c11-5f0e2b7d4a61.jsonl";
const SIDECHAINS: &str = "claude/projects/e--Workspace-src-github-claude-code-log/88a8d761-7b9a-4bf1-a8ca-c1febe6bf358.jsonl";
const CODEX_146: &str = "codex/sessions/2026/08/03/rollout-2026-08-03T10-48-56-019fc8be-3658-7ca3-9e29-000000000000.jsonl";
const CLAUDE_CATALOGUE: &str = "claude/projects/-tmp-stage0/ses_stage0_small.jsonl";
const GEMINI: [&str; 2] = [
    "gemini/tmp/9126eddec7f67e038794657b4d517dd9cb5226468f30b5ee7296c27d65e84fde/chats/session-2025-12-09T19-51-f0a689a6.json",
    "gemini/tmp/205016864bd110904e9ad8314192344ab398d043e779da15bedbb9ee9be00da2/chats/session-2025-12-16T23-47-b4f17607.json",
];

fn expected() -> Vec<Expected> {
    let mut all: Vec<Expected> = CLAUDE.iter().map(|r| claude(r)).collect();
    all.extend(CODEX.iter().map(|r| codex(r)));
    all.extend(GEMINI.iter().map(|r| gemini(r)));
    all
}

fn check_tokens(store: &TraceStore, e: &Expected) {
    let s = store.session_summary(&e.id).unwrap();
    let got = Tokens {
        input: s.tokens.input,
        cached: s.tokens.cached_input,
        cache_creation: s.tokens.cache_creation_input,
        output: s.tokens.output,
        reasoning: s.tokens.reasoning_output,
        total: s.tokens.total,
    };
    assert_eq!(got, e.tokens, "{}", e.id);
}

#[test]
fn token_totals_match_the_raw_records() {
    let (_tmp, store) = indexed();
    let all = expected();
    // The set has real numbers to compare, not only zeros.
    assert!(all.iter().filter(|e| e.tokens.total > 0).count() >= 5);
    for e in &all {
        check_tokens(&store, e);
    }
}

#[test]
fn turn_counts_are_the_persons_prompts() {
    let (_tmp, store) = indexed();
    for e in expected() {
        let s = store.session_summary(&e.id).unwrap();
        assert_eq!(
            (s.prompt_count as usize, s.turn_count as usize),
            (e.prompts.len(), e.prompts.len()),
            "{}: {:?}",
            e.id,
            e.prompts
        );
    }
}

#[test]
fn search_finds_every_prompt_as_a_user_event() {
    let (_tmp, store) = indexed();
    let mut searched = 0;
    for e in expected() {
        for p in &e.prompts {
            let page = store
                .search(&SearchQuery {
                    text: phrase(p),
                    session: Some(e.id.clone()),
                    kind: Some(EventKind::User),
                    limit: 50,
                    ..Default::default()
                })
                .unwrap();
            assert!(
                page.hits
                    .iter()
                    .any(|h| h.session_id == e.id && h.kind == EventKind::User),
                "{}: {} not found",
                e.id,
                phrase(p)
            );
            searched += 1;
        }
    }
    assert!(searched >= 10, "only {searched} prompts in the set");
}

/// Claude Code 2.0.x inline sidechains (a Task sub-agent's records in the main file): billed, so
/// their tokens count into the session, but their user records are the Task's, not a person's
/// prompts; their steps sit in the turn that spawned the Task.
#[test]
fn inline_sidechains_count_their_tokens_but_no_prompts() {
    let (_tmp, store) = indexed();
    let all = claude(SIDECHAINS);
    let main = claude_chain(SIDECHAINS, Chain::Main);
    let side = claude_chain(SIDECHAINS, Chain::Side);
    // docs/real-logs.md: the main chain alone is 285,502 input and 555 output.
    assert_eq!((main.tokens.input, main.tokens.output), (285_502, 555));
    assert_eq!(all.tokens, main.tokens.plus(&side.tokens));
    assert!(side.tokens.total > 0);
    check_tokens(&store, &all);
    let s = store.session_summary(&all.id).unwrap();
    assert_eq!(
        (s.prompt_count, s.is_subagent, s.parent_id),
        (0, false, None)
    );
    assert!(all.prompts.is_empty(), "{:?}", all.prompts);
    // The sidechain's model message is a step of the (only) turn, with its tokens.
    let detail = store.load_session(&all.id).unwrap();
    assert_eq!(detail.turns.len(), 1);
    let steps = &detail.turns[0].steps;
    assert!(
        steps.iter().any(
            |st| (st.tokens.input, st.tokens.output) == (side.tokens.input, side.tokens.output)
        ),
        "{steps:#?}"
    );
}

/// A compaction summary (`isCompactSummary: true`) is written as a user record but no person
/// typed it: not a prompt, whatever its text.
#[test]
fn compaction_summaries_are_not_prompts() {
    let (_tmp, store) = indexed();
    let recs = jsonl(CLAUDE_CATALOGUE);
    let summaries: Vec<String> = recs
        .iter()
        .filter(|r| r["isCompactSummary"].as_bool() == Some(true))
        .filter_map(|r| r["message"]["content"].as_str().map(str::to_string))
        .collect();
    assert!(!summaries.is_empty());
    let id = claude(CLAUDE_CATALOGUE).id;
    let detail = store.load_session(&id).unwrap();
    for text in &summaries {
        assert!(
            detail.events.iter().any(|e| e.text == *text),
            "{text} indexed"
        );
        assert!(
            !detail
                .events
                .iter()
                .any(|e| e.text == *text && e.kind == EventKind::User),
            "{text} counted as a prompt"
        );
    }
}

/// Claude Code 2.1.x writes a sub-agent as `<session>/subagents/agent-<id>.jsonl`, its records
/// naming the agent itself as `sessionId`: the parent is the session of the folder.
#[test]
fn a_subagents_folder_names_the_parent() {
    let (_tmp, store) = indexed();
    let s = store.session_summary("agent-a0ad4f44468bdf20d").unwrap();
    assert!(s.is_subagent);
    assert_eq!(
        s.parent_id.as_deref(),
        Some("0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f")
    );
    // 2.0.28's project-level sub-agent file names its parent in `sessionId`, as before.
    let recs = jsonl(CLAUDE[1]);
    let named = text(&recs[0], "sessionId").unwrap();
    let s = store.session_summary(&claude(CLAUDE[1]).id).unwrap();
    assert_eq!((s.is_subagent, s.parent_id), (true, Some(named)));
}

/// A Codex 0.146 rollout holding several `session_meta` records (sub-agent and fork metadata
/// written into it) is the session of its first one.
#[test]
fn the_first_session_meta_names_a_codex_session() {
    let (_tmp, store) = indexed();
    let recs = jsonl(CODEX_146);
    let metas: Vec<&Value> = recs
        .iter()
        .filter(|r| r["type"] == "session_meta")
        .collect();
    assert!(metas.len() > 1);
    let first = text(&metas[0]["payload"], "id").unwrap();
    let s = store.session_summary(&first).unwrap();
    assert_eq!((s.is_subagent, s.parent_id.as_deref()), (false, None));
    // Its tokens: one request, then a zeroed count (a reset, not a negative request); the
    // cache writes are read.
    let want = codex_cumulative(&recs);
    assert!(want.input > 0);
    check_tokens(
        &store,
        &Expected {
            id: first,
            tokens: want,
            prompts: Vec::new(),
        },
    );
    let every = agtrace_tools::index::SessionFilter {
        include_subagents: true,
        ..Default::default()
    };
    let listed = store.list_sessions(&every, None, 100).unwrap();
    assert!(listed.next.is_none());
    for later in &metas[1..] {
        let id = text(&later["payload"], "id").unwrap();
        assert!(
            listed.sessions.iter().all(|s| s.id != id),
            "a later session_meta named a session: {id}"
        );
    }
}

/// A Codex fork links to the session it copied (`parent_id`, not a sub-agent) and counts only
/// its own work: the copied `token_count`s (cumulative: the fork's own continue from them) and
/// the copied prompts are not its own.
#[test]
fn a_codex_fork_counts_only_its_own_work() {
    let (_tmp, store) = indexed();
    let e = codex(FORK);
    let recs = jsonl(FORK);
    let parent = text(&recs[0]["payload"], "forked_from_id").unwrap();
    let s = store.session_summary(&e.id).unwrap();
    assert_eq!(
        (s.is_subagent, s.parent_id.as_deref()),
        (false, Some(parent.as_str()))
    );
    // Far below the last cumulative total the file holds, which includes the parent's.
    let last = codex_cumulative(&recs);
    assert!(e.tokens.total > 0 && e.tokens.total < last.total);
    check_tokens(&store, &e);
    assert_eq!(s.prompt_count as usize, e.prompts.len());
    assert_eq!(e.prompts.len(), 1);
    // The parent still has all of its own.
    check_tokens(&store, &codex(CODEX[0]));
    // A fork is no sub-agent of its parent.
    let detail = store.load_session(&parent).unwrap();
    assert!(!detail.children.contains(&e.id), "{:?}", detail.children);
}

/// The tools answer the same numbers, in the providers' own terms: `get_session_summary` through
/// MCP gives each compared session's tokens, cache writes included, and tells a fork from a
/// sub-agent.
#[tokio::test]
async fn session_summaries_answer_the_raw_token_counts() {
    let (_tmp, store) = indexed();
    let server = agtrace_tools::server::build(store.clone()).unwrap();
    let client = mcp_tool::testing::TestClient::in_process(&server).await;
    let mut all = expected();
    all.push(claude(SIDECHAINS));
    assert!(all.iter().any(|e| e.tokens.cache_creation > 0));
    assert!(all.iter().any(|e| e.tokens.reasoning > 0));
    for e in &all {
        let answer = client
            .call(
                "get_session_summary",
                serde_json::json!({"session_id": e.id}),
            )
            .await;
        let t = &answer.expect_ok()["tokens"];
        let got = Tokens {
            input: num(t, "input"),
            cached: num(t, "cached_input"),
            cache_creation: num(t, "cache_creation_input"),
            output: num(t, "output"),
            reasoning: num(t, "reasoning_output"),
            total: num(t, "total"),
        };
        assert_eq!(got, e.tokens, "{}", e.id);
    }
    let fork = codex(FORK).id;
    let answer = client
        .call(
            "get_session_summary",
            serde_json::json!({"session_id": fork}),
        )
        .await;
    let d = answer.expect_ok();
    assert_eq!(d["parent_session_id"], CODEX_ID_066);
    assert_eq!(d["is_subagent"], false);
    let answer = client
        .call(
            "get_session_summary",
            serde_json::json!({"session_id": CODEX_ID_066}),
        )
        .await;
    assert_eq!(
        answer.expect_ok()["subagent_session_ids"],
        serde_json::json!([])
    );
}

const CODEX_ID_066: &str = "019b04ae-b1c6-7c72-a134-a4c2de66058c";
