//! `get_session_turns`: one line of facts per turn, in pages cut by size.

use mcp_tool::prelude::*;

use crate::model::Turn;
use crate::model::{Event, EventKind};
use crate::store::TraceStore;
use crate::tools::support::actions::describe_call;
use crate::tools::support::{Excerpt, TokenTotals, blocking_on_session, fit_items, page_budget, timestamp};

const SNIPPET_CHARS: usize = 200;
const ACTION_ARG_CHARS: usize = 60;
const MAX_ACTIONS: usize = 6;
const HINT: &str = "Call `get_turn_steps` with a `turn_index` for that turn's reasoning, messages and tool calls.";

/// The arguments of [`get_session_turns()`].
#[tool_args]
// Rust docs only: the tool's own description already says what it takes.
#[schemars(description = "")]
pub struct GetSessionTurnsArgs {
    /// Session id or its unique 8+ character prefix.
    pub session_id: String,
    /// Most turns per page.
    #[arg(default = 10, min = 1, max = 50)]
    pub limit: u32,
    /// `next_cursor` of the previous page.
    pub cursor: Option<Cursor>,
}

/// How a turn ended.
#[tool_output]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum TurnOutcome {
    /// The model's last word in the turn was a message to the person.
    Answered,
    /// The turn ended on a failed tool call, with no message after it.
    ToolFailed,
    /// The turn ended without a message: interrupted, or still running.
    NoAnswer,
}

/// One turn in brief.
#[tool_output]
#[derive(Debug, Clone)]
pub struct TurnRow {
    /// Zero-based turn number; `get_turn_steps` takes it.
    pub turn_index: u32,
    /// The person's prompt, shortened to one line (none for turns without a prompt).
    pub prompt: Option<Excerpt>,
    /// Key tool actions, failures first chosen, in order: "Bash `cargo test` failed".
    pub actions: Vec<String>,
    /// Tool actions not listed in `actions`.
    pub actions_left_out: usize,
    /// How the turn ended.
    pub outcome: TurnOutcome,
    /// The model's last message in the turn, shortened to one line.
    pub final_message: Option<Excerpt>,
    /// Number of steps (model generations).
    pub steps: u32,
    /// Number of tool calls.
    pub tool_calls: u32,
    /// Number of tool calls that failed.
    pub failed_tool_calls: u32,
    /// Tokens used by the turn.
    pub tokens: TokenTotals,
    /// First event time (RFC 3339).
    pub start: Option<String>,
    /// Wall time of the turn in milliseconds.
    pub duration_ms: Option<i64>,
}

fn event(events: &[Event], index: u32) -> Option<&Event> {
    events.get(index as usize).filter(|e| e.index == index).or_else(|| events.iter().find(|e| e.index == index))
}

/// Describes every tool call of the turn, folding identical consecutive calls ("... ×3"), then
/// keeps at most `MAX_ACTIONS`, failures first, in their original order.
fn key_actions(turn: &Turn, events: &[Event]) -> (Vec<String>, usize) {
    let mut runs: Vec<(String, bool, usize)> = Vec::new();
    for call in turn.steps.iter().flat_map(|s| &s.tool_calls) {
        let args = event(events, call.call_event).map_or("", |e| e.text.as_str());
        let mut line = describe_call(call.name.as_deref(), args, ACTION_ARG_CHARS);
        let failed = call.is_error;
        if failed {
            line.push_str(" failed");
        } else if call.result_event.is_none() {
            line.push_str(" (no result)");
        }
        match runs.last_mut() {
            Some((last, _, n)) if *last == line => *n += 1,
            _ => runs.push((line, failed, 1)),
        }
    }
    let mut chosen: Vec<usize> = (0..runs.len()).filter(|&i| runs[i].1).take(MAX_ACTIONS).collect();
    chosen.extend((0..runs.len()).filter(|&i| !runs[i].1).take(MAX_ACTIONS - chosen.len()));
    chosen.sort_unstable();
    let shown: Vec<String> = chosen
        .iter()
        .map(|&i| match &runs[i] {
            (line, _, 1) => line.clone(),
            (line, _, n) => format!("{line} ×{n}"),
        })
        .collect();
    (shown, runs.len() - chosen.len())
}

fn outcome<'a>(turn: &Turn, events: &'a [Event]) -> (TurnOutcome, Option<&'a Event>) {
    let last_message = turn.events.iter().rev().filter_map(|&i| event(events, i)).find(|e| e.kind == EventKind::Message);
    let last_act = turn
        .events
        .iter()
        .rev()
        .filter_map(|&i| event(events, i))
        .find(|e| matches!(e.kind, EventKind::Message | EventKind::ToolCall | EventKind::ToolResult));
    let outcome = match last_act {
        Some(e) if e.kind == EventKind::Message => TurnOutcome::Answered,
        Some(e) if e.kind == EventKind::ToolResult && e.is_error => TurnOutcome::ToolFailed,
        _ => TurnOutcome::NoAnswer,
    };
    (outcome, last_message)
}

pub(crate) fn turn_row(turn: &Turn, events: &[Event]) -> TurnRow {
    let (actions, actions_left_out) = key_actions(turn, events);
    let (outcome, last_message) = outcome(turn, events);
    TurnRow {
        turn_index: turn.index,
        prompt: turn.prompt.as_deref().map(|p| Excerpt::line(p, SNIPPET_CHARS)),
        actions,
        actions_left_out,
        outcome,
        final_message: last_message.map(|e| Excerpt::line(&e.text, SNIPPET_CHARS)),
        steps: turn.steps.len() as u32,
        tool_calls: turn.tool_calls,
        failed_tool_calls: turn.failed_tool_calls,
        tokens: turn.tokens.into(),
        start: timestamp(turn.start),
        duration_ms: turn.duration_ms,
    }
}

/// List a session's turns, one row each: prompt, key tool actions, outcome, tokens, duration.
/// Then `get_turn_steps` for one turn.
#[mcp_tool(family = "trace", size_hint = "30KB", read_only)]
pub async fn get_session_turns(store: &TraceStore, ctx: &ToolContext, args: GetSessionTurnsArgs) -> ToolResult<Page<TurnRow>> {
    let offset: usize = args.cursor.as_ref().map(Cursor::position).transpose()?.unwrap_or(0);
    let detail = blocking_on_session(store, ctx, args.session_id.clone(), move |store| Ok(store.load_session(&args.session_id)?)).await?;
    let total = detail.turns.len();
    let end = offset.saturating_add(args.limit as usize).min(total);
    let rows: Vec<TurnRow> = detail.turns.get(offset..end).unwrap_or_default().iter().map(|t| turn_row(t, &detail.events)).collect();
    let fit = fit_items(&rows, page_budget(ctx.size_hint(), HINT));
    let mut rows = rows;
    rows.truncate(fit);
    let next = offset + rows.len();
    let page = Page::new(rows).with_total(total as u64).with_hint(HINT);
    Ok(if next < total { page.with_next(next) } else { page })
}
