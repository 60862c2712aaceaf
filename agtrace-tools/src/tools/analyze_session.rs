//! `analyze_session`: what went wrong in a session (failures, loops, slow tools, context
//! growth), each finding with its turn and a severity, always within 10KB.

use std::collections::HashMap;

use mcp_tool::prelude::*;

use crate::model::ToolCallSummary;
use crate::model::Event;
use crate::store::{SessionDetail, TraceStore};
use crate::tools::support::actions::describe_call;
use crate::tools::support::{Excerpt, blocking_on_session, json_len, page_budget};

const CALL_CHARS: usize = 60;
/// Tool calls slower than this are reported.
const SLOW_MS: i64 = 30_000;

/// The arguments of [`analyze_session()`].
#[tool_args]
// Rust docs only: the tool's own description already says what it takes.
#[schemars(description = "")]
pub struct AnalyzeSessionArgs {
    /// Session id or its unique 8+ character prefix.
    pub session_id: String,
}

/// How much a finding matters.
#[tool_output]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Worth knowing; probably harmless.
    Info,
    /// Likely cost time or tokens.
    Warning,
    /// Likely derailed the session.
    Critical,
}

/// A tool call whose result was an error.
#[tool_output]
#[derive(Debug, Clone)]
pub struct FailedCall {
    /// Turn of the call.
    pub turn_index: u32,
    /// Event index of the failed result; `get_event_details` shows it whole.
    pub event_index: u32,
    /// The call: tool and key argument.
    pub call: String,
    /// The error text, shortened.
    pub error: Excerpt,
    /// `critical` when the same call failed three or more times.
    pub severity: Severity,
}

/// What repeats in a loop.
#[tool_output]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum LoopKind {
    /// The same tool call, with the same arguments, made again and again.
    SameCall,
    /// The same sequence of tools, called over and over in a row.
    SameSequence,
}

/// Repetition that suggests the agent was stuck.
#[tool_output]
#[derive(Debug, Clone)]
pub struct LoopFinding {
    /// What repeats.
    pub kind: LoopKind,
    /// The repeated call, or the repeated tool sequence ("Edit → Bash").
    pub pattern: String,
    /// How many times it occurred.
    pub repeats: u32,
    /// Turns it occurs in (the first few).
    pub turns: Vec<u32>,
    /// Event index of its first tool call.
    pub first_event_index: u32,
    /// `info` for a few repeats, up to `critical` for many or failing ones.
    pub severity: Severity,
}

/// A tool call that took long.
#[tool_output]
#[derive(Debug, Clone)]
pub struct SlowCall {
    /// Turn of the call.
    pub turn_index: u32,
    /// Event index of the call.
    pub event_index: u32,
    /// The call: tool and key argument.
    pub call: String,
    /// Time from call to result, in milliseconds.
    pub duration_ms: i64,
    /// `info` from 30 s, `warning` from 2 min, `critical` from 10 min.
    pub severity: Severity,
}

/// A turn where the model's context (input tokens of a request) grew sharply.
#[tool_output]
#[derive(Debug, Clone)]
pub struct ContextJump {
    /// The turn.
    pub turn_index: u32,
    /// Largest request input in the turn, in tokens.
    pub input_tokens: u64,
    /// The same for the previous turn.
    pub previous_input_tokens: u64,
    /// `critical` from 180k tokens, `warning` from 100k or a jump of 50k.
    pub severity: Severity,
}

/// The findings, each list capped; `*_left_out` says how many more there were.
#[tool_output]
#[derive(Debug, Clone)]
pub struct SessionAnalysis {
    /// The provider's full session id.
    pub session_id: String,
    /// The analysis in one line.
    pub verdict: String,
    /// Failed tool calls, in order.
    pub failures: Vec<FailedCall>,
    /// Failed calls not listed.
    pub failures_left_out: usize,
    /// Repeated calls and sequences, most repeated first.
    pub loops: Vec<LoopFinding>,
    /// Loops not listed.
    pub loops_left_out: usize,
    /// Slow tool calls, slowest first.
    pub slow_tools: Vec<SlowCall>,
    /// Slow calls not listed.
    pub slow_tools_left_out: usize,
    /// Turns where the context grew sharply, in order.
    pub context_growth: Vec<ContextJump>,
    /// Context jumps not listed.
    pub context_growth_left_out: usize,
    /// Largest request input of the session, in tokens.
    pub peak_context_tokens: u64,
    /// Turn of that peak.
    pub peak_context_turn: Option<u32>,
}

struct Call<'a> {
    turn: u32,
    summary: &'a ToolCallSummary,
    args: &'a str,
    line: String,
}

fn event(events: &[Event], index: u32) -> Option<&Event> {
    events.get(index as usize).filter(|e| e.index == index).or_else(|| events.iter().find(|e| e.index == index))
}

