//! Codex CLI rollout records (`{timestamp, type, payload}`). See `docs/providers/codex.md`.
//!
//! Resume, continue and fork: `codex resume` appends to the session's own rollout (one file,
//! its id). A fork is a new rollout naming its parent (`forked_from_id`) that begins with a copy
//! of the parent's records, `token_count`s included: the copy is skipped (`ForkCopy`) and
//! counted once, in the parent. `total_token_usage` is cumulative, so each request's
//! `last_token_usage` is counted. A shell command that exits non-zero is recorded as a
//! completed call; its exit code (in the output or an `exit_code` field) makes it a failure.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::spec::{Layout, ProviderSpec, file_name, file_stem};
use super::{
    EXIT_CODE_LINES, FileHint, ParseState, exit_code_in_text, flatten_text, str_field, u64_field,
};
use crate::model::TokenUsage;
use crate::model::{Event, EventKind};

/// Codex CLI: `~/.codex/sessions/YYYY/MM/DD/rollout-<timestamp>-<uuid>.jsonl`.
pub static SPEC: ProviderSpec = ProviderSpec {
    title: "Codex CLI",
    home_root: ".codex/sessions",
    env: "AGTRACE_CODEX_DIR",
    flag: "codex-dir",
    tree_root: "codex/sessions",
    is_log: |path| {
        let name = file_name(path);
        name.starts_with("rollout-") && name.ends_with(".jsonl")
    },
    hint,
    lines: Some(record),
    document: None,
    document_record: None,
    journal: None,
    links_by_spawn_time: true,
    resume_context: Some(|st, file, offset| st.states.codex.model = model_before(file, offset)),
    store: None,
};

fn hint(path: &Path) -> FileHint {
    FileHint {
        session_id: file_stem(path),
        is_subagent: false,
        parent_id: None,
        layout: Layout::Lines,
    }
}

/// What a Codex parse carries from one line to the next.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Once a `response_item` was seen, `event_msg` user/agent messages are duplicates.
    seen_response_items: bool,
    last_total: Option<TokenUsage>,
    /// The model of the last `turn_context`: Codex names it once per turn, not per item.
    model: Option<String>,
    /// A `session_meta` has named the session: later ones (a fork's copied parent header,
    /// sub-agent metadata written into the parent's file) do not rename it.
    #[serde(default)]
    named: bool,
    /// The records being read are the parent's history a fork copied into its own file.
    #[serde(default)]
    fork: Option<ForkCopy>,
}

/// A fork's copy of its parent's history, being read.
///
/// Codex writes a fork (`codex fork`, the TUI's backtrack, a sub-agent spawned with the
/// parent's context) as a new rollout whose first record is the fork's own `session_meta`
/// (`forked_from_id` = the parent), followed by the parent's rollout records copied as they were
/// (from the parent's `session_meta` on, cut before the message the fork starts from; see
/// `persist_rollout_items` for `InitialHistory::Forked` in codex-rs), then the fork's own turns.
/// Nothing marks the end of the copy, so the fork's first own turn is recognised by its start:
/// a `turn_context` or `task_started` whose `turn_id`, a UUID v7, was made after the fork's own
/// id (also a v7); where either id is not a v7 (older versions, and for user messages, which
/// carry none), a turn start or user message written at least [`COPY_BURST_MS`] after the
/// fork's `session_meta` (the copy is written in one burst when the fork is made, with the
/// parent's earlier timestamps or that moment's).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct ForkCopy {
    /// Creation time of the fork's id, when it is a UUID v7.
    id_ms: Option<i64>,
    /// Timestamp of the fork's `session_meta` record.
    meta_ms: Option<i64>,
}

/// User-role blocks Codex injects before the person's prompt.
fn is_injected_context(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with("<environment_context>")
        || t.starts_with("<user_instructions>")
        || t.starts_with("# AGENTS.md instructions")
        || t.starts_with("<permissions instructions>")
}

