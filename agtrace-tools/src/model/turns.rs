//! Turns and steps.
//!
//! A turn is a person's prompt and everything that follows until the next prompt (events
//! before the first prompt, such as Codex environment blocks, belong to the first turn). A step
//! is one model generation: the reasoning, text and tool calls of one model response, plus the
//! results of those tool calls (paired by call id).
//!
//! Placement is streaming ([`Positioner`]) so the indexer can store each event's turn and step
//! while parsing, including when it resumes an appended file.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{Event, EventKind, TokenAccumulator, TokenUsage};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Positioner {
    pub(crate) turn: u32,
    seen_prompt: bool,
    step: Option<u32>,
    next_step: u32,
    in_generation: bool,
    step_message: Option<String>,
    /// Step of each tool call of the current turn, to place its result.
    calls: HashMap<String, u32>,
}

impl Positioner {
    pub(crate) fn place(&mut self, ev: &Event) -> (u32, Option<u32>) {
        match ev.kind {
            EventKind::User => {
                if self.seen_prompt {
                    self.turn += 1;
                }
                self.seen_prompt = true;
                self.step = None;
                self.next_step = 0;
                self.in_generation = false;
                self.step_message = None;
                self.calls.clear();
                (self.turn, None)
            }
            EventKind::Message | EventKind::Reasoning | EventKind::ToolCall => {
                let new_step = match (&ev.message_id, &self.step_message) {
                    (Some(a), Some(b)) if self.step.is_some() => a != b,
                    _ => !self.in_generation || self.step.is_none(),
                };
                if new_step {
                    self.step = Some(self.next_step);
                    self.next_step += 1;
                    self.step_message = ev.message_id.clone();
                }
                self.in_generation = true;
                if let (EventKind::ToolCall, Some(id), Some(step)) =
                    (ev.kind, &ev.call_id, self.step)
                {
                    self.calls.insert(id.clone(), step);
                }
                (self.turn, self.step)
            }
            EventKind::ToolResult => {
                let step = ev
                    .call_id
                    .as_ref()
                    .and_then(|id| self.calls.get(id).copied())
                    .or(self.step);
                self.in_generation = false;
                (self.turn, step)
            }
            EventKind::TokenUsage => (self.turn, self.step),
            EventKind::Notification => {
                (self.turn, if self.in_generation { self.step } else { None })
            }
        }
    }
}

/// A tool call and its result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCallSummary {
    /// Id pairing the call with its result.
    pub call_id: Option<String>,
    /// Name of the tool called.
    pub name: Option<String>,
    /// Index of the call event.
    pub call_event: u32,
    /// Index of the result event, if the result was logged.
    pub result_event: Option<u32>,
    /// Whether the result reports a failure.
    pub is_error: bool,
    /// Time from call to result.
    pub duration_ms: Option<i64>,
}

/// One model generation with its tool calls and their results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// Position of the step in its turn.
    pub index: u32,
    /// Indexes of the events of the step.
    pub events: Vec<u32>,
    /// First event time.
    pub start: Option<DateTime<Utc>>,
    /// Last event time.
    pub end: Option<DateTime<Utc>>,
    /// `end - start`.
    pub duration_ms: Option<i64>,
    /// The model that generated the step.
    pub model: Option<String>,
    /// The tool calls of the step, with their results.
    pub tool_calls: Vec<ToolCallSummary>,
    /// Tokens of the model requests of the step.
    pub tokens: TokenUsage,
    /// A tool call of this step failed.
    pub failed: bool,
}

/// A person's prompt and everything that follows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Turn {
    /// Position of the turn in its session.
    pub index: u32,
    /// Event index of the prompt (`None` for a session that has no prompt, e.g. a sub-agent
    /// that only reports).
    pub prompt_event: Option<u32>,
    /// The person's prompt (`None` for events before the first prompt).
    pub prompt: Option<String>,
    /// All events of the turn, in order (including those outside any step).
    pub events: Vec<u32>,
    /// The model generations of the turn.
    pub steps: Vec<Step>,
    /// First event time.
    pub start: Option<DateTime<Utc>>,
    /// Last event time.
    pub end: Option<DateTime<Utc>>,
    /// `end - start`.
    pub duration_ms: Option<i64>,
    /// Tokens of the model requests of the turn.
    pub tokens: TokenUsage,
    /// Tool calls in the turn.
    pub tool_calls: u32,
    /// Tool calls in the turn whose results report a failure.
    pub failed_tool_calls: u32,
}

fn span(start: Option<DateTime<Utc>>, end: Option<DateTime<Utc>>) -> Option<i64> {
    Some((end? - start?).num_milliseconds())
}

