//! `get_turn_steps`: one turn's steps with every event, each text shortened and saying so.

use std::collections::HashMap;

use mcp_tool::prelude::*;
use serde::{Deserialize, Serialize};

use crate::model::Step;
use crate::model::{Event, EventKind};
use crate::store::TraceStore;
use crate::tools::support::errors::codes;
use crate::tools::support::{EventType, Excerpt, TokenTotals, blocking_on_session, json_len, page_budget, timestamp};

/// Characters kept per text field before a step has to shrink to fit a page.
const FIELD_CHARS: usize = 2000;
const MIN_FIELD_CHARS: usize = 200;
const HINT: &str = "Texts marked `truncated` are shortened: `get_event_details` with the `event_index` returns one in full.";

/// The arguments of [`get_turn_steps()`].
#[tool_args]
// Rust docs only: the tool's own description already says what it takes.
#[schemars(description = "")]
pub struct GetTurnStepsArgs {
    /// Session id or its unique 8+ character prefix.
    pub session_id: String,
    /// Zero-based turn number, from `get_session_turns`.
    pub turn_index: u32,
    /// Most steps per page.
    #[arg(default = 10, min = 1, max = 50)]
    pub limit: u32,
    /// `next_cursor` of the previous page.
    pub cursor: Option<Cursor>,
}

/// One event of a step.
#[tool_output]
#[derive(Debug, Clone)]
pub struct StepEvent {
    /// Index of the event in the session; `get_event_details` takes it.
    pub event_index: u32,
    /// What the event is.
    pub kind: EventType,
    /// Tool name, for tool calls and results.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// Id pairing a tool call with its result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    /// True for a tool result that reports a failure.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
    /// For a tool call: milliseconds until its result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<i64>,
    /// The event's text (a tool call's arguments, a result's output), shortened.
    pub text: Excerpt,
}

/// One model generation with its tool calls and their results.
#[tool_output]
#[derive(Debug, Clone)]
pub struct StepView {
    /// Zero-based step number within the turn.
    pub step_index: u32,
    /// First event time (RFC 3339).
    pub start: Option<String>,
    /// Wall time of the step in milliseconds.
    pub duration_ms: Option<i64>,
    /// Model that generated the step.
    pub model: Option<String>,
    /// Tokens of the step's model request.
    pub tokens: TokenTotals,
    /// True when a tool call of the step failed.
    pub failed: bool,
    /// The step's events in order (token usage is in `tokens`, not repeated here).
    pub events: Vec<StepEvent>,
    /// True when this step is too large for one page: its remaining events start the next page.
    pub continues_on_next_page: bool,
}

/// Where a page starts: a step of the turn, and an event within it (for a step split over pages).
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
struct StepPosition {
    step: usize,
    event: usize,
}

/// The event with index `index`: at that position when events are numbered densely (always, for
/// a parsed session), else found by search. A map of every event of the session would cost more
/// than the few lookups of one turn.
fn event(events: &[Event], index: u32) -> Option<&Event> {
    events
        .get(index as usize)
        .filter(|e| e.index == index)
        .or_else(|| events.iter().find(|e| e.index == index))
}

fn render(step: &Step, events: &[&Event], from: usize, durations: &HashMap<u32, i64>, chars: usize) -> StepView {
    StepView {
        step_index: step.index,
        start: timestamp(step.start),
        duration_ms: step.duration_ms,
        model: step.model.clone(),
        tokens: step.tokens.into(),
        failed: step.failed,
        events: events[from..]
            .iter()
            .map(|e| StepEvent {
                event_index: e.index,
                kind: e.kind.into(),
                tool_name: e.tool_name.clone(),
                call_id: e.call_id.clone(),
                is_error: e.is_error,
                duration_ms: durations.get(&e.index).copied(),
                text: Excerpt::head(&e.text, chars).of_whole(e.whole_text_chars),
            })
            .collect(),
        continues_on_next_page: false,
    }
}

