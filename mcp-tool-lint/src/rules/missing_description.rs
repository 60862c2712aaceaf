//! `missing_description`: a tool without a description; a parameter without one when its name
//! and schema leave the model guessing; an enum value left undocumented next to documented ones.
//!
//! Precision first: `path`, `repo_path`, `branch_name`, `context_lines = 3` explain themselves,
//! and on real servers most undocumented parameters are like them. A parameter is reported
//! when something a model needs is stated nowhere: what leaving an optional one out does, what
//! a name that holds anything (`target`, `resource_type`) holds, or the syntax of a pattern.

use super::{ParamCx, Rule, ToolCx, described, quote_list};
use crate::text::identifiers::{segments, snake_case};
use crate::text::sentences::find_word;
use crate::{Finding, Lint, Param, Target, TypeClass, Variant};

pub(crate) const RULE: Rule = Rule {
    param: Some(check_param),
    tool: Some(check_tool),
    ..Rule::NONE
};

/// Last words of a name that do not say what the value is: the same name could hold anything.
const OPEN_HEADS: &[&str] = &[
    "target",
    "type",
    "kind",
    "mode",
    "data",
    "value",
    "values",
    "val",
    "input",
    "inputs",
    "options",
    "opts",
    "param",
    "params",
    "parameters",
    "arg",
    "args",
    "arguments",
    "config",
    "configuration",
    "settings",
    "spec",
    "info",
    "payload",
    "object",
    "obj",
    "flag",
    "flags",
    "level",
    "style",
    "scope",
    "extra",
    "misc",
    "meta",
    "metadata",
];

/// Last words of a name whose value is written in some syntax that the name does not give.
const SYNTAX_HEADS: &[&str] = &[
    "pattern",
    "patterns",
    "expression",
    "expressions",
    "expr",
    "selector",
    "selectors",
    "template",
];

/// Words that, in the tool's description, say which syntax its patterns use.
const SYNTAX_NAMES: &[&str] = &[
    "glob",
    "globs",
    "regex",
    "regexes",
    "regexp",
    "regular expression",
    "wildcard",
    "syntax",
    "xpath",
    "css",
    "jsonpath",
    "jmespath",
    "jq",
    "cron",
    "sql",
];

/// Why an undocumented parameter leaves the model guessing, or `None` when its name and
/// schema say enough.
fn unexplained(param: &Param, tool_description: Option<&str>) -> Option<String> {
    let has_default =
        param.default.as_deref().is_some_and(|d| d != "null") || param.serde_default;
    let absence_open =
        !param.required && !has_default && param.ty != TypeClass::Bool && !param.is_cursor();
    unexplained_name(&param.name, absence_open, tool_description)
}

/// [`unexplained`] for any named value, parameter or nested property: `absence_open` when it
/// may be left out and nothing shows what that means (no default).
pub(crate) fn unexplained_name(
    name: &str,
    absence_open: bool,
    tool_description: Option<&str>,
) -> Option<String> {
    let words = segments(&snake_case(name));
    let head = words.last().map(String::as_str).unwrap_or_default();
    if OPEN_HEADS.contains(&head) {
        return Some(format!(
            "`{name}` has no description, and its name does not say what it holds"
        ));
    }
    if SYNTAX_HEADS.contains(&head) && !names_a_syntax(tool_description) {
        return Some(format!(
            "`{name}` has no description, and nothing says its syntax (a glob? a regex? relative to what?)"
        ));
    }
    if absence_open {
        return Some(format!(
            "`{name}` is optional and has no description: nothing says what leaving it out does"
        ));
    }
    None
}

/// The values of an enum left undocumented next to values documented on their own; empty
/// when none has a description of its own. A plain list of values (`asc`, `desc`; a JSON
/// Schema `enum`) has nowhere to put one and usually needs none: the values and the
/// parameter's doc say what they mean, and a value that doc merely names (`own_doc`, which
/// the JSON front-end copies onto it) is not documented on its own.
pub(crate) fn forgotten_values<'v>(variants: &'v [Variant], own_doc: Option<&str>) -> Vec<&'v str> {
    let own = |v: &Variant| {
        described(&v.description).is_some_and(|d| own_doc.is_none_or(|o| d != o.trim()))
    };
    if !variants.iter().any(own) {
        return Vec::new();
    }
    variants
        .iter()
        .filter(|v| described(&v.description).is_none())
        .map(|v| v.name.as_str())
        .collect()
}