pub(crate) fn record(st: &mut ParseState, v: &Value, out: &mut Vec<Event>) {
    let payload = v.get("payload").unwrap_or(&Value::Null);
    let ptype = str_field(payload, "type").unwrap_or("");
    if st.states.codex.fork.is_some() && !starts_own_turn(st, v, payload, ptype) {
        skip_copied(st, v, payload, ptype);
        return;
    }
    st.states.codex.fork = None;
    let first_new = out.len();
    match str_field(v, "type").unwrap_or("") {
        "session_meta" => session_meta(st, payload, out),
        "turn_context" => {
            if let Some(m) = str_field(payload, "model") {
                st.states.codex.model = Some(m.to_string());
                out.push(Event::new(
                    EventKind::Notification,
                    format!("turn_context model={m}"),
                ));
            } else {
                out.push(Event::new(EventKind::Notification, "turn_context"));
            }
        }
        "response_item" => {
            st.states.codex.seen_response_items = true;
            response_item(ptype, payload, out);
        }
        "event_msg" => event_msg(st, ptype, payload, out),
        "compacted" => out.push(Event::new(
            EventKind::Notification,
            str_field(payload, "message").unwrap_or("compacted"),
        )),
        "" => out.push(Event::new(EventKind::Notification, "unknown record")),
        other => out.push(Event::new(EventKind::Notification, other)),
    }
    for ev in &mut out[first_new..] {
        if ev.model.is_none() && ev.kind.is_generated() {
            ev.model.clone_from(&st.states.codex.model);
        }
    }
}

/// The model in effect at byte `offset` of a rollout: that of the last `turn_context` before
/// it. Read backwards in blocks, so it costs about one turn of the file, not the whole prefix.
pub(crate) fn model_before(file: &mut (impl Read + Seek), offset: u64) -> Option<String> {
    const BLOCK: u64 = 64 << 10;
    const TAG: &[u8] = b"turn_context";
    let mut end = offset;
    // Bytes after the block just read, up to the first newline of what was read before.
    let mut carry: Vec<u8> = Vec::new();
    while end > 0 {
        let start = end.saturating_sub(BLOCK);
        let mut buf = vec![0u8; (end - start) as usize];
        file.seek(SeekFrom::Start(start)).ok()?;
        file.read_exact(&mut buf).ok()?;
        buf.extend_from_slice(&carry);
        // The part before the first newline may be the tail of a line that starts earlier.
        let whole_from = if start == 0 {
            0
        } else {
            buf.iter()
                .position(|b| *b == b'\n')
                .map_or(buf.len(), |i| i + 1)
        };
        for line in buf[whole_from..].rsplit(|b| *b == b'\n') {
            if !line.windows(TAG.len()).any(|w| w == TAG) {
                continue;
            }
            let Ok(v) = serde_json::from_slice::<Value>(line) else {
                continue;
            };
            if str_field(&v, "type") == Some("turn_context")
                && let Some(m) = v.get("payload").and_then(|p| str_field(p, "model"))
            {
                return Some(m.to_string());
            }
        }
        buf.truncate(whole_from);
        carry = buf;
        end = start;
    }
    None
}

/// Whether record `v`, read inside a fork's copied history, is the start of the fork's first
/// own turn (see [`ForkCopy`]).
fn starts_own_turn(st: &ParseState, v: &Value, p: &Value, ptype: &str) -> bool {
    let Some(fork) = &st.states.codex.fork else {
        return true;
    };
    let turn_start = match str_field(v, "type") {
        Some("turn_context") => true,
        Some("event_msg") => matches!(ptype, "task_started" | "user_message"),
        Some("response_item") => ptype == "message" && str_field(p, "role") == Some("user"),
        _ => false,
    };
    if !turn_start {
        return false;
    }
    match (fork.id_ms, str_field(p, "turn_id").and_then(uuid_v7_ms)) {
        (Some(fork_ms), Some(turn_ms)) => turn_ms >= fork_ms,
        _ => match (fork.meta_ms, st.record_ms) {
            (Some(meta), Some(now)) => now >= meta + COPY_BURST_MS,
            _ => false,
        },
    }
}

