//! Resumed, continued and forked sessions, and failures an agent records as completed (issue
//! 27), on the small logs in `tests/real_logs/resume/` (written here in the shapes
//! `docs/providers/*.md` describe; see `SOURCES.md`): exact token totals, tool calls and
//! failures, session ids and turns.
//!
//! Each log set is copied to a temp dir first, so the test can give the files the modification
//! times the agents leave them with (the index reads files oldest first).

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use agtrace_tools::config::Config;
use agtrace_tools::index::{SearchQuery, SessionFilter, SkipReason};
use agtrace_tools::model::Provider;
use agtrace_tools::providers::parse_file;
use agtrace_tools::store::TraceStore;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/real_logs/resume")
}

/// The fixture tree copied to a temp dir, each file in `mtimes` (path below the tree, seconds
/// after an hour ago) given that modification time.
fn copied(mtimes: &[(&str, u64)]) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let logs = tmp.path().join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    common::copy_tree(&fixtures(), &logs);
    let base = SystemTime::now() - Duration::from_secs(3600);
    for (rel, secs) in mtimes {
        let f = std::fs::File::options()
            .write(true)
            .open(logs.join(rel))
            .unwrap();
        f.set_modified(base + Duration::from_secs(*secs)).unwrap();
    }
    (tmp, logs)
}

fn indexed(logs: &Path, data: &Path) -> (TraceStore, agtrace_tools::index::IndexStats) {
    let store = TraceStore::open(Config::for_tree(logs, data)).unwrap();
    let stats = store.refresh().unwrap();
    assert_eq!(stats.malformed_lines, 0, "{:?}", stats.notes);
    (store, stats)
}

fn sessions(store: &TraceStore, p: Provider) -> Vec<agtrace_tools::index::SessionSummary> {
    let filter = SessionFilter {
        provider: Some(p),
        include_subagents: true,
        ..Default::default()
    };
    store.list_sessions(&filter, None, 100).unwrap().sessions
}

const GEMINI_SID: &str = "7a1b2c3d-0027-4000-8000-000000000027";
const GEMINI_CHATS: &str =
    "gemini/tmp/2c0ffee0000000000000000000000000000000000000000000000000000000a7/chats";

/// A Gemini session resumed in a later minute: the session's own file goes on after a `$set`
/// checkpoint whose copies of the first run's model messages carry no tokens, tool calls or
/// model; the stub beside it holds only a header and that checkpoint.
#[test]
fn gemini_resume_keeps_the_first_run_and_the_stub_takes_no_session() {
    let main = format!("{GEMINI_CHATS}/session-2026-11-02T10-00-7a1b2c3d.jsonl");
    let stub = format!("{GEMINI_CHATS}/session-2026-11-02T10-05-7a1b2c3d.jsonl");

    // Before: 1 tool call and 2,000 + 2,500 input (the run after the resume only).
    let (state, events) = parse_file(Provider::Gemini, &fixtures().join(&main), false).unwrap();
    let t = state.tokens.total();
    assert_eq!(state.meta.session_id, GEMINI_SID);
    assert_eq!(state.meta.tool_calls, 2);
    assert_eq!(t.input, 1000 + 1500 + 2000 + 2500);
    assert_eq!(t.cached_input, 200 + 800 + 1500 + 1900);
    assert_eq!(t.output, (50 + 10) + 20 + 30 + 15);
    assert_eq!(state.turn_count(), 2);
    assert_eq!(state.meta.model.as_deref(), Some("gemini-2.5-pro"));
    assert!(events.iter().any(|e| e.text.contains("QUOKKA-FIRST-RUN")));

    // The stub alone: a replay, no session.
    let (stub_state, stub_events) =
        parse_file(Provider::Gemini, &fixtures().join(&stub), false).unwrap();
    assert!(stub_state.meta.replay_only);
    assert!(stub_events.is_empty());

    // Indexed, the stub older than the session's file (which the CLI goes on writing): before,
    // the stub took the id and the conversation was listed as `<id>~<hash>`.
    let (tmp, logs) = copied(&[(&stub, 10), (&main, 20)]);
    let (store, stats) = indexed(&logs, &tmp.path().join("data"));
    let listed = sessions(&store, Provider::Gemini);
    assert_eq!(
        listed.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(),
        [GEMINI_SID]
    );
    let s = &listed[0];
    assert!(s.path.ends_with("session-2026-11-02T10-00-7a1b2c3d.jsonl"));
    assert_eq!((s.tool_calls, s.tool_errors, s.turn_count), (2, 0, 2));
    assert_eq!((s.tokens.input, s.tokens.output), (7000, 125));
    assert!(
        stats.skipped.iter().any(
            |k| k.path.ends_with("session-2026-11-02T10-05-7a1b2c3d.jsonl")
                && k.reason == SkipReason::Replay
        ),
        "{:?}",
        stats.skipped
    );
    // The first run's tool output is searchable again.
    let page = store
        .search(&SearchQuery {
            text: "QUOKKA-FIRST-RUN".into(),
            limit: 10,
            ..Default::default()
        })
        .unwrap();
    assert!(
        !page.hits.is_empty() && page.hits.iter().all(|h| h.session_id == GEMINI_SID),
        "{:?}",
        page.hits
    );
}