fn widen(range: &mut (Option<DateTime<Utc>>, Option<DateTime<Utc>>), t: Option<DateTime<Utc>>) {
    if let Some(t) = t {
        range.0 = Some(range.0.map_or(t, |s| s.min(t)));
        range.1 = Some(range.1.map_or(t, |e| e.max(t)));
    }
}

/// First and last timestamp seen, as events arrive.
type TimeRange = (Option<DateTime<Utc>>, Option<DateTime<Utc>>);

/// Groups events (already placed by the parser) into turns and steps, with token sums and
/// tool-call pairing.
pub fn assemble(events: &[Event]) -> Vec<Turn> {
    let mut turns: Vec<Turn> = Vec::new();
    let mut turn_tokens: Vec<TokenAccumulator> = Vec::new();
    let mut step_tokens: Vec<Vec<TokenAccumulator>> = Vec::new();
    let mut step_range: Vec<Vec<TimeRange>> = Vec::new();
    let mut turn_range: Vec<TimeRange> = Vec::new();
    let mut by_call: HashMap<(u32, String), (usize, usize)> = HashMap::new();

    for ev in events {
        while turns.len() <= ev.turn as usize {
            turns.push(Turn {
                index: turns.len() as u32,
                prompt_event: None,
                prompt: None,
                events: Vec::new(),
                steps: Vec::new(),
                start: None,
                end: None,
                duration_ms: None,
                tokens: TokenUsage::default(),
                tool_calls: 0,
                failed_tool_calls: 0,
            });
            turn_tokens.push(TokenAccumulator::default());
            step_tokens.push(Vec::new());
            step_range.push(Vec::new());
            turn_range.push((None, None));
        }
        let ti = ev.turn as usize;
        let turn = &mut turns[ti];
        turn.events.push(ev.index);
        widen(&mut turn_range[ti], ev.timestamp);
        if ev.kind == EventKind::User && turn.prompt_event.is_none() {
            turn.prompt_event = Some(ev.index);
            turn.prompt = Some(ev.text.clone());
        }
        if let Some(t) = &ev.tokens {
            turn_tokens[ti].push(t, ev.message_id.as_deref());
        }
        let Some(si) = ev.step else { continue };
        while turn.steps.len() <= si as usize {
            turn.steps.push(Step {
                index: turn.steps.len() as u32,
                events: Vec::new(),
                start: None,
                end: None,
                duration_ms: None,
                model: None,
                tool_calls: Vec::new(),
                tokens: TokenUsage::default(),
                failed: false,
            });
            step_tokens[ti].push(TokenAccumulator::default());
            step_range[ti].push((None, None));
        }
        let si = si as usize;
        let step = &mut turn.steps[si];
        step.events.push(ev.index);
        widen(&mut step_range[ti][si], ev.timestamp);
        if step.model.is_none() {
            step.model = ev.model.clone();
        }
        if let Some(t) = &ev.tokens {
            step_tokens[ti][si].push(t, ev.message_id.as_deref());
        }
        match ev.kind {
            EventKind::ToolCall => {
                turn.tool_calls += 1;
                step.tool_calls.push(ToolCallSummary {
                    call_id: ev.call_id.clone(),
                    name: ev.tool_name.clone(),
                    call_event: ev.index,
                    result_event: None,
                    is_error: false,
                    duration_ms: None,
                });
                if let Some(id) = &ev.call_id {
                    by_call.insert((ev.turn, id.clone()), (si, step.tool_calls.len() - 1));
                }
            }
            EventKind::ToolResult => {
                let slot = ev
                    .call_id
                    .as_ref()
                    .and_then(|id| by_call.get(&(ev.turn, id.clone())).copied());
                if let Some((csi, ci)) = slot {
                    let call_ts = events
                        .get(turns[ti].steps[csi].tool_calls[ci].call_event as usize)
                        .and_then(|e| e.timestamp);
                    let call = &mut turns[ti].steps[csi].tool_calls[ci];
                    if call.result_event.is_none() {
                        call.result_event = Some(ev.index);
                        call.is_error = ev.is_error;
                        call.duration_ms = span(call_ts, ev.timestamp);
                    }
                }
                if ev.is_error {
                    turns[ti].failed_tool_calls += 1;
                    turns[ti].steps[si].failed = true;
                }
            }
            _ => {}
        }
    }
    for (ti, turn) in turns.iter_mut().enumerate() {
        turn.tokens = turn_tokens[ti].total();
        (turn.start, turn.end) = turn_range[ti];
        turn.duration_ms = span(turn.start, turn.end);
        for (si, step) in turn.steps.iter_mut().enumerate() {
            step.tokens = step_tokens[ti][si].total();
            (step.start, step.end) = step_range[ti][si];
            step.duration_ms = span(step.start, step.end);
        }
    }
    turns
}