/// How long after the fork's `session_meta` Codex may still be writing the copy: a turn start
/// without a v7 `turn_id` written within it is taken for a copied one.
const COPY_BURST_MS: i64 = 1000;

/// Reads a record of a fork's copied history without counting it: only the cumulative token
/// total (the fork's own `token_count`s continue from the parent's) and the model in effect are
/// kept.
fn skip_copied(st: &mut ParseState, v: &Value, p: &Value, ptype: &str) {
    let codex = &mut st.states.codex;
    match str_field(v, "type") {
        Some("turn_context") => {
            if let Some(m) = str_field(p, "model") {
                codex.model = Some(m.to_string());
            }
        }
        Some("event_msg") if ptype == "token_count" => {
            if let Some(total) = p
                .get("info")
                .and_then(|i| i.get("total_token_usage"))
                .filter(|u| u.is_object())
            {
                codex.last_total = Some(token_usage(total));
            }
        }
        Some("response_item") => codex.seen_response_items = true,
        _ => {}
    }
}

/// The creation time (Unix ms) of a UUID v7, `None` for other ids.
fn uuid_v7_ms(id: &str) -> Option<i64> {
    let hex: String = id.chars().filter(|c| *c != '-').collect();
    if hex.len() != 32 || hex.as_bytes()[12] != b'7' {
        return None;
    }
    i64::from_str_radix(&hex[..12], 16).ok()
}

fn session_meta(st: &mut ParseState, p: &Value, out: &mut Vec<Event>) {
    let first = !st.states.codex.named;
    st.states.codex.named = true;
    let text = format!(
        "session_meta cwd={} cli_version={}",
        str_field(p, "cwd").unwrap_or("?"),
        str_field(p, "cli_version").unwrap_or("?")
    );
    let text = match str_field(p, "id") {
        Some(id) if !first => format!("{text} id={id}"),
        _ => text,
    };
    out.push(Event::new(EventKind::Notification, text));
    if first {
        own_session_meta(st, p, out);
    }
}

/// The first `session_meta` of a rollout: the session's own (later ones describe other threads).
fn own_session_meta(st: &mut ParseState, p: &Value, out: &mut Vec<Event>) {
    if let Some(id) = str_field(p, "id") {
        st.meta.session_id = id.to_string();
    }
    if st.meta.cwd.is_none() {
        st.meta.cwd = str_field(p, "cwd").map(str::to_string);
    }
    let spawn = p.get("source").and_then(|s| s.get("subagent"));
    if spawn.is_some() {
        st.meta.is_subagent = true;
    }
    // A sub-agent names the thread that spawned it; a fork, the session it copied (a fork
    // that is not a sub-agent is told apart by `is_subagent` being false).
    let spawned_by = spawn
        .and_then(|s| s.get("thread_spawn"))
        .and_then(|t| str_field(t, "parent_thread_id"))
        .or_else(|| str_field(p, "parent_thread_id"));
    let forked_from = str_field(p, "forked_from_id");
    if let Some(parent) = spawned_by.or(forked_from) {
        st.meta.parent_id = Some(parent.to_string());
    }
    if let Some(parent) = forked_from {
        st.states.codex.fork = Some(ForkCopy {
            id_ms: str_field(p, "id").and_then(uuid_v7_ms),
            meta_ms: st.record_ms,
        });
        out.push(Event::new(
            EventKind::Notification,
            format!(
                "forked from {parent}: the parent's history copied into this file is not counted"
            ),
        ));
    }
}

