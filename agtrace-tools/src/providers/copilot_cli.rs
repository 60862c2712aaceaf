//! GitHub Copilot CLI session events (`~/.copilot/session-state/<sessionId>/events.jsonl`, or
//! `session-state/<sessionId>.jsonl` in early versions): one event a line, `{type, data, id,
//! timestamp, parentId}`. Sub-agents run inline: their events are in the parent's file, tagged
//! with the `parentToolCallId` of the call that started them. Tokens: output per model message
//! (`outputTokens`); per request, in `session.usage_record` (recent versions); and in the totals
//! of `session.shutdown`, one per run of the CLI. See `docs/providers/copilot-cli.md`.
//!
//! Resume, continue and fork: `copilot --resume` / `--continue` appends `session.resume` and the
//! new run to the session's own file, which owns the id; nothing is replayed. The shutdown
//! totals are cumulative over the runs (the session's so far): the per-request usage records
//! are preferred when present, and a shutdown adds only what its totals exceed of what was
//! counted, never its whole totals again. The CLI has no fork.

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::spec::{Layout, ProviderSpec, file_name, file_stem};
use super::{FileHint, ParseState, flatten_text, str_field, u64_field};
use crate::model::TokenUsage;
use crate::model::{Event, EventKind};

/// GitHub Copilot CLI: `~/.copilot/session-state/<sessionId>/events.jsonl`.
pub static SPEC: ProviderSpec = ProviderSpec {
    title: "GitHub Copilot CLI",
    home_root: ".copilot/session-state",
    env: "AGTRACE_COPILOT_DIR",
    flag: "copilot-dir",
    tree_root: "copilot/session-state",
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

fn parent_folder(path: &Path) -> Option<String> {
    Some(path.parent()?.file_name()?.to_string_lossy().into_owned())
}

/// `events.jsonl` in a session's folder, or a `.jsonl` file right in `session-state` (the
/// early layout). The folder's other files (`workspace.yaml`, plans, checkpoints) are not logs.
fn is_log(path: &Path) -> bool {
    let name = file_name(path);
    name == "events.jsonl"
        || (name.ends_with(".jsonl") && parent_folder(path).as_deref() == Some("session-state"))
}

fn hint(path: &Path) -> FileHint {
    let session_id = if file_name(path) == "events.jsonl" {
        parent_folder(path).unwrap_or_else(|| file_stem(path))
    } else {
        file_stem(path)
    };
    FileHint {
        session_id,
        is_subagent: false,
        parent_id: None,
        layout: Layout::Lines,
    }
}

/// What a Copilot CLI parse carries from one event to the next.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The model in effect (`selectedModel`, then `session.model_change`).
    model: Option<String>,
    /// Tool name of each call, for its result (`tool.execution_complete` has only the id).
    tools: HashMap<String, String>,
    /// Text of the last `assistant.reasoning`: the next message's `reasoningText` repeats it.
    last_reasoning: Option<String>,
    /// Tokens counted so far in the session, each field: a `session.shutdown`'s totals are the
    /// session's so far, over all its runs, and it adds only what they exceed.
    #[serde(default)]
    counted: Totals,
    /// Output of model messages that no `session.usage_record` has covered yet.
    #[serde(default)]
    message_output: u64,
    /// Output of usage records that no model message's `outputTokens` has matched yet.
    #[serde(default)]
    record_output: u64,
    /// The last shutdown's totals, to tell a cumulative one from a run's own.
    #[serde(default)]
    last_shutdown: Option<Totals>,
    /// The totals of the shutdowns before the last reset: what later totals count from.
    #[serde(default)]
    offset: Totals,
}

/// Token counts as a shutdown or a usage record gives them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
struct Totals {
    input: u64,
    cached: u64,
    written: u64,
    output: u64,
    reasoning: u64,
}

/// Whether `reasoning` repeats the last `assistant.reasoning` text. The state an index keeps
/// for appends holds that text masked (`index::masking`), so a masked one is compared with the
/// masked `reasoning`.
fn repeats(last: Option<&str>, reasoning: &str) -> bool {
    last.is_some_and(|l| {
        l == reasoning || (l.contains("[REDACTED:") && l == crate::secrets::mask(reasoning))
    })
}

