//! `get_session_costs`: one session's tokens and estimated cost, per model, per tool and per
//! sub-agent, within 10KB.
//!
//! The session's own breakdown comes from its parsed events (see
//! [`crate::pricing::attribution`] for how tokens are attributed to tools); its sub-agents'
//! totals come from the index, so a session with hundreds of sub-agents parses one log.

use mcp_tool::prelude::*;

use crate::index::usage::UsageRow;
use crate::pricing::attribution::{SessionCosts, Tally, ToolKey, session_costs};
use crate::pricing::prices;
use crate::store::TraceStore;
use crate::tools::support::costs::{CostTotals, estimate_note, unpriced_warning};
use crate::tools::support::{blocking_on_session, json_len, page_budget};

const MODEL_CHARS: usize = 80;
const TOOL_CHARS: usize = 80;

/// The arguments of [`get_session_costs()`].
#[tool_args]
// Rust docs only: the tool's own description already says what it takes.
#[schemars(description = "")]
pub struct GetSessionCostsArgs {
    /// Session id or its unique 8+ character prefix.
    pub session_id: String,
}

/// What part of the session's generations a [`ToolCost`] row counts.
#[tool_output]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum CostPart {
    /// Generations that called the tool named in `tool` (a generation's tokens split evenly
    /// among the calls it made).
    ToolCalls,
    /// Generations that called no tool (text or reasoning only).
    NoToolCall,
    /// Usage the log reports outside any generation.
    OutsideSteps,
}

/// Tokens and cost of one model.
#[tool_output]
#[derive(Debug, Clone, PartialEq)]
pub struct ModelCost {
    /// The model as the log names it; null when it names none.
    pub model: Option<String>,
    /// The price table entry that priced it; null when none does.
    pub priced_as: Option<String>,
    /// Its tokens and estimated cost.
    #[serde(flatten)]
    pub cost: CostTotals,
}

/// Tokens and cost of the generations that called one tool.
#[tool_output]
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCost {
    /// What the row counts.
    pub part: CostPart,
    /// The tool, for `tool_calls` rows (null when the log names none).
    pub tool: Option<String>,
    /// Number of calls.
    pub calls: u32,
    /// Their tokens and estimated cost.
    #[serde(flatten)]
    pub cost: CostTotals,
}

/// Tokens and cost of one sub-agent session.
#[tool_output]
#[derive(Debug, Clone, PartialEq)]
pub struct SubagentCost {
    /// The sub-agent's session id.
    pub session_id: String,
    /// Its models, most tokens first.
    pub models: Vec<String>,
    /// Its tokens and estimated cost.
    #[serde(flatten)]
    pub cost: CostTotals,
}

/// One session's tokens and estimated cost.
#[tool_output]
#[derive(Debug, Clone, PartialEq)]
pub struct SessionCostReport {
    /// The provider's full session id.
    pub session_id: String,
    /// The day the price table's prices were checked (YYYY-MM-DD).
    pub prices_as_of: String,
    /// This session alone.
    pub session: CostTotals,
    /// This session and all its sub-agent sessions.
    pub with_subagents: CostTotals,
    /// Per model, most expensive first.
    pub by_model: Vec<ModelCost>,
    /// Per tool, most expensive first.
    pub by_tool: Vec<ToolCost>,
    /// Tools not listed in `by_tool` (the cheapest).
    pub tools_left_out: usize,
    /// Sub-agent sessions (and theirs), most expensive first.
    pub subagents: Vec<SubagentCost>,
    /// Sub-agent sessions not listed in `subagents` (the cheapest).
    pub subagents_left_out: usize,
}

