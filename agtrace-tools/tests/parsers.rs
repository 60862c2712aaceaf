//! Parsers, token accounting and assembly on the real upstream samples.

use std::path::PathBuf;

use agtrace_tools::model::assemble;
use agtrace_tools::model::{EventKind, Provider};
use agtrace_tools::providers::parse_file;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/fixtures/agtrace-upstream")
        .join(name)
}

fn session_tokens(events: &[agtrace_tools::model::Event]) -> agtrace_tools::model::TokenUsage {
    let mut acc = agtrace_tools::model::TokenAccumulator::default();
    for e in events {
        if let Some(t) = &e.tokens {
            acc.push(t, e.message_id.as_deref());
        }
    }
    acc.total()
}

#[test]
fn claude_main_request_input_is_the_sum_of_three_fields_and_streamed_usage_counts_once() {
    let (state, events) =
        parse_file(Provider::ClaudeCode, &fixture("claude_session.jsonl"), true).unwrap();
    assert_eq!(state.malformed, 0);
    assert_eq!(state.meta.session_id, "claude_session");
    assert_eq!(
        state.meta.cwd.as_deref(),
        Some("/Users/test_user/agent-sample")
    );
    let turns = assemble(&events);
    assert_eq!(
        turns.len(),
        2,
        "two prompts; /exit and caveats are not prompts"
    );
    let first = &turns[0].steps[0];
    assert_eq!(first.tokens.input, 16_038);
    assert_eq!(first.tokens.cached_input, 12_135);
    assert_eq!(first.tokens.cache_creation_input, 3_893);
    assert_eq!(
        first.tokens.output, 436,
        "last streamed usage of msg_01Rc..., counted once"
    );
    // Six model messages; each message's usage counted once with its final output.
    let t = session_tokens(&events);
    assert_eq!(t.output, 436 + 126 + 112 + 123 + 1 + 46);
    assert_eq!(
        t.input,
        16_038
            + (14 + 458 + 16028)
            + (13 + 169 + 16486)
            + (10 + 333 + 16028)
            + (14 + 154 + 16361)
            + (13 + 151 + 16515)
    );
    assert_eq!(t.total, t.input + t.output);
    let turn_sum: u64 = turns.iter().map(|t| t.tokens.total).sum();
    assert_eq!(turn_sum, t.total);
    // Tool calls paired with results by id; the failed one is marked.
    let calls: Vec<_> = turns
        .iter()
        .flat_map(|t| &t.steps)
        .flat_map(|s| &s.tool_calls)
        .collect();
    assert_eq!(calls.len(), 4);
    assert!(calls.iter().all(|c| c.result_event.is_some()));
    assert_eq!(calls.iter().filter(|c| c.is_error).count(), 1);
    assert!(calls.iter().all(|c| c.duration_ms.is_some_and(|d| d >= 0)));
    assert_eq!(turns[1].failed_tool_calls, 1);
    assert_eq!(turns[1].steps.len(), 3);
    assert!(events.iter().all(|e| !e.raw.is_null()));
    assert_eq!(
        events
            .iter()
            .enumerate()
            .filter(|(i, e)| e.index as usize != *i)
            .count(),
        0
    );
}

#[test]
fn claude_sidechain_file_is_a_subagent_of_its_session() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("agent-0c4c3cf8.jsonl");
    std::fs::copy(fixture("claude_agent.jsonl"), &p).unwrap();
    let (state, events) = parse_file(Provider::ClaudeCode, &p, false).unwrap();
    assert!(state.meta.is_subagent);
    assert_eq!(state.meta.session_id, "agent-0c4c3cf8");
    assert_eq!(
        state.meta.parent_id.as_deref(),
        Some("7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9")
    );
    assert_eq!(events[0].kind, EventKind::User);
    assert_eq!(events[0].text, "Warmup");
}