const COPILOT_RUNS: &str = "c0b1f0a7-0027-4000-8000-000000000001";
const COPILOT_RECORDS: &str = "c0b1f0a7-0027-4000-8000-000000000002";

fn copilot_file(id: &str) -> PathBuf {
    fixtures().join(format!("copilot/session-state/{id}/events.jsonl"))
}

/// A Copilot session resumed twice: each `session.shutdown` gives the session's totals so far
/// (9,150, then 23,760, then 26,580 input; 200, 480, 714 output). Before, they were summed:
/// 59,490 input and 1,394 output. And a shell call the CLI completed (`success: true`) with
/// `shellExecution.exitCode: 2` is a failure (before: 0 failures).
#[test]
fn copilot_shutdown_totals_are_cumulative_over_resumed_runs() {
    let (state, _) = parse_file(Provider::CopilotCli, &copilot_file(COPILOT_RUNS), false).unwrap();
    let t = state.tokens.total();
    assert_eq!(state.meta.session_id, COPILOT_RUNS);
    assert_eq!(
        (t.input, t.cached_input, t.output, t.total),
        (26_580, 21_000, 714, 26_580 + 714)
    );
    assert_eq!((state.meta.tool_calls, state.meta.tool_errors), (2, 1));
    assert_eq!((state.meta.prompts, state.turn_count()), (3, 3));
}

/// Per-request `session.usage_record`s are preferred: the messages' `outputTokens` they repeat
/// and the cumulative shutdowns add nothing more (before: 19,000 input and 270 output, the
/// records unread and the two shutdowns summed; now 3,000 + 4,000 + 5,000 and 40 + 60 + 70).
#[test]
fn copilot_usage_records_count_each_request_once() {
    let (state, _) =
        parse_file(Provider::CopilotCli, &copilot_file(COPILOT_RECORDS), false).unwrap();
    let t = state.tokens.total();
    assert_eq!(
        (t.input, t.cached_input, t.output),
        (12_000, 2_900 + 3_900, 170)
    );
    assert_eq!((state.meta.tool_calls, state.meta.tool_errors), (1, 0));
    assert_eq!(state.turn_count(), 2);
}