fn clip(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// A sub-agent's index rows as a tally, with its models by tokens.
fn subagent_tally(rows: &[UsageRow]) -> (Tally, Vec<String>) {
    let mut t = Tally::default();
    let mut models: Vec<(String, i64)> = Vec::new();
    for r in rows {
        let mut part = Tally::default();
        part.add_tokens(prices(), r.model.as_deref(), r.class, &r.tokens);
        part.requests = r.requests;
        t.merge(&part);
        if let Some(m) = &r.model {
            match models.iter_mut().find(|(n, _)| n == m) {
                Some(slot) => slot.1 += r.tokens.total(),
                None => models.push((m.clone(), r.tokens.total())),
            }
        }
    }
    models.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    (
        t,
        models
            .into_iter()
            .map(|(m, _)| clip(&m, MODEL_CHARS))
            .collect(),
    )
}

fn report(
    id: &str,
    own: &SessionCosts,
    subs: &[(String, Tally, Vec<String>)],
    max_rows: usize,
) -> SessionCostReport {
    let mut all = own.total.clone();
    subs.iter().for_each(|(_, t, _)| all.merge(t));
    SessionCostReport {
        session_id: id.to_owned(),
        prices_as_of: prices().date.clone(),
        session: (&own.total).into(),
        with_subagents: (&all).into(),
        by_model: own
            .by_model
            .iter()
            .take(max_rows)
            .map(|(m, t)| ModelCost {
                model: m.as_deref().map(|m| clip(m, MODEL_CHARS)),
                priced_as: m
                    .as_deref()
                    .and_then(|m| prices().find(m))
                    .map(|p| p.name.clone()),
                cost: t.into(),
            })
            .collect(),
        by_tool: own
            .by_tool
            .iter()
            .take(max_rows)
            .map(|(k, t, calls)| {
                let (part, tool) = match k {
                    ToolKey::Tool(name) => (
                        CostPart::ToolCalls,
                        name.as_deref().map(|n| clip(n, TOOL_CHARS)),
                    ),
                    ToolKey::NoToolCall => (CostPart::NoToolCall, None),
                    ToolKey::OutsideSteps => (CostPart::OutsideSteps, None),
                };
                ToolCost {
                    part,
                    tool,
                    calls: *calls,
                    cost: t.into(),
                }
            })
            .collect(),
        tools_left_out: own.by_tool.len().saturating_sub(max_rows),
        subagents: subs
            .iter()
            .take(max_rows)
            .map(|(sid, t, models)| SubagentCost {
                session_id: sid.clone(),
                models: models.clone(),
                cost: t.into(),
            })
            .collect(),
        subagents_left_out: subs.len().saturating_sub(max_rows),
    }
}

/// Estimate a session's token cost in USD: with and without sub-agents, per model, per tool
/// (the generations that made the calls) and per sub-agent.
#[mcp_tool(family = "trace", size_hint = "10KB", read_only)]
pub async fn get_session_costs(
    store: &TraceStore,
    ctx: &ToolContext,
    args: GetSessionCostsArgs,
) -> ToolResult<SessionCostReport> {
    let (detail, sub_rows) = blocking_on_session(store, ctx, args.session_id.clone(), move |store| {
        let detail = store.load_session(&args.session_id)?;
        let subs = store.subagent_usage(&detail.summary.id)?;
        Ok((detail, subs))
    })
    .await?;
    let own = session_costs(prices(), &detail.events, &detail.turns);
    let mut subs: Vec<(String, Tally, Vec<String>)> = sub_rows
        .iter()
        .map(|(id, rows)| {
            let (t, models) = subagent_tally(rows);
            (id.clone(), t, models)
        })
        .collect();
    subs.sort_by(|a, b| {
        b.1.cost_usd
            .total_cmp(&a.1.cost_usd)
            .then(b.1.tokens.total().cmp(&a.1.tokens.total()))
            .then_with(|| a.0.cmp(&b.0))
    });
    let models = own
        .by_model
        .iter()
        .map(|(m, t)| (m.as_deref(), t.tokens.total()))
        .chain(
            sub_rows
                .iter()
                .flat_map(|(_, rows)| rows.iter().map(|r| (r.model.as_deref(), r.tokens.total()))),
        );
    if let Some(w) = unpriced_warning(models) {
        ctx.add_warning(w);
    }
    let hint = format!(
        "{} `get_project_costs` sums a project over days, models or sessions.",
        estimate_note()
    );
    let budget = page_budget(ctx.size_hint(), &hint);
    ctx.set_hint(hint);
    // Rows shrink until the whole answer fits; the left-out counts say what was cut.
    let mut max_rows = 40;
    loop {
        let out = report(&detail.summary.id, &own, &subs, max_rows);
        if json_len(&out) <= budget || max_rows == 0 {
            return Ok(out);
        }
        max_rows /= 2;
    }
}