#[test]
fn codex_output_already_contains_reasoning() {
    let (state, events) =
        parse_file(Provider::Codex, &fixture("codex_session.jsonl"), false).unwrap();
    assert_eq!(
        state.meta.session_id,
        "019b04ae-b1c6-7c72-a134-a4c2de66058c"
    );
    let first = events
        .iter()
        .find(|e| e.kind == EventKind::TokenUsage)
        .unwrap()
        .tokens
        .unwrap();
    assert_eq!(
        (
            first.input,
            first.output,
            first.reasoning_output,
            first.total
        ),
        (3505, 101, 64, 3606)
    );
    assert_eq!(first.cached_input, 3072);
    // Repeated token_count records are counted once: the sum equals Codex's own running total.
    let t = session_tokens(&events);
    assert_eq!(
        (t.input, t.output, t.reasoning_output, t.total),
        (26_740, 408, 128, 27_148)
    );
    // Environment block is not a prompt; event_msg duplicates are not counted.
    assert_eq!(
        events.iter().filter(|e| e.kind == EventKind::User).count(),
        2
    );
    assert_eq!(
        events
            .iter()
            .filter(|e| e.kind == EventKind::Message)
            .count(),
        2
    );
    let turns = assemble(&events);
    assert_eq!(turns.len(), 2);
    assert_eq!(
        turns[0].prompt.as_deref(),
        Some("add myapp directory and create myapp/hoge.py which shows result of print(1+1).")
    );
    assert_eq!(turns[0].tokens.total, 3606 + 3751 + 3841);
    let calls: Vec<_> = turns[1].steps.iter().flat_map(|s| &s.tool_calls).collect();
    assert_eq!(calls.len(), 3);
    assert_eq!(
        calls.iter().map(|c| c.is_error).collect::<Vec<_>>(),
        vec![true, true, false],
        "exit codes 1, 1, 0"
    );
    assert_eq!(turns.iter().map(|t| t.tokens.total).sum::<u64>(), t.total);
    assert_eq!(state.meta.model.as_deref(), Some("gpt-5.1-codex-max"));
    // Codex names the model once per turn (`turn_context`); every generated event carries it.
    let generated: Vec<_> = events.iter().filter(|e| e.kind.is_generated()).collect();
    assert!(generated.len() > 5);
    for e in generated {
        assert_eq!(
            e.model.as_deref(),
            Some("gpt-5.1-codex-max"),
            "event {} ({:?})",
            e.index,
            e.kind
        );
    }
    assert!(steps_of(&turns).all(|s| s.model.as_deref() == Some("gpt-5.1-codex-max")));
}

fn steps_of(
    turns: &[agtrace_tools::model::Turn],
) -> impl Iterator<Item = &agtrace_tools::model::Step> {
    turns.iter().flat_map(|t| &t.steps)
}

#[test]
fn codex_subagents_and_event_msg_only_files() {
    let (parent, events) = parse_file(
        Provider::Codex,
        &fixture("codex_parent_with_spawns.jsonl"),
        false,
    )
    .unwrap();
    assert_eq!(parent.meta.spawn_ms.len(), 2);
    assert_eq!(
        events.iter().filter(|e| e.kind == EventKind::User).count(),
        2,
        "event_msg prompts kept when there are no response items"
    );
    let (sub, _) = parse_file(
        Provider::Codex,
        &fixture("codex_subagent_matched.jsonl"),
        false,
    )
    .unwrap();
    assert!(sub.meta.is_subagent);
    assert_eq!(sub.meta.session_id, "subagent-matched-001");
}

