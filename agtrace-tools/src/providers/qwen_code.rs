//! Qwen Code chat records (`~/.qwen/projects/<project>/chats/<sessionId>.jsonl`), one
//! self-contained record a line: `{uuid, parentUuid, sessionId, timestamp, type, subtype, cwd,
//! message: {role, parts}, model, usageMetadata, toolCallResult, systemPayload, provenance}`.
//! `message` is a Gemini API `Content`; `type` is `user`, `assistant`, `tool_result` or
//! `system`. Sub-agents write their own transcript,
//! `projects/<project>/subagents/<parentSessionId>/agent-<agentId>.jsonl`, in the same shape
//! (`isSidechain: true`, `agentId`, and the PARENT's `sessionId`). See
//! `docs/providers/qwen-code.md`.
//!
//! Resume, continue and fork: `--continue` / `--resume` append to the session's own file (one
//! file, its `sessionId`); usage is per record uuid, never cumulative. A shell call that exits
//! non-zero fails by its result's status or the "Exit Code: N" its output starts with.

use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::spec::{Layout, ProviderSpec, file_name, file_stem};
use super::{FileHint, ParseState, exit_code_in_text, flatten_text, str_field, u64_field};
use crate::model::TokenUsage;
use crate::model::{Event, EventKind};

/// Qwen Code: `~/.qwen/projects/<project>/chats/<sessionId>.jsonl`, sub-agents in
/// `<project>/subagents/<parentSessionId>/agent-<agentId>.jsonl`.
pub static SPEC: ProviderSpec = ProviderSpec {
    title: "Qwen Code",
    home_root: ".qwen/projects",
    env: "AGTRACE_QWEN_DIR",
    flag: "qwen-dir",
    tree_root: "qwen/projects",
    is_log,
    hint,
    lines: Some(record),
    document: None,
    document_record: None,
    journal: None,
    links_by_spawn_time: false,
    resume_context: None,
    store: None,
};

/// The name of the folder `up` levels above the file's own.
fn folder(path: &Path, up: usize) -> Option<String> {
    let mut dir = path.parent()?;
    for _ in 0..up {
        dir = dir.parent()?;
    }
    Some(dir.file_name()?.to_string_lossy().into_owned())
}

/// A `.jsonl` file in a `chats` folder, or in a session's folder under `subagents` (the
/// `.meta.json` and `.jsonl.stream` files beside a transcript are not logs).
fn is_log(path: &Path) -> bool {
    file_name(path).ends_with(".jsonl")
        && (folder(path, 0).as_deref() == Some("chats")
            || folder(path, 1).as_deref() == Some("subagents"))
}

fn hint(path: &Path) -> FileHint {
    let sub = folder(path, 1).as_deref() == Some("subagents");
    let stem = file_stem(path);
    let parent = if sub { folder(path, 0) } else { None };
    FileHint {
        // An agent id is `<type>-<tool call id>`, unique only within its parent session.
        session_id: match &parent {
            Some(p) => format!("{stem}@{p}"),
            None => stem,
        },
        is_subagent: sub,
        parent_id: parent,
        layout: Layout::Lines,
    }
}

/// Nothing to carry: every Qwen Code record stands on its own.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct State {}

pub(crate) fn record(st: &mut ParseState, v: &Value, out: &mut Vec<Event>) {
    if st.meta.cwd.is_none()
        && let Some(cwd) = str_field(v, "cwd")
    {
        st.meta.cwd = Some(cwd.to_string());
    }
    // A sub-agent's records carry its parent's session id: the file names the sub-agent.
    if !st.meta.is_subagent
        && let Some(id) = str_field(v, "sessionId")
    {
        st.meta.session_id = id.to_string();
    }
    let parts = v
        .pointer("/message/parts")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    // A `/branch` copy of another session's record: its tokens were spent there.
    let copied = v.get("forkedFrom").is_some_and(Value::is_object);
    match str_field(v, "type").unwrap_or("") {
        "user" => user(v, parts, out),
        "assistant" => assistant(v, parts, copied, out),
        "tool_result" => tool_result(v, parts, out),
        "system" => system(st, v, out),
        "" => out.push(Event::new(EventKind::Notification, "unknown record")),
        other => out.push(Event::new(EventKind::Notification, other)),
    }
}

