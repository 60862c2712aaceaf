//! The Value-based message translation this module had before it read typed messages
//! (commit e246110), kept as the oracle the typed reader is compared with: the translation
//! verbatim, the journal's replay (`replay_journal`) shared with the module, not copied.

use serde_json::Value;

use super::super::{ParseState, ParsedChunk, exit_code_in_text, flatten_text, str_field, u64_field};
use super::{Restart, message_spans, replay_journal, with_source};
use crate::model::TokenUsage;
use crate::model::{Event, EventKind};

/// Parses journal bytes starting at absolute offset `base` (see the module notes).
pub fn parse_journal(
    st: &mut ParseState,
    bytes: &[u8],
    base: u64,
    keep_raw: bool,
) -> Result<ParsedChunk, Restart> {
    replay_journal(st, bytes, base, |st, m, out| emit(st, m, keep_raw, out))
}

/// Commits the events of one message.
fn emit(st: &mut ParseState, m: &Value, keep_raw: bool, out: &mut Vec<Event>) {
    st.record_ms = str_field(m, "timestamp")
        .and_then(crate::model::parse_ts)
        .map(|t| t.timestamp_millis());
    let mut drafts = Vec::new();
    message(m, &mut drafts);
    for mut ev in drafts {
        if keep_raw {
            ev.raw = m.clone();
        }
        st.commit(ev, out);
    }
}

/// Parses a whole document. `None` when it is not (yet) a complete JSON document: Gemini
/// rewrites the file in place, so a reader can catch it half-written.
pub fn parse_document(st: &mut ParseState, bytes: &[u8], keep_raw: bool) -> Option<Vec<Event>> {
    let doc: Value = serde_json::from_slice(bytes).ok()?;
    let doc = doc.as_object()?;
    if let Some(id) = doc.get("sessionId").and_then(Value::as_str) {
        st.meta.session_id = id.to_string();
    }
    if let Some(h) = doc.get("projectHash").and_then(Value::as_str) {
        st.meta.project_hash = Some(h.to_string());
    }
    let mut out = Vec::new();
    let empty = Vec::new();
    let messages = doc
        .get("messages")
        .and_then(Value::as_array)
        .unwrap_or(&empty);
    let spans = std::str::from_utf8(bytes)
        .ok()
        .and_then(message_spans)
        .filter(|s| s.len() == messages.len());
    for (i, m) in messages.iter().enumerate() {
        if !m.is_object() {
            st.malformed += 1;
            continue;
        }
        st.records += 1;
        let first = out.len();
        emit(st, m, keep_raw, &mut out);
        with_source(&mut out[first..], spans.as_ref().map(|s| s[i]));
    }
    if st.meta.start_ms.is_none() {
        st.meta.start_ms = doc
            .get("startTime")
            .and_then(Value::as_str)
            .and_then(crate::model::parse_ts)
            .map(|t| t.timestamp_millis());
    }
    Some(out)
}

/// A `user` message the CLI wrote itself rather than a person: the `<session_context>` block,
/// or tool results handed back to the model (`functionResponse` parts, which the message's
/// `toolCalls` already hold; older versions render them as `[Function Response: ...]`).
fn is_not_a_prompt(m: &Value, text: &str) -> bool {
    let t = text.trim_start();
    let parts = m.get("content").and_then(Value::as_array);
    t.starts_with("<session_context>")
        || t.starts_with("[Function Response:")
        || (t.is_empty()
            && parts.is_some_and(|p| {
                !p.is_empty() && p.iter().all(|x| x.get("functionResponse").is_some())
            }))
}

fn message(m: &Value, out: &mut Vec<Event>) {
    let content = m.get("content").map(flatten_text).unwrap_or_default();
    match str_field(m, "type").unwrap_or("") {
        "user" if is_not_a_prompt(m, &content) => {
            let text = if content.is_empty() {
                "function responses".to_string()
            } else {
                content
            };
            out.push(Event::new(EventKind::Notification, text));
        }
        "user" => out.push(Event::new(EventKind::User, content)),
        "gemini" => gemini(m, content, out),
        other => {
            let mut ev = Event::new(
                EventKind::Notification,
                if content.is_empty() {
                    other.to_string()
                } else {
                    content
                },
            );
            ev.is_error = other == "error";
            out.push(ev);
        }
    }
}

fn gemini(m: &Value, content: String, out: &mut Vec<Event>) {
    let model = str_field(m, "model").map(str::to_string);
    let message_id = str_field(m, "id").map(str::to_string);
    let mut push = |mut ev: Event| {
        ev.model = model.clone();
        ev.message_id = message_id.clone();
        out.push(ev);
    };
    for t in m
        .get("thoughts")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let text = match (str_field(t, "subject"), str_field(t, "description")) {
            (Some(s), Some(d)) => format!("{s}: {d}"),
            (Some(s), None) => s.to_string(),
            (None, Some(d)) => d.to_string(),
            (None, None) => String::new(),
        };
        let mut ev = Event::new(EventKind::Reasoning, text);
        ev.timestamp = str_field(t, "timestamp").and_then(crate::model::parse_ts);
        push(ev);
    }
    if !content.is_empty() {
        push(Event::new(EventKind::Message, content));
    }
    for call in m
        .get("toolCalls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = str_field(call, "name").map(str::to_string);
        let id = str_field(call, "id").map(str::to_string);
        let mut ev = Event::new(
            EventKind::ToolCall,
            call.get("args").map(Value::to_string).unwrap_or_default(),
        );
        ev.tool_name = name.clone();
        ev.call_id = id.clone();
        push(ev);
        if call.get("result").is_some() || call.get("status").is_some() {
            let text = tool_result_text(call);
            let mut res = Event::new(EventKind::ToolResult, text);
            res.is_error = str_field(call, "status") == Some("error")
                || exit_code_in_text(&res.text).is_some_and(|c| c != 0);
            res.tool_name = name;
            res.call_id = id;
            res.timestamp = str_field(call, "timestamp").and_then(crate::model::parse_ts);
            push(res);
        }
    }
    if let Some(t) = m.get("tokens").filter(|t| t.is_object()) {
        let thoughts = u64_field(t, "thoughts");
        // Gemini's input already contains the cached part; thoughts are generated tokens and
        // tool-use prompt tokens are input.
        let usage = TokenUsage::new(
            u64_field(t, "input") + u64_field(t, "tool"),
            u64_field(t, "cached"),
            0,
            u64_field(t, "output") + thoughts,
            thoughts,
        );
        let mut ev = Event::new(EventKind::TokenUsage, "");
        ev.tokens = Some(usage);
        // Not keyed by message id: one tokens object per message, no streaming repeats.
        ev.model = model;
        out.push(ev);
    }
}

/// `functionResponse.response.output` is the model-facing result; `resultDisplay` is a UI
/// rendering and only a fallback.
fn tool_result_text(call: &Value) -> String {
    let mut parts = Vec::new();
    for r in call
        .get("result")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let resp = r.get("functionResponse").and_then(|f| f.get("response"));
        if let Some(resp) = resp {
            if let Some(o) = resp.get("output") {
                parts.push(flatten_text(o));
            } else if let Some(e) = resp.get("error") {
                parts.push(flatten_text(e));
            } else {
                parts.push(resp.to_string());
            }
        }
    }
    if parts.is_empty()
        && let Some(d) = call.get("resultDisplay")
    {
        return flatten_text(d);
    }
    parts.join("\n")
}