#[test]
fn gemini_input_already_contains_cached() {
    let (state, events) =
        parse_file(Provider::Gemini, &fixture("gemini_session.json"), true).unwrap();
    assert_eq!(
        state.meta.session_id,
        "f0a689a6-b0ac-407f-afcc-4fafa9e14e8a"
    );
    let first = events
        .iter()
        .find(|e| e.kind == EventKind::TokenUsage)
        .unwrap()
        .tokens
        .unwrap();
    assert_eq!(
        (
            first.input,
            first.cached_input,
            first.output,
            first.reasoning_output,
            first.total
        ),
        (13_629, 6_979, 138, 86, 13_767)
    );
    let turns = assemble(&events);
    assert_eq!(turns.len(), 2);
    // Each gemini message is one step, its tool calls paired with their results.
    assert_eq!(turns[0].steps.len(), 4);
    assert!(
        turns[0]
            .steps
            .iter()
            .flat_map(|s| &s.tool_calls)
            .all(|c| c.result_event.is_some())
    );
    // "Exit Code: 1" in a shell result is a failure even though Gemini's status says success.
    assert_eq!(turns[1].failed_tool_calls, 1);
    let t = session_tokens(&events);
    assert_eq!(
        t.total,
        13_767 + 6_290 + 6_373 + 6_460 + 21_579 + 6_748 + 6_733
    );
}

#[test]
fn malformed_and_half_written_lines() {
    let src = std::fs::read_to_string(fixture("codex_session.jsonl")).unwrap();
    let lines: Vec<&str> = src.lines().collect();
    let mut text = String::new();
    text.push_str(lines[0]);
    text.push_str("\n{not json at all\n");
    text.push_str("[1,2,3]\n");
    for l in &lines[1..] {
        text.push_str(l);
        text.push('\n');
    }
    let full_len = text.len();
    text.push_str(&lines[5][..40]); // half-written last line
    let mut state = agtrace_tools::providers::ParseState::new(
        Provider::Codex,
        &agtrace_tools::providers::FileHint {
            session_id: "x".into(),
            ..Default::default()
        },
    );
    let chunk = agtrace_tools::providers::parse_jsonl(&mut state, text.as_bytes(), 0, false);
    assert_eq!(state.malformed, 2);
    assert_eq!(
        chunk.end_offset as usize, full_len,
        "the half-written line is left for later"
    );
    let (_, clean) = parse_file(Provider::Codex, &fixture("codex_session.jsonl"), false).unwrap();
    assert_eq!(chunk.events.len(), clean.len(), "no other line lost");
}

#[test]
fn a_claude_interrupt_record_does_not_start_a_turn() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    let lines = [
        r#"{"type":"user","sessionId":"s","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"fix the build"}}"#,
        r#"{"type":"assistant","sessionId":"s","timestamp":"2026-01-01T00:00:01Z","message":{"id":"m1","model":"claude-x","role":"assistant","content":[{"type":"text","text":"on it"}]}}"#,
        r#"{"type":"user","sessionId":"s","timestamp":"2026-01-01T00:00:02Z","message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user for tool use]"}]}}"#,
        r#"{"type":"assistant","sessionId":"s","timestamp":"2026-01-01T00:00:03Z","message":{"id":"m2","model":"claude-x","role":"assistant","content":[{"type":"text","text":"stopped"}]}}"#,
    ];
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let (state, events) =
        agtrace_tools::providers::parse_file(Provider::ClaudeCode, &path, false).unwrap();
    assert_eq!(state.turn_count(), 1);
    assert_eq!(state.meta.prompts, 1);
    let interrupt = events
        .iter()
        .find(|e| e.text.starts_with("[Request interrupted"))
        .unwrap();
    assert_eq!(interrupt.kind, EventKind::Notification);
}