/// Show one turn step by step: reasoning, messages, tool calls with arguments and results, texts
/// shortened (full length given). `get_event_details` gives one whole.
#[mcp_tool(family = "trace", size_hint = "50KB", read_only)]
pub async fn get_turn_steps(store: &TraceStore, ctx: &ToolContext, args: GetTurnStepsArgs) -> ToolResult<Page<StepView>> {
    let start: StepPosition = args.cursor.as_ref().map(Cursor::position).transpose()?.unwrap_or_default();
    let session = args.session_id.clone();
    let detail = blocking_on_session(store, ctx, args.session_id.clone(), move |store| Ok(store.load_session(&session)?)).await?;
    let turn_count = detail.turns.len();
    let Some(turn) = detail.turns.get(args.turn_index as usize) else {
        return Err(ToolError::new(
            codes::TURN_NOT_FOUND,
            format!("Session '{}' has {turn_count} turns (0 to {}); there is no turn {}.", detail.summary.id, turn_count.saturating_sub(1), args.turn_index),
        )
        .with_details(serde_json::json!({"session_id": detail.summary.id, "turn_index": args.turn_index, "turn_count": turn_count})));
    };
    let durations: HashMap<u32, i64> = turn
        .steps
        .iter()
        .flat_map(|s| &s.tool_calls)
        .filter_map(|c| Some((c.call_event, c.duration_ms?)))
        .collect();
    if start.step > turn.steps.len() || turn.steps.get(start.step).is_some_and(|s| start.event > s.events.len()) {
        return Err(ToolError::invalid_cursor("The cursor points past this turn's steps (the log changed?)."));
    }

    let budget = page_budget(ctx.size_hint(), HINT);
    let mut page: Vec<StepView> = Vec::new();
    let mut used = 2; // the array's brackets
    let mut next: Option<StepPosition> = None;
    let mut pos = start;
    while pos.step < turn.steps.len() {
        if page.len() >= args.limit as usize {
            next = Some(pos);
            break;
        }
        let step = &turn.steps[pos.step];
        // Token usage is summed in the step's `tokens`; as events it would only repeat it.
        let events: Vec<&Event> = step
            .events
            .iter()
            .filter_map(|&i| event(&detail.events, i))
            .filter(|e| e.kind != EventKind::TokenUsage)
            .collect();
        // Shorten harder for a step that could not fill a page on its own.
        let mut chars = FIELD_CHARS;
        let mut view = render(step, &events, pos.event, &durations, chars);
        while json_len(&view) > budget && chars > MIN_FIELD_CHARS {
            chars = (chars / 2).max(MIN_FIELD_CHARS);
            view = render(step, &events, pos.event, &durations, chars);
        }
        let size = json_len(&view) + usize::from(!page.is_empty());
        if used + size <= budget {
            used += size;
            page.push(view);
            pos = StepPosition { step: pos.step + 1, event: 0 };
            continue;
        }
        if !page.is_empty() {
            next = Some(pos);
            break;
        }
        // Alone on its page and still too large: split the step between its events.
        let all = std::mem::take(&mut view.events);
        view.continues_on_next_page = true;
        let mut used = json_len(&view) + 2;
        let mut keep = 0;
        for (i, e) in all.iter().enumerate() {
            let n = json_len(e) + usize::from(i > 0);
            if keep > 0 && used + n > budget {
                break;
            }
            used += n;
            keep += 1;
        }
        view.events = all;
        view.events.truncate(keep);
        let consumed = pos.event + keep;
        if consumed < events.len() {
            next = Some(StepPosition { step: pos.step, event: consumed });
        } else {
            view.continues_on_next_page = false;
            next = (pos.step + 1 < turn.steps.len()).then_some(StepPosition { step: pos.step + 1, event: 0 });
        }
        page.push(view);
        break;
    }
    let out = Page::new(page).with_total(turn.steps.len() as u64).with_hint(HINT);
    Ok(match next {
        Some(n) => out.with_next(n),
        None => out,
    })
}