/// Shell commands that exit non-zero while the agent records the call as completed are failed
/// tool calls: Codex's unified exec output ("Process exited with code 2") and an `exit_code`
/// field (before: 0 of 3 failed; now 2, both in the one turn), OpenCode's `metadata.exit: 2`
/// (before: 0 of 2; now 1). Copilot's `shellExecution.exitCode` is in the test above.
#[test]
fn shell_commands_that_exit_non_zero_are_failed_calls() {
    let codex = fixtures().join(
        "codex/sessions/2026/11/04/rollout-2026-11-04T08-00-00-019e0000-0027-7000-8000-000000000001.jsonl",
    );
    let (state, events) = parse_file(Provider::Codex, &codex, false).unwrap();
    assert_eq!((state.meta.tool_calls, state.meta.tool_errors), (3, 2));
    let turns = agtrace_tools::model::assemble(&events);
    assert_eq!(turns.len(), 1);
    assert_eq!(turns[0].failed_tool_calls, 2);
    assert_eq!(state.tokens.total().input, 3000);

    let (tmp, logs) = copied(&[]);
    let (store, _) = indexed(&logs, &tmp.path().join("data"));
    let s = store.session_summary("ses_exit_0027").unwrap();
    assert_eq!((s.tool_calls, s.tool_errors, s.turn_count), (2, 1, 1));
    let s = store.session_summary(COPILOT_RUNS).unwrap();
    assert_eq!((s.tool_calls, s.tool_errors), (2, 1));
}

/// `agtrace --help` names every agent it reads (it named three of the six).
#[test]
fn help_names_all_six_agents() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_agtrace"))
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    for p in Provider::ALL {
        assert!(help.contains(p.spec().title), "{}: {help}", p.spec().title);
    }
}

/// A real Codex CLI 0.169.0 fork (`codex exec fork PARENT PROMPT`, run against the project's
/// stand-in model; `tests/real_logs/agents/codex-fork/`): the fork's rollout copies none of the
/// parent's records, but its `token_count` totals go on from the parent's (3,006 input after
/// its first request of 1,003). Its own requests are counted, with or without the parent's
/// file beside it: the stand-in reported 1,003 + 1,004 + 1,005 input (203 + 204 + 205 cached)
/// and 53 + 54 + 55 output for the fork, 1,001 + 1,002 input for the parent.
#[test]
fn a_real_codex_fork_counts_its_own_requests_with_or_without_its_parent() {
    const PARENT: &str = "01a22176-65d2-7423-a69f-1b3ed409ad02";
    const FORK: &str = "01a22176-677d-73c2-be1a-485b2cf596ba";
    let real = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/real_logs/agents/codex-fork/sessions");
    for with_parent in [true, false] {
        let tmp = tempfile::tempdir().unwrap();
        let sessions_dir = tmp.path().join("logs/codex/sessions");
        std::fs::create_dir_all(&sessions_dir).unwrap();
        common::copy_tree(&real, &sessions_dir);
        if !with_parent {
            let day = sessions_dir.join("2026/11/28");
            std::fs::remove_file(day.join(format!("rollout-2026-11-28T09-22-17-{PARENT}.jsonl")))
                .unwrap();
        }
        for p in Provider::ALL {
            std::fs::create_dir_all(tmp.path().join("logs").join(p.spec().tree_root)).unwrap();
        }
        let (store, _) = indexed(&tmp.path().join("logs"), &tmp.path().join("data"));
        let listed = sessions(&store, Provider::Codex);
        let fork = listed.iter().find(|s| s.id == FORK).unwrap();
        assert_eq!(
            (
                fork.tokens.input,
                fork.tokens.cached_input,
                fork.tokens.output
            ),
            (1003 + 1004 + 1005, 203 + 204 + 205, 53 + 54 + 55),
            "with_parent: {with_parent}"
        );
        assert_eq!(
            (fork.tool_calls, fork.tool_errors, fork.turn_count),
            (2, 1, 1)
        );
        assert_eq!(fork.parent_id.as_deref(), Some(PARENT));
        let parent = listed.iter().find(|s| s.id == PARENT);
        assert_eq!(parent.is_some(), with_parent);
        if let Some(p) = parent {
            assert_eq!((p.tokens.input, p.tokens.output), (1001 + 1002, 51 + 52));
        }
    }
}
