//! `pagination_mismatch`: a `cursor` parameter without a `Page` output, or the reverse. The
//! check spans the arguments and the tool, so it is called on its own
//! ([`crate::check_pagination`]) rather than from the per-item hooks.
//!
//! Through JSON Schema, a page token goes by many names (`page_token`, `nextPageToken`,
//! `continuation`, `has_more`): the word lists below say which names, in the arguments and in
//! the answer, continue a page.

use super::Rule;
use crate::text::identifiers::snake_case;
use crate::{Finding, Lint, OutputShape, Param, Target, TypeClass};

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

/// [`check`] in the terms of a JSON Schema: a page token by any name, a page by any marker.
pub(crate) fn check_schema(takes_token: bool, output: OutputShape) -> Option<Finding> {
    let finding = check(takes_token, output)?;
    let (message, fix) = if takes_token {
        (
            "the arguments take a page token but the answer carries none: there is no next token to pass back",
            "return the next page's token with each page (`next_cursor`), or remove the token parameter",
        )
    } else {
        (
            "the answer is a page with a marker for the next one, but no parameter takes it back: the model cannot ask for the next page",
            "add an optional `cursor` parameter described as \"`next_cursor` from the previous page; omit for the first page\", or return a single value",
        )
    };
    Some(Finding {
        message: message.to_string(),
        ..finding.with_schema_fix(fix)
    })
}

/// Argument names that can only be a page token, in snake case.
const TOKEN_PARAMS: &[&str] = &[
    "cursor",
    "page_token",
    "next_token",
    "next_page_token",
    "continuation",
    "continuation_token",
    "start_cursor",
    "starting_after",
    "ending_before",
];

/// Argument names that are a page token when their description says so (`after`: a time, or
/// the last id of the previous page).
const MAYBE_TOKEN_PARAMS: &[&str] = &["after", "before", "marker", "from", "next", "token"];

/// Argument names that take a position by number: they continue a page that ends with an
/// offset, but a tool may take them for other reasons (a line offset in a file).
const OFFSET_PARAMS: &[&str] = &["offset", "page", "page_number", "skip", "start", "start_index"];

/// Names in an answer that say there is a next page, and how to ask for it.
pub(crate) const PAGE_MARKERS: &[&str] = &[
    "pagination",
    "next_cursor",
    "next_page_token",
    "next_token",
    "next_page",
    "next_offset",
    "has_more",
    "has_next_page",
    "page_info",
    "continuation_token",
];

/// Whether an answer's property name says there is a next page (`nextPageToken`, `has_more`).
pub(crate) fn is_page_marker(name: &str) -> bool {
    PAGE_MARKERS.contains(&snake_case(name).as_str())
}

/// Whether a parameter is a page token: the framework's cursor, or a name that can only be one,
/// or an ambiguous name (`after`) whose description speaks of pages.
pub(crate) fn takes_page_token(p: &Param) -> bool {
    let name = snake_case(&p.name);
    if p.is_cursor() || TOKEN_PARAMS.contains(&name.as_str()) {
        return true;
    }
    let about_pages = p.description.as_deref().is_some_and(|d| {
        let d = d.to_ascii_lowercase();
        ["page", "cursor", "continu"].iter().any(|w| d.contains(w))
    });
    MAYBE_TOKEN_PARAMS.contains(&name.as_str()) && p.ty == TypeClass::String && about_pages
}

/// Whether a parameter takes a numbered position (`offset`, `page`).
pub(crate) fn takes_offset(p: &Param) -> bool {
    OFFSET_PARAMS.contains(&snake_case(&p.name).as_str())
        && matches!(p.ty, TypeClass::Integer | TypeClass::Number)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_tokens_by_other_names() {
        for name in ["pageToken", "page_token", "continuation", "starting_after", "cursor"] {
            assert!(takes_page_token(&Param::new(name, TypeClass::String)), "{name}");
        }
        let after = |doc: &str| Param {
            description: Some(doc.to_string()),
            ..Param::new("after", TypeClass::String)
        };
        assert!(takes_page_token(&after("An id from the previous page.")));
        assert!(!takes_page_token(&after("Only events after this time (RFC 3339).")));
    }

    #[test]
    fn page_markers_in_either_case() {
        for name in ["nextPageToken", "has_more", "hasMore", "next_cursor", "pageInfo"] {
            assert!(is_page_marker(name), "{name}");
        }
        assert!(!is_page_marker("items"));
    }

    #[test]
    fn an_offset_is_a_number() {
        assert!(takes_offset(&Param::new("offset", TypeClass::Integer)));
        assert!(!takes_offset(&Param::new("page", TypeClass::String)));
    }
}
