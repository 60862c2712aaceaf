//! `unbounded_limit`: an integer page-size parameter without a maximum.

use super::{ParamCx, Rule};
use crate::text::identifiers::snake_case;
use crate::{Finding, Lint, TypeClass};

pub(crate) const RULE: Rule = Rule {
    param: Some(check),
    ..Rule::NONE
};

fn check(cx: &ParamCx<'_>, out: &mut Vec<Finding>) {
    let p = cx.param;
    let name = &p.name;
    let is_number = matches!(p.ty, TypeClass::Integer | TypeClass::Number);
    if is_number && p.max.is_none() && is_page_size_name(name) {
        // An optional page size without a default is an `Option`, where `#[arg(default)]` is
        // refused: suggest only the bound there.
        let attr = match p.default.as_deref() {
            Some(default) => format!("#[arg(default = {default}, max = 100)]"),
            None if !p.required => "#[arg(max = 100)]".to_string(),
            None => "#[arg(default = 20, max = 100)]".to_string(),
        };
        out.push(Finding::new(
            Lint::UnboundedLimit,
            cx.target,
            format!("`{name}` sets a page size but has no maximum: a model can ask for everything at once"),
            format!("bound it: `{attr}`, with a maximum that keeps a page within the tool's size_hint"),
        ).with_schema_fix(format!(
            "bound it: declare a `maximum` for `{name}` in the schema (e.g. 100) that keeps a page within what a model can read, and enforce it"
        )));
    }
}

const PAGE_SIZE_NAMES: &[&str] = &[
    "limit",
    "page_size",
    "per_page",
    "max_results",
    "max_items",
    "max_count",
    "max_hits",
    "max_entries",
    "max_rows",
    "max_records",
    "max_events",
    "max_sessions",
    "count",
    "top_k",
    "top_n",
    "k",
    "n",
    "num_results",
    "n_results",
    "num_items",
    "size",
    "batch_size",
    "take",
    "first",
    "last",
    "results",
    "page_limit",
    "result_limit",
    "items_per_page",
    "results_per_page",
    "num",
    "how_many",
    "max",
];

/// Plurals after `max_`/`num_`/`n_` that count attempts or resources, not results.
const NOT_RESULTS: &[&str] = &[
    "retries", "attempts", "redirects", "workers", "connections", "threads", "tokens",
    "seconds", "ms", "bytes", "chars", "characters", "lines", "days", "hours", "minutes",
];

/// A result count: a listed name, `*_limit`, `*_per_page`, `*_page_size`, `how_many`, or
/// `max_`/`num_`/`n_` before a plural (`max_builds`); camelCase is read as snake_case.
fn is_page_size_name(name: &str) -> bool {
    let lower = snake_case(name);
    let counted = ["max_", "num_", "n_", "number_of_"]
        .iter()
        .filter_map(|p| lower.strip_prefix(p))
        .any(|rest| {
            !rest.contains('_') && rest.len() > 3 && rest.ends_with('s') && !NOT_RESULTS.contains(&rest)
        });
    PAGE_SIZE_NAMES.contains(&lower.as_str())
        || counted
        || lower.ends_with("_limit")
        || lower.ends_with("_per_page")
        || lower.ends_with("_page_size")
}