/// The help of a finding on undocumented enum values.
pub(crate) const VALUES_FIX: &str = "add a doc comment on each enum variant saying when to choose it";
/// [`VALUES_FIX`] in schema terms.
pub(crate) const VALUES_SCHEMA_FIX: &str =
    "list the values as a `oneOf` of `const`s, each with a `description` saying when to choose it";

fn names_a_syntax(tool_description: Option<&str>) -> bool {
    let Some(doc) = tool_description else {
        return false;
    };
    let doc = doc.to_ascii_lowercase();
    SYNTAX_NAMES.iter().any(|s| find_word(&doc, s, 0).is_some())
}

fn check_param(cx: &ParamCx<'_>, out: &mut Vec<Finding>) {
    let name = &cx.param.name;
    if cx.doc.is_none()
        && let Some(message) = unexplained(cx.param, cx.args.tool_description.as_deref())
    {
        out.push(Finding::new(
            Lint::MissingDescription,
            cx.target,
            message,
            format!("add a doc comment on `{name}` saying what the value is, how the tool uses it, and what an absent value means"),
        ).with_schema_fix(format!(
            "give `{name}` a `description`: what the value is, how the tool uses it, and what an absent value means"
        )));
    }
    if let TypeClass::Enum { variants } = &cx.param.ty {
        let forgotten = forgotten_values(variants, cx.doc);
        if !forgotten.is_empty() {
            out.push(Finding::new(
                Lint::MissingDescription,
                cx.target,
                format!(
                    "the values of `{name}` have no description: {}",
                    quote_list(&forgotten)
                ),
                VALUES_FIX,
            ).with_schema_fix(VALUES_SCHEMA_FIX));
        }
    }
}

fn check_tool(cx: &ToolCx<'_>, out: &mut Vec<Finding>) {
    if cx.doc.is_none() {
        out.push(Finding::new(
            Lint::MissingDescription,
            Target::ToolDescription,
            format!("the tool `{}` has no description", cx.tool.name),
            "add a doc comment on the fn: what the tool returns, when to use it, and which tool to call next",
        ).with_schema_fix("give the tool a `description`: what it returns, when to use it, and which tool to call next"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &str, ty: TypeClass, required: bool, default: Option<&str>) -> Param {
        Param {
            required,
            default: default.map(str::to_string),
            ..Param::new(name, ty)
        }
    }

    #[test]
    fn names_that_say_what_they_hold_need_no_description() {
        for name in ["path", "repo_path", "branch_name", "content", "revision", "files"] {
            assert_eq!(unexplained(&param(name, TypeClass::String, true, None), None), None, "{name}");
        }
        let lines = param("context_lines", TypeClass::Integer, false, Some("3"));
        assert_eq!(unexplained(&lines, None), None);
    }

    #[test]
    fn open_names_need_one_in_snake_and_camel_case() {
        for name in ["target", "resourceType", "event_kind", "data", "outputMode"] {
            assert!(unexplained(&param(name, TypeClass::String, true, None), None).is_some(), "{name}");
        }
    }

    #[test]
    fn an_optional_value_needs_to_say_what_leaving_it_out_does() {
        let base = param("base_branch", TypeClass::String, false, Some("null"));
        assert!(unexplained(&base, None).unwrap().contains("leaving it out"));
        let since = param("since", TypeClass::String, false, None);
        assert!(unexplained(&since, None).is_some());
        let recursive = param("recursive", TypeClass::Bool, false, None);
        assert_eq!(unexplained(&recursive, None), None);
    }

    #[test]
    fn a_pattern_is_explained_by_a_tool_description_that_names_its_syntax() {
        let excludes = param(
            "excludePatterns",
            TypeClass::Array(Box::new(TypeClass::String)),
            false,
            Some("[]"),
        );
        assert!(unexplained(&excludes, Some("Get a recursive tree view of files.")).is_some());
        assert_eq!(
            unexplained(&excludes, Some("The patterns should be glob-style patterns.")),
            None
        );
    }
}
