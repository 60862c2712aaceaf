//! `get_project_costs`: tokens and estimated cost of a project (or all projects) over a range
//! of days, per model, per day or per session, in pages.
//!
//! Reads only the index's `usage` table (per session, UTC day, model and prompt size class),
//! never the logs, so a year of sessions costs one grouped query.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use mcp_tool::prelude::*;

use crate::index::usage::{UsageFilter, UsageGrouping, day_of_ms};
use crate::pricing::attribution::Tally;
use crate::pricing::prices;
use crate::store::TraceStore;
use crate::tools::support::costs::{CostTotals, estimate_note, round_usd, unpriced_warning};
use crate::tools::support::{blocking, fit_items, page_budget, parse_time};

const MODEL_CHARS: usize = 80;

/// What each row of [`get_project_costs()`] sums.
#[tool_args]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CostGrouping {
    /// Per model.
    Model,
    /// Per UTC day, newest first.
    Day,
    /// Per session, sub-agents included.
    Session,
}

/// The arguments of [`get_project_costs()`].
#[tool_args]
// Rust docs only: the tool's own description already says what it takes.
#[schemars(description = "")]
pub struct GetProjectCostsArgs {
    /// Project root path or 64-hex hash; all when omitted.
    pub project: Option<String>,
    /// First UTC day: that of this RFC 3339 time.
    pub since: Option<String>,
    /// Last UTC day: that of this RFC 3339 time.
    pub until: Option<String>,
    /// What each row sums.
    #[arg(default = CostGrouping::Model)]
    pub group_by: CostGrouping,
    /// Most rows per page.
    #[arg(default = 20, min = 1, max = 100)]
    pub limit: u32,
    /// `next_cursor` of the previous page.
    pub cursor: Option<Cursor>,
}

/// Tokens and estimated cost of one group.
#[tool_output]
#[derive(Debug, Clone, PartialEq)]
pub struct CostRow {
    /// The model, for rows per model (null when the log names none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The price table entry that priced the model, for rows per model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priced_as: Option<String>,
    /// The UTC day (YYYY-MM-DD), for rows per day.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub day: Option<String>,
    /// The session, for rows per session.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// Tokens and estimated cost.
    #[serde(flatten)]
    pub cost: CostTotals,
}

fn day_text(day: i64) -> String {
    DateTime::<Utc>::from_timestamp(day * 86_400, 0)
        .map_or_else(|| day.to_string(), |t| t.format("%Y-%m-%d").to_string())
}

fn tokens_text(n: i64) -> String {
    match n {
        n if n >= 1_000_000 => format!("{:.1}M", n as f64 / 1e6),
        n if n >= 1_000 => format!("{:.1}K", n as f64 / 1e3),
        n => n.to_string(),
    }
}

/// Estimate token cost in USD of a project (or all) over UTC days, per model, day or session.
#[mcp_tool(family = "trace", size_hint = "10KB", read_only)]
pub async fn get_project_costs(
    store: &TraceStore,
    ctx: &ToolContext,
    args: GetProjectCostsArgs,
) -> ToolResult<Page<CostRow>> {
    let since = parse_time("since", args.since.as_deref())?;
    let until = parse_time("until", args.until.as_deref())?;
    if let (Some(s), Some(u)) = (since, until)
        && s > u
    {
        return Err(ToolError::invalid_parameter(
            "until",
            format!("`until` ({u}) is before `since` ({s})."),
        ));
    }
    let filter = UsageFilter {
        project: args.project.filter(|p| !p.trim().is_empty()),
        provider: None,
        since_day: since.map(|t| day_of_ms(t.timestamp_millis())),
        until_day: until.map(|t| day_of_ms(t.timestamp_millis())),
    };
    let by = match args.group_by {
        CostGrouping::Model => UsageGrouping::Model,
        CostGrouping::Day => UsageGrouping::Day,
        CostGrouping::Session => UsageGrouping::Session,
    };
    let offset: usize = args
        .cursor
        .as_ref()
        .map(Cursor::position)
        .transpose()?
        .unwrap_or(0);
    let rows = blocking(store, ctx, move |store| Ok(store.usage(&filter, by)?)).await?;

    let mut groups: HashMap<String, Tally> = HashMap::new();
    let mut total = Tally::default();
    for (key, r) in &rows {
        let mut part = Tally::default();
        part.add_tokens(prices(), r.model.as_deref(), r.class, &r.tokens);
        part.requests = r.requests;
        total.merge(&part);
        groups.entry(key.clone()).or_default().merge(&part);
    }
    if let Some(w) = unpriced_warning(
        rows.iter()
            .map(|(_, r)| (r.model.as_deref(), r.tokens.total())),
    ) {
        ctx.add_warning(w);
    }
    let mut groups: Vec<(String, Tally)> = groups.into_iter().collect();
    match args.group_by {
        // Day keys are day numbers: newest first, numerically.
        CostGrouping::Day => {
            groups.sort_by_key(|(k, _)| std::cmp::Reverse(k.parse::<i64>().unwrap_or(i64::MIN)))
        }
        _ => groups.sort_by(|a, b| {
            b.1.cost_usd
                .total_cmp(&a.1.cost_usd)
                .then(b.1.tokens.total().cmp(&a.1.tokens.total()))
                .then_with(|| a.0.cmp(&b.0))
        }),
    }
    let group_count = groups.len();
    let items: Vec<CostRow> = groups
        .iter()
        .skip(offset)
        .take(args.limit as usize)
        .map(|(key, t)| {
            let mut row = CostRow {
                model: None,
                priced_as: None,
                day: None,
                session_id: None,
                cost: t.into(),
            };
            match args.group_by {
                CostGrouping::Model => {
                    row.model = (!key.is_empty()).then(|| key.chars().take(MODEL_CHARS).collect());
                    row.priced_as = prices().find(key).map(|p| p.name.clone());
                }
                CostGrouping::Day => row.day = Some(day_text(key.parse().unwrap_or(0))),
                CostGrouping::Session => row.session_id = Some(key.clone()),
            }
            row
        })
        .collect();
    let cost = total
        .cost()
        .map_or_else(|| "unknown".to_owned(), |c| format!("${:.2}", round_usd(c)));
    let hint = if group_count == 0 {
        "No token usage in this range. `get_project_info` lists the projects and their activity."
            .to_owned()
    } else {
        format!(
            "All {group_count} rows: {} tokens ({} input, {} output) in {} requests, estimated {cost}. {}",
            tokens_text(total.tokens.total()),
            tokens_text(total.tokens.input),
            tokens_text(total.tokens.output),
            total.requests,
            estimate_note()
        )
    };
    let fit = fit_items(&items, page_budget(ctx.size_hint(), &hint));
    let mut items = items;
    items.truncate(fit);
    let next = offset + items.len();
    let page = Page::new(items)
        .with_total(group_count as u64)
        .with_hint(hint);
    Ok(if next < group_count {
        page.with_next(next)
    } else {
        page
    })
}