pub(crate) fn record(st: &mut ParseState, v: &Value, out: &mut Vec<Event>) {
    // Streaming deltas and live status, which the final events repeat whole.
    if v.get("ephemeral") == Some(&Value::Bool(true)) {
        return;
    }
    let data = v.get("data").unwrap_or(&Value::Null);
    let ty = str_field(v, "type").unwrap_or("");
    let first_new = out.len();
    match ty {
        "session.start" | "session.resume" => start(st, ty, data, out),
        "session.model_change" => {
            if let Some(m) = str_field(data, "newModel") {
                st.states.copilot_cli.model = Some(m.to_string());
            }
            out.push(Event::new(EventKind::Notification, ty));
        }
        "user.message" => {
            let text = data.get("content").map(flatten_text).unwrap_or_default();
            // A prompt a sub-agent was given comes from its parent, not from the person.
            let kind = if data.get("parentToolCallId").is_some_and(|p| !p.is_null())
                || text.trim().is_empty()
            {
                EventKind::Notification
            } else {
                EventKind::User
            };
            out.push(Event::new(kind, text));
        }
        "assistant.reasoning" => {
            let text = str_field(data, "content").unwrap_or("").to_string();
            st.states.copilot_cli.last_reasoning = Some(text.clone());
            let mut ev = Event::new(EventKind::Reasoning, text);
            ev.model.clone_from(&st.states.copilot_cli.model);
            out.push(ev);
        }
        "assistant.message" => assistant(st, data, out),
        "tool.execution_start" => {
            // The call is the message's `toolRequests` entry; only a call no message asked
            // for (older versions) is new here.
            let id = str_field(data, "toolCallId").unwrap_or("");
            if !st.states.copilot_cli.tools.contains_key(id) {
                let name = str_field(data, "toolName").unwrap_or("").to_string();
                out.push(tool_call(st, id, &name, data.get("arguments")));
            }
        }
        "tool.execution_complete" => out.push(tool_result(st, data)),
        "subagent.started" | "subagent.completed" | "subagent.failed" => {
            let name = str_field(data, "agentDisplayName")
                .or_else(|| str_field(data, "agentName"))
                .unwrap_or("sub-agent");
            let mut ev = Event::new(EventKind::Notification, format!("{ty}: {name}"));
            ev.call_id = str_field(data, "toolCallId").map(str::to_string);
            ev.is_error = ty == "subagent.failed";
            out.push(ev);
        }
        "session.error" => {
            let mut ev = Event::new(
                EventKind::Notification,
                str_field(data, "message").unwrap_or(ty),
            );
            ev.is_error = true;
            out.push(ev);
        }
        "abort" => out.push(Event::new(
            EventKind::Notification,
            format!("abort: {}", str_field(data, "reason").unwrap_or("")),
        )),
        "session.shutdown" => shutdown(st, data, out),
        "session.usage_record" => usage_record(st, data, out),
        // Turn brackets: the prompt and the messages already say where turns and steps are.
        "assistant.turn_start" | "assistant.turn_end" => {}
        "system.message" | "system.notification" | "session.info" => out.push(Event::new(
            EventKind::Notification,
            str_field(data, "message")
                .or_else(|| str_field(data, "content"))
                .unwrap_or(ty),
        )),
        "" => out.push(Event::new(EventKind::Notification, "unknown record")),
        other => out.push(Event::new(EventKind::Notification, other)),
    }
    for ev in &mut out[first_new..] {
        if ev.model.is_none() && ev.kind.is_generated() {
            ev.model.clone_from(&st.states.copilot_cli.model);
        }
    }
}

fn start(st: &mut ParseState, ty: &str, data: &Value, out: &mut Vec<Event>) {
    if ty == "session.start"
        && let Some(id) = str_field(data, "sessionId")
    {
        st.meta.session_id = id.to_string();
    }
    if st.meta.cwd.is_none()
        && let Some(cwd) = data
            .pointer("/context/cwd")
            .or_else(|| data.pointer("/context/gitRoot"))
            .and_then(Value::as_str)
    {
        st.meta.cwd = Some(cwd.to_string());
    }
    if let Some(m) = str_field(data, "selectedModel") {
        st.states.copilot_cli.model = Some(m.to_string());
    }
    out.push(Event::new(EventKind::Notification, ty));
}