fn response_item(ptype: &str, p: &Value, out: &mut Vec<Event>) {
    match ptype {
        "message" => {
            let text = flatten_text(p.get("content").unwrap_or(&Value::Null));
            let kind = match str_field(p, "role") {
                Some("user") if !is_injected_context(&text) => EventKind::User,
                Some("assistant") => EventKind::Message,
                _ => EventKind::Notification,
            };
            out.push(Event::new(kind, text));
        }
        "reasoning" => {
            let text = flatten_text(p.get("summary").unwrap_or(&Value::Null));
            out.push(Event::new(EventKind::Reasoning, text));
        }
        "function_call" | "custom_tool_call" | "local_shell_call" | "web_search_call" => {
            let args = match p
                .get("arguments")
                .or_else(|| p.get("input"))
                .or_else(|| p.get("action"))
            {
                Some(Value::String(s)) => s.clone(),
                Some(other) => other.to_string(),
                None => String::new(),
            };
            let mut ev = Event::new(EventKind::ToolCall, args);
            ev.tool_name = Some(str_field(p, "name").unwrap_or(ptype).to_string());
            ev.call_id = str_field(p, "call_id").map(str::to_string);
            out.push(ev);
        }
        "function_call_output" | "custom_tool_call_output" => {
            let (text, exit) = tool_output(p.get("output").unwrap_or(&Value::Null));
            let mut ev = Event::new(EventKind::ToolResult, text);
            ev.call_id = str_field(p, "call_id").map(str::to_string);
            ev.is_error = exit.is_some_and(|c| c != 0);
            out.push(ev);
        }
        other => out.push(Event::new(
            EventKind::Notification,
            if other.is_empty() {
                "response_item"
            } else {
                other
            },
        )),
    }
}

/// One `token_count` usage object. Codex's input already contains the cached part and the
/// cache writes (`cache_write_input_tokens`, 0.14x on; `total_tokens` is input + output), and its
/// output already contains the reasoning part: take them as they are.
fn token_usage(u: &Value) -> TokenUsage {
    TokenUsage::new(
        u64_field(u, "input_tokens"),
        u64_field(u, "cached_input_tokens"),
        u64_field(u, "cache_write_input_tokens"),
        u64_field(u, "output_tokens"),
        u64_field(u, "reasoning_output_tokens"),
    )
}

/// The exit code a shell output's first lines report: "Exit code: N" (older versions) or
/// "Process exited with code N" (the unified exec tool of recent versions, whose call is
/// recorded as completed whatever the command's exit).
fn exit_code_of_text(text: &str) -> Option<i64> {
    exit_code_in_text(text).or_else(|| {
        text.lines().take(EXIT_CODE_LINES).find_map(|l| {
            l.trim()
                .strip_prefix("Process exited with code")
                .and_then(|rest| rest.trim().parse().ok())
        })
    })
}

/// A tool output is plain text ("Exit code: N\n..." or "Process exited with code N") or a
/// JSON string/object holding `output` and `metadata.exit_code` (or `exit_code`).
fn tool_output(out: &Value) -> (String, Option<i64>) {
    let parsed;
    let obj = match out {
        Value::String(s) if s.trim_start().starts_with('{') => {
            match serde_json::from_str::<Value>(s) {
                Ok(v) if v.is_object() => {
                    parsed = v;
                    Some(&parsed)
                }
                _ => None,
            }
        }
        Value::Object(_) => Some(out),
        _ => None,
    };
    if let Some(o) = obj {
        let text = o
            .get("output")
            .or_else(|| o.get("content"))
            .map(flatten_text)
            .unwrap_or_else(|| o.to_string());
        let exit = o
            .get("metadata")
            .and_then(|m| m.get("exit_code"))
            .and_then(Value::as_i64)
            .or_else(|| o.get("exit_code").and_then(Value::as_i64))
            .or_else(|| (o.get("success").and_then(Value::as_bool) == Some(false)).then_some(1))
            .or_else(|| exit_code_of_text(&text));
        return (text, exit);
    }
    let text = flatten_text(out);
    let exit = exit_code_of_text(&text);
    (text, exit)
}

