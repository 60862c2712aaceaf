//! `pagination_mismatch`: a `cursor` parameter without a `Page` output, or the reverse. The
//! check spans the arguments and the tool, so it is called on its own
//! ([`crate::check_pagination`]) rather than from the per-item hooks.

use super::Rule;
use crate::{Finding, Lint, OutputShape, Target};

pub(crate) const RULE: Rule = Rule::NONE;

pub(crate) fn check(has_cursor: bool, output: OutputShape) -> Option<Finding> {
    match (has_cursor, output) {
        (true, OutputShape::Single) => Some(Finding::new(
            Lint::PaginationMismatch,
            Target::ToolOutput,
            "the arguments take a `cursor` but the tool does not return `Page<T>`: there is no `next_cursor` to pass back",
            "return `ToolResult<Page<T>>`, or remove the `cursor` parameter",
        )),
        (false, OutputShape::Page) => Some(Finding::new(
            Lint::PaginationMismatch,
            Target::ToolOutput,
            "the tool returns `Page<T>` but its arguments take no `cursor`: the model cannot ask for the next page",
            "add `pub cursor: Option<Cursor>` to the arguments (documented as \"`next_cursor` from the previous page; omit for the first page.\"), or return a single value",
        )),
        _ => None,
    }
}