fn assistant(st: &mut ParseState, data: &Value, out: &mut Vec<Event>) {
    if let Some(m) = str_field(data, "model") {
        st.states.copilot_cli.model = Some(m.to_string());
    }
    let message_id = str_field(data, "messageId").map(str::to_string);
    let mut evs = Vec::new();
    let reasoning = str_field(data, "reasoningText").filter(|r| !r.is_empty());
    let last = st.states.copilot_cli.last_reasoning.take();
    if let Some(r) = reasoning
        && !repeats(last.as_deref(), r)
    {
        evs.push(Event::new(EventKind::Reasoning, r));
    }
    let content = data.get("content").map(flatten_text).unwrap_or_default();
    if !content.is_empty() {
        evs.push(Event::new(EventKind::Message, content));
    }
    for req in data
        .get("toolRequests")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let id = str_field(req, "toolCallId").unwrap_or("");
        let name = str_field(req, "name").unwrap_or("").to_string();
        evs.push(tool_call(st, id, &name, req.get("arguments")));
    }
    if let Some(n) = data.get("outputTokens").and_then(Value::as_u64) {
        // A usage record of this request may have counted the output already.
        let c = &mut st.states.copilot_cli;
        let matched = n.min(c.record_output);
        c.record_output -= matched;
        c.message_output += n - matched;
        c.counted.output += n - matched;
        let mut ev = Event::new(EventKind::TokenUsage, "");
        ev.tokens = Some(TokenUsage::new(0, 0, 0, n - matched, 0));
        evs.push(ev);
    }
    for mut ev in evs {
        ev.message_id.clone_from(&message_id);
        out.push(ev);
    }
}

/// `arguments` is an object in some versions and a JSON string in others.
fn tool_call(st: &mut ParseState, id: &str, name: &str, args: Option<&Value>) -> Event {
    let text = match args {
        Some(Value::String(s)) => s.clone(),
        Some(v) => v.to_string(),
        None => String::new(),
    };
    let mut ev = Event::new(EventKind::ToolCall, text);
    if !name.is_empty() {
        ev.tool_name = Some(name.to_string());
    }
    if !id.is_empty() {
        ev.call_id = Some(id.to_string());
        st.states
            .copilot_cli
            .tools
            .insert(id.to_string(), name.to_string());
    }
    ev
}

fn tool_result(st: &ParseState, data: &Value) -> Event {
    let result = data.get("result").unwrap_or(&Value::Null);
    // `content` is what the model got; `detailedContent` a fuller rendering for the person.
    let text = [result.get("content"), result.get("detailedContent")]
        .into_iter()
        .flatten()
        .map(flatten_text)
        .find(|t| !t.is_empty())
        .or_else(|| {
            data.get("error")
                .map(|e| str_field(e, "message").map_or_else(|| flatten_text(e), str::to_string))
        })
        .unwrap_or_default();
    let mut ev = Event::new(EventKind::ToolResult, text);
    // A shell command that exits non-zero is a completed call (`success: true`) whose
    // `shellExecution.exitCode` says it failed.
    let exit_code = [data, result]
        .into_iter()
        .find_map(|d| d.pointer("/shellExecution/exitCode"))
        .and_then(Value::as_i64);
    ev.is_error =
        data.get("success") == Some(&Value::Bool(false)) || exit_code.is_some_and(|c| c != 0);
    ev.call_id = str_field(data, "toolCallId").map(str::to_string);
    ev.tool_name = ev
        .call_id
        .as_ref()
        .and_then(|id| st.states.copilot_cli.tools.get(id))
        .filter(|n| !n.is_empty())
        .cloned();
    ev
}

/// One request's usage (`session.usage_record`, written by recent versions after each model
/// call): the exact per-request counts, preferred to the shutdown totals, which then add only
/// what the records missed. Read from `data.usage` or `data` itself, with the field names of
/// `modelMetrics.<model>.usage` (`inputTokens` is the whole input).
fn usage_record(st: &mut ParseState, data: &Value, out: &mut Vec<Event>) {
    let u = data.get("usage").filter(|u| u.is_object()).unwrap_or(data);
    let input = u64_field(u, "inputTokens");
    let output = u64_field(u, "outputTokens");
    let c = &mut st.states.copilot_cli;
    // The request's message may have counted its output already.
    let matched = output.min(c.message_output);
    c.message_output -= matched;
    c.record_output += output - matched;
    let own = Totals {
        input,
        cached: u64_field(u, "cacheReadTokens").min(input),
        written: u64_field(u, "cacheWriteTokens").min(input),
        output: output - matched,
        reasoning: u64_field(u, "reasoningTokens").min(output),
    };
    c.counted = c.counted.plus(&own);
    let mut ev = Event::new(EventKind::TokenUsage, "");
    ev.tokens = Some(own.usage());
    if let Some(m) = str_field(data, "model").or_else(|| str_field(u, "model")) {
        ev.model = Some(m.to_string());
    }
    out.push(ev);
}

