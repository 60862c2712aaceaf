//! `mode_toggle`: a bool that switches the shape of the response rather than choosing which
//! records it holds.

use super::{ParamCx, Rule};
use crate::text::identifiers::segments;
use crate::{Finding, Lint, TypeClass};

pub(crate) const RULE: Rule = Rule {
    param: Some(check),
    ..Rule::NONE
};

fn check(cx: &ParamCx<'_>, out: &mut Vec<Finding>) {
    let name = &cx.param.name;
    if cx.param.ty == TypeClass::Bool && is_mode_toggle_name(name) {
        out.push(Finding::new(
            Lint::ModeToggle,
            cx.target,
            format!("`{name}` is a bool that switches the shape of the response"),
            "split the tool into two tools named for what each returns (e.g. `search_event_previews` for previews and `get_event_details` for one full payload)",
        ));
    }
}

/// Words that name the shape or size of a response rather than which records it holds.
const SHAPE_WORDS: &[&str] = &[
    "full",
    "verbose",
    "raw",
    "detailed",
    "details",
    "detail",
    "expand",
    "expanded",
    "compact",
    "brief",
    "concise",
    "terse",
    "minimal",
    "pretty",
    "untruncated",
    "truncate",
    "truncated",
    "payload",
    "payloads",
    "preview",
    "previews",
    "markdown",
    "json",
    "html",
    "xml",
    "summarize",
    "summarized",
    "summary",
    "summaries",
    "debug",
];

/// Prefixes of filters and predicates: they choose records, not the response's shape.
const FILTER_PREFIXES: &[&str] = &["has", "is", "only", "exclude", "skip", "without", "hide"];

fn is_mode_toggle_name(name: &str) -> bool {
    let segs = segments(name);
    let Some(first) = segs.first() else {
        return false;
    };
    if FILTER_PREFIXES.contains(&first.as_str()) {
        return false;
    }
    let first_shape = SHAPE_WORDS.contains(&first.as_str());
    // `include_*`, `show_*`, `return_*`, `with_*`, `as_*`: look at what is included.
    let prefixed = matches!(
        first.as_str(),
        "include" | "show" | "return" | "with" | "as" | "use" | "output" | "print"
    );
    first_shape || (prefixed && segs[1..].iter().any(|s| SHAPE_WORDS.contains(&s.as_str())))
}

