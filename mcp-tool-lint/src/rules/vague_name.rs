//! `vague_name`: parameter names that say how the implementation uses a value instead of what
//! it is (`data`, `pattern`), and tool names made only of words that say nothing (`do_it`).

use super::{ParamCx, Rule, ToolCx};
use crate::text::identifiers::{is_clipped, segments};
use crate::{Finding, Lint, Origin, Target, TypeClass};

pub(crate) const RULE: Rule = Rule {
    param: Some(check_param),
    tool: Some(check_tool),
    ..Rule::NONE
};

fn check_param(cx: &ParamCx<'_>, out: &mut Vec<Finding>) {
    let name = &cx.param.name;
    if let Some(suggestion) = vague_param_name(name)
        && !made_precise(cx)
    {
        out.push(Finding::new(
            Lint::VagueName,
            cx.target,
            format!("`{name}` names how the implementation uses the value, not what the value is"),
            format!("rename it to say what the value is: {suggestion}"),
        ));
    } else if cx.args.origin == Origin::Code && is_clipped(name) && !made_precise(cx) {
        out.push(Finding::new(
            Lint::VagueName,
            cx.target,
            format!("`{name}` is an abbreviation: a model has to guess the word it stands for"),
            "spell the word out (`query` for `q`, `count` for `cnt`, `message` for `msg`)",
        ));
    }
}


fn check_tool(cx: &ToolCx<'_>, out: &mut Vec<Finding>) {
    let name = &cx.tool.name;
    if is_vague_tool_name(name) {
        out.push(Finding::new(
            Lint::VagueName,
            Target::ToolName,
            format!("`{name}` does not say what the tool does"),
            "name the action and its object, e.g. `search_orders`, `get_invoice_summary`",
        ));
    }
}

/// Parameter names that say how the implementation uses a value instead of what it is, with
/// the rename to suggest.
const VAGUE_PARAMS: &[(&str, &str)] = &[
    (
        "pattern",
        "`query` for text to look for, `regex` only if it is one, `glob` for file globs",
    ),
    ("data", "what the data is (`event`, `rows`, `document`)"),
    (
        "input",
        "what the input is (`source_code`, `prompt`, `file_path`)",
    ),
    (
        "value",
        "what the value is (`threshold`, `new_title`, `setting_value`)",
    ),
    ("val", "what the value is (`threshold`, `new_title`)"),
    (
        "flag",
        "what it turns on (`include_archived`, `case_sensitive`)",
    ),
    ("params", "the parameters themselves, as separate fields"),
    ("param", "what the parameter is"),
    (
        "parameters",
        "the parameters themselves, as separate fields",
    ),
    ("args", "the arguments themselves, as separate fields"),
    ("arg", "what the argument is"),
    ("arguments", "the arguments themselves, as separate fields"),
    ("options", "the options themselves, as separate fields"),
    ("opts", "the options themselves, as separate fields"),
    ("obj", "what the object is (`event`, `session`)"),
    ("object", "what the object is (`event`, `session`)"),
    ("item", "what the item is (`event`, `session`, `file_path`)"),
    (
        "info",
        "what the information is (`session_summary`, `error_details`)",
    ),
    ("payload", "what the payload is (`message_body`, `event`)"),
    ("json", "what the JSON holds (`filter`, `document`)"),
    ("str", "what the text is (`title`, `message`, `query`)"),
    ("string", "what the text is (`title`, `message`, `query`)"),
    ("s", "what the text is (`title`, `message`, `query`)"),
    ("x", "what the value is"),
    ("y", "what the value is"),
    ("tmp", "what the value is"),
    ("temp", "what the value is (`temperature`?)"),
    ("thing", "what the thing is"),
    ("stuff", "what the values are"),
    ("misc", "what the values are"),
    ("foo", "what the value is"),
    ("bar", "what the value is"),
    (
        "blob",
        "what the content is (`file_content`, `image_png_base64`)",
    ),
];