fn event_msg(st: &mut ParseState, ptype: &str, p: &Value, out: &mut Vec<Event>) {
    match ptype {
        "token_count" => {
            let Some(info) = p.get("info").filter(|i| i.is_object()) else {
                return;
            };
            let usage = |u: Option<&Value>| u.filter(|u| u.is_object()).map(token_usage);
            let total = usage(info.get("total_token_usage"));
            let last = usage(info.get("last_token_usage"));
            // Codex repeats the same token_count after each tool output: count it once.
            if total.is_some() && total == st.states.codex.last_total {
                return;
            }
            st.states.codex.last_total = total;
            let Some(last) = last.or(total) else { return };
            let mut ev = Event::new(EventKind::TokenUsage, "");
            ev.tokens = Some(last);
            out.push(ev);
        }
        // These duplicate response items; only files without response items need them.
        "user_message" | "agent_message" | "agent_reasoning" | "agent_reasoning_raw_content" => {
            if st.states.codex.seen_response_items {
                return;
            }
            let text = str_field(p, "message")
                .or_else(|| str_field(p, "text"))
                .unwrap_or("")
                .to_string();
            let kind = match ptype {
                "user_message" if !is_injected_context(&text) => EventKind::User,
                "user_message" => EventKind::Notification,
                "agent_message" => EventKind::Message,
                _ => EventKind::Reasoning,
            };
            out.push(Event::new(kind, text));
        }
        "entered_review_mode" => {
            if let Some(ms) = st.record_ms {
                st.meta.spawn_ms.push(ms);
            }
            let detail = str_field(p, "user_facing_hint")
                .or_else(|| str_field(p, "prompt"))
                .unwrap_or("");
            out.push(Event::new(
                EventKind::Notification,
                format!("entered_review_mode {detail}")
                    .trim_end()
                    .to_string(),
            ));
        }
        other => {
            let detail = str_field(p, "message")
                .or_else(|| str_field(p, "reason"))
                .unwrap_or("");
            let text = if detail.is_empty() {
                other.to_string()
            } else {
                format!("{other}: {detail}")
            };
            let mut ev = Event::new(
                EventKind::Notification,
                if other.is_empty() {
                    "event_msg".to_string()
                } else {
                    text
                },
            );
            ev.is_error = other == "error" || other == "stream_error";
            out.push(ev);
        }
    }
}

#[cfg(test)]
mod fork_tests {
    use std::path::Path;

    use crate::model::EventKind;
    use crate::providers::{FileHint, ParseState, Provider, parse_jsonl};

    /// A UUID v7 made at `ms`.
    fn v7(ms: i64) -> String {
        let h = format!("{ms:012x}");
        format!("{}-{}-7000-8000-000000000000", &h[..8], &h[8..])
    }