fn calls(d: &SessionDetail) -> Vec<Call<'_>> {
    let mut out = Vec::new();
    for turn in &d.turns {
        for c in turn.steps.iter().flat_map(|s| &s.tool_calls) {
            let args = event(&d.events, c.call_event).map_or("", |e| e.text.as_str());
            out.push(Call { turn: turn.index, summary: c, args, line: describe_call(c.name.as_deref(), args, CALL_CHARS) });
        }
    }
    out
}

fn failures(d: &SessionDetail, calls: &[Call], chars: usize) -> Vec<FailedCall> {
    let mut per_call: HashMap<(&str, &str), u32> = HashMap::new();
    for c in calls.iter().filter(|c| c.summary.is_error) {
        *per_call.entry((c.summary.name.as_deref().unwrap_or(""), c.args)).or_default() += 1;
    }
    calls
        .iter()
        .filter(|c| c.summary.is_error)
        .map(|c| {
            let result = c.summary.result_event.and_then(|i| event(&d.events, i));
            let repeated = per_call[&(c.summary.name.as_deref().unwrap_or(""), c.args)];
            FailedCall {
                turn_index: c.turn,
                event_index: c.summary.result_event.unwrap_or(c.summary.call_event),
                call: c.line.clone(),
                error: Excerpt::line(result.map_or("", |e| e.text.as_str()), chars).of_whole(result.and_then(|e| e.whole_text_chars)),
                severity: if repeated >= 3 { Severity::Critical } else { Severity::Warning },
            }
        })
        .collect()
}

fn distinct_turns(turns: impl Iterator<Item = u32>) -> Vec<u32> {
    let mut out: Vec<u32> = turns.collect();
    out.dedup();
    out.truncate(10);
    out
}

fn loops(calls: &[Call]) -> Vec<LoopFinding> {
    let mut found = Vec::new();
    // The same call, anywhere in the session.
    let mut groups: Vec<((&str, &str), Vec<usize>)> = Vec::new();
    let mut slot: HashMap<(&str, &str), usize> = HashMap::new();
    for (i, c) in calls.iter().enumerate() {
        let key = (c.summary.name.as_deref().unwrap_or(""), c.args);
        let at = *slot.entry(key).or_insert_with(|| {
            groups.push((key, Vec::new()));
            groups.len() - 1
        });
        groups[at].1.push(i);
    }
    for (_, members) in groups.iter().filter(|(_, m)| m.len() >= 3) {
        let n = members.len() as u32;
        let failing = members.iter().any(|&i| calls[i].summary.is_error);
        found.push(LoopFinding {
            kind: LoopKind::SameCall,
            pattern: calls[members[0]].line.clone(),
            repeats: n,
            turns: distinct_turns(members.iter().map(|&i| calls[i].turn)),
            first_event_index: calls[members[0]].summary.call_event,
            severity: match n {
                6.. => Severity::Critical,
                4.. => Severity::Warning,
                _ if failing => Severity::Warning,
                _ => Severity::Info,
            },
        });
    }
    // The same sequence of tools in a row: period 1 needs many repeats to be unusual.
    let names: Vec<&str> = calls.iter().map(|c| c.summary.name.as_deref().unwrap_or("tool")).collect();
    for period in 1..=4usize {
        let min_repeats = if period == 1 { 8 } else { 3 };
        let mut i = 0;
        while i + period < names.len() {
            let mut len = period;
            while i + len < names.len() && names[i + len] == names[i + len - period] {
                len += 1;
            }
            let pattern = &names[i..i + period];
            let repeats = len / period;
            let primitive = (1..period).all(|q| period % q != 0 || pattern.iter().enumerate().any(|(k, n)| *n != pattern[k % q]));
            if repeats >= min_repeats && primitive {
                found.push(LoopFinding {
                    kind: LoopKind::SameSequence,
                    pattern: pattern.join(" → "),
                    repeats: repeats as u32,
                    turns: distinct_turns(calls[i..i + repeats * period].iter().map(|c| c.turn)),
                    first_event_index: calls[i].summary.call_event,
                    severity: if repeats >= min_repeats * 2 { Severity::Warning } else { Severity::Info },
                });
                i += repeats * period;
            } else {
                i += 1;
            }
        }
    }
    found.sort_by(|a, b| b.severity.cmp(&a.severity).then(b.repeats.cmp(&a.repeats)));
    found
}

fn slow(calls: &[Call]) -> Vec<SlowCall> {
    let mut out: Vec<SlowCall> = calls
        .iter()
        .filter_map(|c| {
            let ms = c.summary.duration_ms.filter(|&ms| ms >= SLOW_MS)?;
            Some(SlowCall {
                turn_index: c.turn,
                event_index: c.summary.call_event,
                call: c.line.clone(),
                duration_ms: ms,
                severity: match ms {
                    600_000.. => Severity::Critical,
                    120_000.. => Severity::Warning,
                    _ => Severity::Info,
                },
            })
        })
        .collect();
    out.sort_by_key(|c| std::cmp::Reverse(c.duration_ms));
    out
}