fn vague_param_name(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    // `data2`, `input_1`: numbering does not make a vague name precise.
    let stem = lower
        .trim_end_matches(|c: char| c.is_ascii_digit())
        .trim_end_matches('_');
    VAGUE_PARAMS
        .iter()
        .find(|(n, _)| *n == stem)
        .map(|(_, s)| *s)
}

/// Siblings a `value` belongs to: `name` and `value` of a variable, `selector` and `value`
/// of a form field.
const VALUE_OWNERS: &[&str] = &[
    "key", "name", "selector", "field", "element", "variable", "option", "attribute",
    "setting", "property", "ref", "header", "label", "path",
];

/// Syntaxes a `pattern` may be in; a doc naming exactly one says what the pattern is.
const PATTERN_SYNTAXES: &[&[&str]] = &[
    &["glob", "wildcard"],
    &["regex", "regular expression", "regexp"],
    &["substring", "literal", "plain text", "exact text"],
];

/// A vague name that its context makes precise: `value` next to the `name` or `selector` it
/// is the value of, `x` next to `y`, a `pattern` whose doc (or the tool's) names one syntax,
/// documented `data` that is an object (a drag-and-drop's MIME type to value map: the schema
/// shows it is no text, where a string `data` could be a URL as well as the content).
fn made_precise(cx: &ParamCx<'_>) -> bool {
    let names = cx.names;
    let lower = cx.param.name.to_ascii_lowercase();
    // Another server's schema: a parameter's own description says what the value is, and the
    // name is theirs to keep (a chart's `data`, git's `object`, a command's `args`). Not a
    // `pattern`, whose doc must still say which syntax (below). The macros still ask an author
    // to rename it: the name is theirs to choose.
    if cx.args.origin == Origin::Schema
        && lower != "pattern"
        && cx.doc.is_some_and(|d| !d.trim().is_empty())
    {
        return true;
    }
    let has = |other: &str| names.iter().any(|n| n.eq_ignore_ascii_case(other));
    if lower == "data" && cx.param.ty == TypeClass::Object && cx.doc.is_some() {
        return true;
    }
    match lower.as_str() {
        "value" | "val" => names.iter().any(|n| {
            let n = n.to_ascii_lowercase();
            VALUE_OWNERS
                .iter()
                .any(|o| n == *o || n.ends_with(&format!("_{o}")))
        }),
        "x" => has("y"),
        "y" => has("x"),
        "pattern" => {
            let own = cx.doc.map(names_one_syntax);
            own.unwrap_or_else(|| cx.args.tool_description.as_deref().is_some_and(names_one_syntax))
        }
        _ => false,
    }
}

/// Whether a doc names exactly one pattern syntax.
fn names_one_syntax(doc: &str) -> bool {
    let d = doc.to_ascii_lowercase();
    PATTERN_SYNTAXES
        .iter()
        .filter(|words| words.iter().any(|w| d.contains(w)))
        .count()
        == 1
        // "Regex or text": a plain-text alternative makes it ambiguous again.
        && !d.contains(" or text")
}

/// Tool-name segments that say nothing about what the tool does.
const VAGUE_TOOL_WORDS: &[&str] = &[
    "do",
    "it",
    "handle",
    "handler",
    "process",
    "run",
    "execute",
    "exec",
    "manage",
    "tool",
    "tools",
    "helper",
    "helpers",
    "misc",
    "util",
    "utils",
    "utility",
    "invoke",
    "call",
    "perform",
    "action",
    "task",
    "operation",
    "op",
    "thing",
    "stuff",
    "data",
    "request",
    "input",
    "main",
    "go",
    "this",
    "that",
    "something",
    "generic",
    "general",
    "api",
    "function",
    "func",
    "fn",
    "command",
    "cmd",
];

/// A tool name made only of vague words (`do_it`, `handle`, `process_data`, `run_tool`).
pub(crate) fn is_vague_tool_name(name: &str) -> bool {
    let segs = segments(name);
    !segs.is_empty() && segs.iter().all(|s| VAGUE_TOOL_WORDS.contains(&s.as_str()))
}