    fn rec(ts: &str, ty: &str, payload: &str) -> String {
        format!(r#"{{"timestamp":"{ts}","type":"{ty}","payload":{payload}}}"#)
    }

    fn tokens(total: u64, last: u64) -> String {
        let u = |n: u64| format!(r#"{{"input_tokens":{n},"cached_input_tokens":0,"output_tokens":1,"reasoning_output_tokens":0,"total_tokens":{}}}"#, n + 1);
        format!(
            r#"{{"type":"token_count","info":{{"total_token_usage":{},"last_token_usage":{}}}}}"#,
            u(total),
            u(last)
        )
    }

    /// A newer fork (a sub-agent spawned with its parent's context starts at once): the copy
    /// keeps the parent's turn ids, and the fork's own turn, though written within a second of
    /// the fork, has a turn id younger than the fork's.
    #[test]
    fn a_forks_own_turn_is_told_from_the_copy_by_its_v7_turn_id() {
        let fork_ms = 1_780_000_000_000;
        let (parent, child) = (v7(fork_ms - 60_000), v7(fork_ms));
        let ts = "2026-05-28T20:26:40.000Z";
        let soon = "2026-05-28T20:26:40.300Z";
        let lines = [
            rec(ts, "session_meta", &format!(r#"{{"id":"{child}","forked_from_id":"{parent}","cwd":"/p"}}"#)),
            rec(ts, "session_meta", &format!(r#"{{"id":"{parent}","cwd":"/p"}}"#)),
            rec(ts, "turn_context", &format!(r#"{{"turn_id":"{}","model":"m1"}}"#, v7(fork_ms - 50_000))),
            rec(ts, "event_msg", r#"{"type":"user_message","message":"parent prompt"}"#),
            rec(ts, "event_msg", &tokens(1000, 1000)),
            rec(soon, "turn_context", &format!(r#"{{"turn_id":"{}","model":"m2"}}"#, v7(fork_ms + 200))),
            rec(soon, "event_msg", r#"{"type":"user_message","message":"child prompt"}"#),
            rec(soon, "event_msg", &tokens(1100, 100)),
        ];
        let hint = FileHint::from_path(Provider::Codex, Path::new("/s/rollout-x.jsonl"));
        let mut st = ParseState::new(Provider::Codex, &hint);
        let doc = lines.join("\n") + "\n";
        let events = parse_jsonl(&mut st, doc.as_bytes(), 0, false).events;
        assert_eq!(st.meta.session_id, child);
        assert_eq!(st.meta.parent_id.as_deref(), Some(parent.as_str()));
        assert!(!st.meta.is_subagent);
        let prompts: Vec<&str> = events
            .iter()
            .filter(|e| e.kind == EventKind::User)
            .map(|e| e.text.as_str())
            .collect();
        assert_eq!(prompts, ["child prompt"]);
        let t = st.tokens.total();
        assert_eq!((t.input, t.output), (100, 1));
    }
}

#[cfg(test)]
mod tests {
    use super::model_before;

    fn line(kind: &str, model: &str, pad: usize) -> String {
        let payload = if kind == "turn_context" {
            format!(r#"{{"model":"{model}","cwd":"/x"}}"#)
        } else {
            format!(
                r#"{{"type":"message","role":"assistant","content":[{{"type":"output_text","text":"{}"}}]}}"#,
                "y".repeat(pad)
            )
        };
        format!(
            "{{\"timestamp\":\"2025-01-01T00:00:00Z\",\"type\":\"{kind}\",\"payload\":{payload}}}\n"
        )
    }

    #[test]
    fn the_model_in_effect_is_the_last_turn_context_before_the_offset() {
        // Long lines between the contexts put them in different 64 KB blocks and make lines
        // straddle block starts.
        let mut doc = String::new();
        let mut offsets = Vec::new();
        for (turn, model) in ["m-one", "m-two", "m-three"].iter().enumerate() {
            doc.push_str(&line("turn_context", model, 0));
            for i in 0..6 {
                offsets.push((doc.len() as u64, Some(*model)));
                doc.push_str(&line("response_item", model, 30_000 + turn * 777 + i * 13));
            }
        }
        let mut file = std::io::Cursor::new(doc.into_bytes());
        assert_eq!(model_before(&mut file, 0), None);
        for (off, want) in offsets {
            assert_eq!(
                model_before(&mut file, off).as_deref(),
                want,
                "offset {off}"
            );
        }
        // A line that only mentions the word is not a turn context.
        let decoy = format!(
            "{}{}",
            line("turn_context", "real", 0),
            line("response_item", "turn_context", 10).replace("yyyyyyyyyy", "turn_context")
        );
        let len = decoy.len() as u64;
        assert_eq!(
            model_before(&mut std::io::Cursor::new(decoy.into_bytes()), len).as_deref(),
            Some("real")
        );
    }
}