/// A slash command that prompts the model is a turn of its own, whose prompt is the expanded
/// prompt Claude Code writes after the command (`isMeta`); a local command (`/exit`, answered
/// by the CLI with `<local-command-stdout>`) is not. Written here in the shape Claude Code's
/// own description of slash commands gives, and a public transcript export shows
/// (`<command-message>{name} is running…</command-message>` then the expanded prompt).
#[test]
fn a_claude_slash_command_that_prompts_the_model_starts_a_turn() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    let lines = [
        r#"{"type":"user","sessionId":"s","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"fix the build"}}"#,
        r#"{"type":"assistant","sessionId":"s","timestamp":"2026-01-01T00:00:01Z","message":{"id":"m1","model":"claude-x","role":"assistant","content":[{"type":"text","text":"fixed"}]}}"#,
        r#"{"type":"user","sessionId":"s","timestamp":"2026-01-01T00:01:00Z","message":{"role":"user","content":"<command-message>review is running…</command-message>\n<command-name>/review</command-name>\n<command-args>src</command-args>"}}"#,
        r#"{"type":"user","sessionId":"s","timestamp":"2026-01-01T00:01:00Z","isMeta":true,"message":{"role":"user","content":[{"type":"text","text":"Review the code in src and list its bugs."}]}}"#,
        r#"{"type":"assistant","sessionId":"s","timestamp":"2026-01-01T00:01:05Z","message":{"id":"m2","model":"claude-x","role":"assistant","content":[{"type":"text","text":"two bugs"}]}}"#,
        r#"{"type":"user","sessionId":"s","timestamp":"2026-01-01T00:02:00Z","isMeta":true,"message":{"role":"user","content":"Caveat: The messages below were generated by the user while running local commands. DO NOT respond to these messages or otherwise consider them in your response unless the user explicitly asks you to."}}"#,
        r#"{"type":"user","sessionId":"s","timestamp":"2026-01-01T00:02:00Z","message":{"role":"user","content":"<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>"}}"#,
        r#"{"type":"user","sessionId":"s","timestamp":"2026-01-01T00:02:01Z","message":{"role":"user","content":"<local-command-stdout>Set model to claude-x</local-command-stdout>"}}"#,
        r#"{"type":"user","sessionId":"s","timestamp":"2026-01-01T00:02:02Z","isMeta":true,"message":{"role":"user","content":[{"type":"text","text":"<system-reminder>context</system-reminder>"}]}}"#,
    ];
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let (state, events) =
        agtrace_tools::providers::parse_file(Provider::ClaudeCode, &path, false).unwrap();
    let turns = assemble(&events);
    let prompts: Vec<Option<&str>> = turns.iter().map(|t| t.prompt.as_deref()).collect();
    assert_eq!(
        prompts,
        [
            Some("fix the build"),
            Some("Review the code in src and list its bugs.")
        ]
    );
    assert_eq!(state.meta.prompts, 2);
    let answer = events.iter().position(|e| e.text == "two bugs").unwrap() as u32;
    assert!(
        turns[1].events.contains(&answer),
        "the command's answer is in its turn"
    );
    // A meta record after a local command's output is no prompt.
    let reminder = events
        .iter()
        .find(|e| e.text.contains("<system-reminder>"))
        .unwrap();
    assert_eq!(reminder.kind, EventKind::Notification);
}

/// The same on a real log: Claude Code 2.1.330 running a custom slash command in print mode
/// (`claude -p "/shapecmd alpha"`, against the project's stand-in model).
#[test]
fn a_real_claude_slash_command_is_a_turn_with_its_expanded_prompt() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(
        "tests/real_logs/agents/claude-slash/projects/-tmp-agtrace-slash/34a01172-7ad0-4555-94be-a6432609194c.jsonl",
    );
    let (state, events) = parse_file(Provider::ClaudeCode, &path, false).unwrap();
    let turns = assemble(&events);
    assert_eq!(turns.len(), 1);
    assert_eq!(state.meta.prompts, 1);
    let prompt = turns[0].prompt.as_deref().unwrap();
    assert!(
        prompt.starts_with("prmclaudec1kiwi: run the command scenario with alpha."),
        "{prompt}"
    );
    let calls = turns[0]
        .events
        .iter()
        .filter(|&&i| events[i as usize].kind == EventKind::ToolCall)
        .count();
    assert_eq!(calls, 1);
    let answer = events
        .iter()
        .position(|e| e.text == "finclaudec1owl: done")
        .unwrap() as u32;
    assert!(turns[0].events.contains(&answer));
}