/// Text parts of a message, reasoning (`thought: true`) left out.
fn text_parts(parts: &[Value]) -> String {
    let texts: Vec<Value> = parts
        .iter()
        .filter(|p| p.get("text").is_some() && p.get("thought") != Some(&Value::Bool(true)))
        .cloned()
        .collect();
    flatten_text(&Value::Array(texts))
}

/// Whether a `user` record is a person's prompt: the CLI also writes background-agent
/// notifications, cron prompts and Goal runtime messages as `user` records, which its own
/// history shows as notices, not turns (`subtype`, and `provenance` in newer versions).
fn is_prompt(v: &Value) -> bool {
    let by_subtype = !matches!(
        str_field(v, "subtype"),
        Some("notification" | "cron" | "goal_runtime")
    );
    let by_provenance = str_field(v, "provenance").is_none_or(|p| p == "real_user");
    by_subtype && by_provenance
}

fn user(v: &Value, parts: &[Value], out: &mut Vec<Event>) {
    // Tool results sent back in a user message (the `tool_result` record's shape).
    if parts.iter().any(|p| p.get("functionResponse").is_some()) {
        return tool_result(v, parts, out);
    }
    // `displayText` is what the person typed; the parts may add hook context after it.
    let text = v
        .pointer("/systemPayload/displayText")
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| text_parts(parts));
    let kind = if is_prompt(v) && !text.trim().is_empty() {
        EventKind::User
    } else {
        EventKind::Notification
    };
    let text = if text.is_empty() {
        str_field(v, "subtype").unwrap_or("user").to_string()
    } else {
        text
    };
    out.push(Event::new(kind, text));
}

fn assistant(v: &Value, parts: &[Value], copied: bool, out: &mut Vec<Event>) {
    let model = str_field(v, "model").map(str::to_string);
    // A record rewritten under the same uuid is the same model message.
    let message_id = str_field(v, "uuid").map(str::to_string);
    let mut push = |mut ev: Event| {
        ev.model = model.clone();
        ev.message_id = message_id.clone();
        out.push(ev);
    };
    for p in parts {
        if let Some(call) = p.get("functionCall") {
            let mut ev = Event::new(
                EventKind::ToolCall,
                call.get("args").map(Value::to_string).unwrap_or_default(),
            );
            ev.tool_name = str_field(call, "name").map(str::to_string);
            ev.call_id = str_field(call, "id").map(str::to_string);
            push(ev);
        } else if let Some(t) = str_field(p, "text") {
            let kind = if p.get("thought") == Some(&Value::Bool(true)) {
                EventKind::Reasoning
            } else {
                EventKind::Message
            };
            push(Event::new(kind, t));
        }
    }
    if let Some(u) = v.get("usageMetadata").filter(|u| u.is_object())
        && !copied
    {
        let mut ev = Event::new(EventKind::TokenUsage, "");
        ev.tokens = Some(usage(u));
        push(ev);
    }
}

