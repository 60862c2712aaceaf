//! `unbounded_limit`: an integer page-size parameter without a maximum.

use super::pagination_mismatch::takes_page_token;
use super::{ParamCx, Rule};
use crate::text::identifiers::snake_case;
use crate::{Finding, Lint, Origin, TypeClass};

pub(crate) const RULE: Rule = Rule {
    param: Some(check),
    ..Rule::NONE
};

fn check(cx: &ParamCx<'_>, out: &mut Vec<Finding>) {
    let p = cx.param;
    let name = &p.name;
    let is_number = matches!(p.ty, TypeClass::Integer | TypeClass::Number);
    // Another server's doc that states the bound ("max 100", "1-20") tells the model; the
    // author's own field declares it where it is checked.
    let stated = cx.args.origin == Origin::Schema && cx.doc.is_some_and(states_bound);
    // Another server's tool that also takes a page (its number or its token) fronts an API
    // that serves pages, and such APIs cap the page they serve (GitHub and Notion at 100):
    // the model gets one page, not everything. The author's own pages are bounded here.
    let paged = cx.args.origin == Origin::Schema && cx.args.params.iter().any(turns_pages);
    if is_number && p.max.is_none() && is_page_size_name(name) && !stated && !paged {
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

/// Whether a parameter asks for a page by its number or its token. (An `offset` is not
/// enough: it is as often a position in a file that a tool reads whole.)
fn turns_pages(p: &crate::Param) -> bool {
    takes_page_token(p)
        || (matches!(snake_case(&p.name).as_str(), "page" | "page_number" | "page_num")
            && matches!(p.ty, TypeClass::Integer | TypeClass::Number))
}

/// Whether a doc states an upper bound in numbers: "max 100", "maximum: 50", "at most 20",
/// "up to 10", "no more than 5", "1-20", "between 1 and 100", "1 to 50".
pub(crate) fn states_bound(doc: &str) -> bool {
    let lower = doc.to_ascii_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| !w.is_empty())
        .collect();
    let number = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    let range = |w: &str| {
        w.split_once('-')
            .is_some_and(|(a, b)| number(a) && number(b))
    };
    words.iter().enumerate().any(|(i, w)| {
        let next = |k: usize| words.get(i + k).copied().unwrap_or("");
        range(w)
            || (matches!(*w, "max" | "maximum" | "cap" | "capped" | "limit") && number(next(1)))
            || (matches!(*w, "max" | "maximum") && next(1) == "of" && number(next(2)))
            || (matches!((*w, next(1)), ("at", "most") | ("up", "to") | ("more", "than"))
                && number(next(2)))
            || (number(w) && next(1) == "to" && number(next(2)))
            || (*w == "between" && number(next(1)) && next(2) == "and" && number(next(3)))
    })
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

/// A result count: a listed name, `*_limit` (but not a limit of bytes, tokens, seconds..),
/// `*_per_page`, `*_page_size`, `how_many`, or
/// `max_`/`num_`/`n_` before a plural (`max_builds`); camelCase is read as snake_case.
fn is_page_size_name(name: &str) -> bool {
    let lower = snake_case(name);
    let counted = ["max_", "num_", "n_", "number_of_"]
        .iter()
        .filter_map(|p| lower.strip_prefix(p))
        .any(|rest| {
            !rest.contains('_') && rest.len() > 3 && rest.ends_with('s') && !NOT_RESULTS.contains(&rest)
        });
    // `response_bytes_limit`, `token_limit`: a bound on size or effort, not a count of results.
    let limited = lower.strip_suffix("_limit").is_some_and(|rest| {
        !NOT_RESULTS.contains(&rest.rsplit('_').next().unwrap_or(rest))
    });
    PAGE_SIZE_NAMES.contains(&lower.as_str())
        || counted
        || limited
        || lower.ends_with("_per_page")
        || lower.ends_with("_page_size")
}

