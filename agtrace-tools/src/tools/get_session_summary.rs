//! `get_session_summary`: one session on one screen, always within 5KB.

use mcp_tool::prelude::*;

use crate::model::EventKind;
use crate::store::{SessionDetail, TraceStore};
use crate::model::Provider;
use crate::tools::support::{Excerpt, TokenTotals, blocking_on_session, json_len, page_budget, timestamp};

const MAX_SUBAGENTS: usize = 10;
const MAX_MODELS: usize = 5;
const MODEL_CHARS: usize = 80;

/// The arguments of [`get_session_summary()`].
#[tool_args]
// Rust docs only: the tool's own description already says what it takes.
#[schemars(description = "")]
pub struct GetSessionSummaryArgs {
    /// Session id or its unique 8+ character prefix.
    pub session_id: String,
}

/// One session at a glance.
#[tool_output]
#[derive(Debug, Clone)]
pub struct SessionOverview {
    /// The provider's full session id.
    pub session_id: String,
    /// The agent that wrote the session.
    pub provider: Provider,
    /// Root path of the project, when known.
    pub project_root: Option<String>,
    /// sha256 of the project root.
    pub project_hash: Option<String>,
    /// The session that spawned this one (a sub-agent), or whose history this one copied and
    /// went on from (a fork, `is_subagent` false: Codex `forked_from_id`).
    pub parent_session_id: Option<String>,
    /// Whether a session spawned this one to do part of its work.
    pub is_subagent: bool,
    /// Sub-agent sessions this one spawned (the first few).
    pub subagent_session_ids: Vec<String>,
    /// Sub-agent sessions not listed in `subagent_session_ids`.
    pub subagents_left_out: usize,
    /// First event time (RFC 3339).
    pub start: Option<String>,
    /// Last event time (RFC 3339).
    pub end: Option<String>,
    /// `end - start` in milliseconds.
    pub duration_ms: Option<i64>,
    /// Models that answered, in order of first use.
    pub models: Vec<String>,
    /// Number of turns (a person's prompt and all that follows it).
    pub turns: u32,
    /// Number of steps (model generations) over all turns.
    pub steps: u32,
    /// Number of normalized events.
    pub events: u32,
    /// Number of tool calls.
    pub tool_calls: u32,
    /// Number of tool calls whose result was an error.
    pub failed_tool_calls: u32,
    /// Log lines that could not be read and were skipped.
    pub malformed_lines: u32,
    /// Token totals of the session.
    pub tokens: TokenTotals,
    /// The first prompt, shortened.
    pub first_prompt: Option<Excerpt>,
    /// The last message the model wrote, shortened.
    pub last_answer: Option<Excerpt>,
    /// Present and true when the agent deleted the log and agtrace answers from its archived
    /// copy (`--archive`); absent otherwise.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub archived: bool,
}

fn overview(d: &SessionDetail, snippet_chars: usize) -> SessionOverview {
    let s = &d.summary;
    let mut models: Vec<String> = Vec::new();
    for e in &d.events {
        if let Some(m) = &e.model {
            let m: String = m.chars().take(MODEL_CHARS).collect();
            if !models.contains(&m) {
                models.push(m);
            }
        }
    }
    if models.is_empty() {
        models.extend(s.model.clone());
    }
    models.truncate(MAX_MODELS);
    let first_prompt = d.turns.iter().find_map(|t| t.prompt.as_deref()).or(s.first_prompt.as_deref());
    let last_answer = d.events.iter().rev().find(|e| e.kind == EventKind::Message).map(|e| e.text.as_str());
    SessionOverview {
        session_id: s.id.clone(),
        provider: s.provider,
        project_root: s.project.root.clone(),
        project_hash: s.project.hash.clone(),
        parent_session_id: s.parent_id.clone(),
        is_subagent: s.is_subagent,
        subagent_session_ids: d.children.iter().take(MAX_SUBAGENTS).cloned().collect(),
        subagents_left_out: d.children.len().saturating_sub(MAX_SUBAGENTS),
        start: timestamp(s.start),
        end: timestamp(s.end),
        duration_ms: s.start.zip(s.end).map(|(a, b)| (b - a).num_milliseconds()),
        models,
        turns: d.turns.len() as u32,
        steps: d.turns.iter().map(|t| t.steps.len() as u32).sum(),
        events: d.events.len() as u32,
        tool_calls: d.turns.iter().map(|t| t.tool_calls).sum(),
        failed_tool_calls: d.turns.iter().map(|t| t.failed_tool_calls).sum(),
        malformed_lines: s.malformed_lines,
        tokens: d.tokens.into(),
        first_prompt: first_prompt.map(|p| Excerpt::head(p, snippet_chars)),
        last_answer: last_answer.map(|a| Excerpt::head(a, snippet_chars)),
        archived: s.archived,
    }
}

/// Summarize a session: provider, project, models, times, turn, tool call and failure counts,
/// tokens, first prompt, last answer. Call it first, then `get_session_turns`.
#[mcp_tool(family = "trace", size_hint = "5KB", read_only)]
pub async fn get_session_summary(store: &TraceStore, ctx: &ToolContext, args: GetSessionSummaryArgs) -> ToolResult<SessionOverview> {
    let detail = blocking_on_session(store, ctx, args.session_id.clone(), move |store| Ok(store.load_session(&args.session_id)?)).await?;
    const HINT: &str = "`get_session_turns` shows each turn's prompt, actions and outcome; `analyze_session` finds failures, loops and slow tools.";
    ctx.set_hint(HINT);
    // Snippets shrink until the whole answer fits: escaping can make 600 characters 3KB.
    let budget = page_budget(ctx.size_hint(), HINT);
    let mut chars = 600;
    loop {
        let out = overview(&detail, chars);
        if json_len(&out) <= budget || chars == 0 {
            return Ok(out);
        }
        chars /= 2;
    }
}
