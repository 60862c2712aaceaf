//! `missing_description`: a tool or parameter without a doc comment, or an enum value left
//! undocumented next to documented ones.

use super::{ParamCx, Rule, ToolCx, described, quote_list};
use crate::{Finding, Lint, Target, TypeClass};

pub(crate) const RULE: Rule = Rule {
    param: Some(check_param),
    tool: Some(check_tool),
    ..Rule::NONE
};

fn check_param(cx: &ParamCx<'_>, out: &mut Vec<Finding>) {
    let name = &cx.param.name;
    if cx.doc.is_none() {
        out.push(Finding::new(
            Lint::MissingDescription,
            cx.target,
            format!("`{name}` has no description"),
            format!(
                "add a doc comment on `{name}` saying what the value is and how the tool uses it"
            ),
        ));
    }
    if let TypeClass::Enum { variants } = &cx.param.ty {
        let undocumented: Vec<&str> = variants
            .iter()
            .filter(|v| described(&v.description).is_none())
            .map(|v| v.name.as_str())
            .collect();
        // A plain list of values (`asc`, `desc`; a JSON Schema `enum`) has nowhere to put a
        // description and usually needs none: the values and the parameter's doc say what
        // they mean. Values left undocumented next to documented ones were forgotten.
        let some_documented = undocumented.len() < variants.len();
        if !undocumented.is_empty() && some_documented {
            out.push(Finding::new(
                Lint::MissingDescription,
                cx.target,
                format!(
                    "the values of `{name}` have no description: {}",
                    quote_list(&undocumented)
                ),
                "add a doc comment on each enum variant saying when to choose it",
            ));
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
        ));
    }
}