/// Usage in agtrace's terms from Gemini's `usageMetadata`, which Qwen Code fills from every
/// provider it talks to. `promptTokenCount` already includes `cachedContentTokenCount`. What
/// `candidatesTokenCount` holds depends on the provider (OpenAI-compatible APIs: all output,
/// reasoning included; Gemini: without `thoughtsTokenCount`), so output is read the way the
/// CLI reads it: `totalTokenCount - promptTokenCount` when the total is there, else the
/// candidates, plus the thoughts when they cannot already be inside them. Cache writes are
/// not recorded.
fn usage(u: &Value) -> TokenUsage {
    let prompt = u64_field(u, "promptTokenCount");
    let input = prompt + u64_field(u, "toolUsePromptTokenCount");
    let candidates = u64_field(u, "candidatesTokenCount");
    let thoughts = u64_field(u, "thoughtsTokenCount");
    let output = match u.get("totalTokenCount").and_then(Value::as_u64) {
        Some(total) => total.saturating_sub(input),
        None if candidates > thoughts => candidates,
        None => candidates + thoughts,
    };
    TokenUsage::new(
        input,
        u64_field(u, "cachedContentTokenCount").min(input),
        0,
        output,
        thoughts.min(output),
    )
}

fn tool_result(v: &Value, parts: &[Value], out: &mut Vec<Event>) {
    let info = v.get("toolCallResult");
    let failed = info.is_some_and(|r| {
        str_field(r, "status") == Some("error")
            || r.get("error")
                .is_some_and(|e| e.as_str().is_some_and(|s| !s.is_empty()))
    });
    let mut any = false;
    for p in parts {
        let Some(fr) = p.get("functionResponse") else {
            continue;
        };
        any = true;
        let resp = fr.get("response");
        let error = resp.and_then(|r| r.get("error"));
        let text = match (resp.and_then(|r| r.get("output")), error) {
            (Some(o), _) => flatten_text(o),
            (None, Some(e)) => flatten_text(e),
            (None, None) => resp.map(Value::to_string).unwrap_or_default(),
        };
        let mut ev = Event::new(EventKind::ToolResult, text);
        ev.is_error = failed
            || error.is_some()
            || exit_code_in_text(&ev.text).is_some_and(|c| c != 0);
        ev.tool_name = str_field(fr, "name").map(str::to_string);
        ev.call_id = str_field(fr, "id")
            .or_else(|| info.and_then(|r| str_field(r, "callId")))
            .map(str::to_string);
        out.push(ev);
    }
    if !any && let Some(r) = info {
        // No model-facing response: the UI's display is all there is.
        let mut ev = Event::new(
            EventKind::ToolResult,
            r.get("resultDisplay").map(flatten_text).unwrap_or_default(),
        );
        ev.is_error = failed;
        ev.call_id = str_field(r, "callId").map(str::to_string);
        out.push(ev);
    }
}

fn system(st: &mut ParseState, v: &Value, out: &mut Vec<Event>) {
    let payload = v.get("systemPayload").unwrap_or(&Value::Null);
    let subtype = str_field(v, "subtype").unwrap_or("system");
    match subtype {
        // A session started by another (`create_sub_session`) names its parent.
        "parent_session" => {
            if let Some(p) = str_field(payload, "parentSessionId") {
                st.meta.parent_id = Some(p.to_string());
                st.meta.is_subagent = true;
            }
            out.push(Event::new(EventKind::Notification, subtype));
        }
        // Replayed UI metrics, one per API call and tool call: only failures say anything
        // the other records do not.
        "ui_telemetry" => {
            let ev = payload.get("uiEvent").unwrap_or(&Value::Null);
            if str_field(ev, "event.name").is_some_and(|n| n.ends_with("api_error")) {
                let text = str_field(ev, "error").unwrap_or("api error");
                let mut e = Event::new(EventKind::Notification, text);
                e.is_error = true;
                out.push(e);
            }
        }
        // Bookkeeping for `/rewind` and attribution: nothing a person did.
        "attribution_snapshot" | "file_history_snapshot" => {}
        "chat_compression" => out.push(Event::new(
            EventKind::Notification,
            payload
                .get("info")
                .map(|i| format!("chat_compression {i}"))
                .unwrap_or_else(|| subtype.to_string()),
        )),
        "slash_command" => out.push(Event::new(
            EventKind::Notification,
            str_field(payload, "rawCommand").unwrap_or(subtype),
        )),
        other => out.push(Event::new(EventKind::Notification, other)),
    }
}