/// Peak request input per turn: the context the model saw at its fullest in that turn.
fn context(d: &SessionDetail) -> (Vec<ContextJump>, u64, Option<u32>) {
    let peaks: Vec<(u32, u64)> = d
        .turns
        .iter()
        .map(|t| (t.index, t.steps.iter().map(|s| s.tokens.input).max().unwrap_or(t.tokens.input)))
        .collect();
    let mut jumps = Vec::new();
    let mut crossed = false;
    for w in peaks.windows(2) {
        let ((_, prev), (turn, now)) = (w[0], w[1]);
        let grew = now.saturating_sub(prev);
        let sharp = grew >= 10_000 && now * 2 >= prev * 3;
        let first_over = !crossed && now >= 100_000;
        crossed |= now >= 100_000;
        if sharp || first_over {
            let severity = match now {
                180_000.. => Severity::Critical,
                _ if now >= 100_000 || grew >= 50_000 => Severity::Warning,
                _ => Severity::Info,
            };
            jumps.push(ContextJump { turn_index: turn, input_tokens: now, previous_input_tokens: prev, severity });
        }
    }
    let peak = peaks.iter().max_by_key(|(_, n)| *n).filter(|(_, n)| *n > 0);
    (jumps, peak.map_or(0, |p| p.1), peak.map(|p| p.0))
}

fn verdict(a: &SessionAnalysis, failures: usize, loops: usize, slow: usize, turns: usize) -> String {
    let worst = [
        a.failures.iter().map(|f| f.severity).max(),
        a.loops.iter().map(|f| f.severity).max(),
        a.slow_tools.iter().map(|f| f.severity).max(),
        a.context_growth.iter().map(|f| f.severity).max(),
    ]
    .into_iter()
    .flatten()
    .max();
    let peak = match a.peak_context_turn {
        Some(t) => format!("context peaked at {} tokens in turn {t}", a.peak_context_tokens),
        None => "no token usage recorded".to_owned(),
    };
    if failures + loops + slow == 0 {
        return format!("No failed tool calls, loops or slow tools in {turns} turns; {peak}.");
    }
    let prefix = match worst {
        Some(Severity::Critical) => "Critical: ",
        Some(Severity::Warning) => "Needs a look: ",
        _ => "",
    };
    let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "{prefix}{}, {}, {} in {turns} turns; {peak}.",
        plural(failures, "failed tool call", "failed tool calls"),
        plural(loops, "loop", "loops"),
        plural(slow, "slow tool call", "slow tool calls"),
    )
}

fn capped<T>(mut items: Vec<T>, cap: usize) -> (Vec<T>, usize) {
    let left = items.len().saturating_sub(cap);
    items.truncate(cap);
    (items, left)
}

fn analyze(d: &SessionDetail, cap: usize, chars: usize) -> SessionAnalysis {
    let calls = calls(d);
    let (failures, failures_left_out) = capped(failures(d, &calls, chars), cap);
    let (loops, loops_left_out) = capped(loops(&calls), cap);
    let (slow_tools, slow_tools_left_out) = capped(slow(&calls), cap);
    let (jumps, peak, peak_turn) = context(d);
    let (context_growth, context_growth_left_out) = capped(jumps, cap);
    let mut a = SessionAnalysis {
        session_id: d.summary.id.clone(),
        verdict: String::new(),
        failures,
        failures_left_out,
        loops,
        loops_left_out,
        slow_tools,
        slow_tools_left_out,
        context_growth,
        context_growth_left_out,
        peak_context_tokens: peak,
        peak_context_turn: peak_turn,
    };
    a.verdict = verdict(
        &a,
        a.failures.len() + failures_left_out,
        a.loops.len() + loops_left_out,
        a.slow_tools.len() + slow_tools_left_out,
        d.turns.len(),
    );
    a
}

/// Find what went wrong in a session: failed calls, loops, slow tools, context growth, each with
/// turn and severity, and a verdict. Then `get_turn_steps` on those turns.
#[mcp_tool(family = "trace", size_hint = "10KB", read_only)]
pub async fn analyze_session(store: &TraceStore, ctx: &ToolContext, args: AnalyzeSessionArgs) -> ToolResult<SessionAnalysis> {
    let detail = blocking_on_session(store, ctx, args.session_id.clone(), move |store| Ok(store.load_session(&args.session_id)?)).await?;
    const HINT: &str = "`get_turn_steps` with a finding's `turn_index` shows what happened in that turn; `get_event_details` shows one event in full.";
    ctx.set_hint(HINT);
    // Lists and error excerpts shrink until the answer fits; left-out counts say what was cut.
    let budget = page_budget(ctx.size_hint(), HINT);
    let (mut cap, mut chars) = (10, 200);
    loop {
        let a = analyze(&detail, cap, chars);
        if json_len(&a) <= budget || cap == 0 {
            return Ok(a);
        }
        if chars > 60 {
            chars /= 2;
        } else {
            cap /= 2;
        }
    }
}