impl Totals {
    fn plus(&self, o: &Totals) -> Totals {
        Totals {
            input: self.input + o.input,
            cached: self.cached + o.cached,
            written: self.written + o.written,
            output: self.output + o.output,
            reasoning: self.reasoning + o.reasoning,
        }
    }

    /// What `self` has beyond `counted`, each field; and the larger of the two.
    fn beyond(&self, counted: &Totals) -> (Totals, Totals) {
        let d = |a: u64, b: u64| a.saturating_sub(b);
        let more = Totals {
            input: d(self.input, counted.input),
            cached: d(self.cached, counted.cached),
            written: d(self.written, counted.written),
            output: d(self.output, counted.output),
            reasoning: d(self.reasoning, counted.reasoning),
        };
        (more, counted.plus(&more))
    }

    fn usage(&self) -> TokenUsage {
        TokenUsage::new(
            self.input,
            self.cached,
            self.written,
            self.output,
            self.reasoning,
        )
    }
}

/// A run's `session.shutdown` totals. Per model (`modelMetrics.<model>.usage`: `inputTokens`
/// is the whole input) when there, else `tokenDetails`, whose `input` is the uncached part only
/// (it adds up with the cache reads and writes to `inputTokens`).
///
/// The totals are the session's so far, not the run's: a resumed session's shutdowns say, say,
/// 9,150, then 23,760, then 26,580 input. Summing them counted 2.2 times the tokens. What the
/// messages' `outputTokens`, the usage records and earlier shutdowns counted is subtracted, so
/// the session's sum is its last shutdown's totals (plus what came after it). Totals lower than
/// the last shutdown's were reset for the run (as older versions write them) and count on top
/// of the totals before them.
fn shutdown(st: &mut ParseState, data: &Value, out: &mut Vec<Event>) {
    let metrics: Vec<&Value> = data
        .get("modelMetrics")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|m| m.values())
        .filter_map(|m| m.get("usage"))
        .filter(|u| u.is_object())
        .collect();
    let (input, cached, written, output, reasoning) = if !metrics.is_empty() {
        let sum = |k: &str| metrics.iter().map(|u| u64_field(u, k)).sum::<u64>();
        (
            sum("inputTokens"),
            sum("cacheReadTokens"),
            sum("cacheWriteTokens"),
            sum("outputTokens"),
            sum("reasoningTokens"),
        )
    } else if let Some(d) = data.get("tokenDetails").filter(|d| d.is_object()) {
        let count = |k: &str| d.get(k).map_or(0, |c| u64_field(c, "tokenCount"));
        let (cr, cw) = (count("cache_read"), count("cache_write"));
        (count("input") + cr + cw, cr, cw, count("output"), 0)
    } else {
        out.push(Event::new(EventKind::Notification, "session.shutdown"));
        return;
    };
    let totals = Totals {
        input,
        cached: cached.min(input),
        written: written.min(input),
        output,
        // Reasoning is known only in totals: this event may say more reasoning than its own
        // share of output, but never more than the session's.
        reasoning: reasoning.min(output),
    };
    let c = &mut st.states.copilot_cli;
    // Totals lower than the last shutdown's are a run's own (versions around 1.0.7x reset them
    // on each run): they count from the sum of the totals before them. Totals that only grow
    // are the session's so far (recent versions).
    if let Some(last) = c.last_shutdown
        && (totals.input < last.input || totals.output < last.output)
    {
        c.offset = c.offset.plus(&last);
    }
    c.last_shutdown = Some(totals);
    let (more, counted) = c.offset.plus(&totals).beyond(&c.counted);
    c.counted = counted;
    // The totals settle every request before them.
    c.message_output = 0;
    c.record_output = 0;
    let mut ev = Event::new(EventKind::TokenUsage, "");
    ev.tokens = Some(more.usage());
    out.push(ev);
}
