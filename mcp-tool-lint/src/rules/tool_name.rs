//! `tool_name`: a tool name outside `^[a-z][a-z0-9_]{0,63}$`, or one that does not start with
//! a verb.

use super::{Rule, ToolCx};
use crate::rules::vague_name::is_vague_tool_name;
use crate::text::identifiers::snake_case;
use crate::text::verbs::is_verb;
use crate::{Finding, Lint, Target};

pub(crate) const RULE: Rule = Rule {
    tool: Some(check),
    ..Rule::NONE
};

fn check(cx: &ToolCx<'_>, out: &mut Vec<Finding>) {
    let name = cx.tool.name.as_str();
    let first = name.split('_').next().unwrap_or("");
    if !is_valid_tool_name(name) {
        let fixed = snake_case(name);
        // The suggestion must pass the verb-first check too, or following it fails again.
        let fixed = if fixed.is_empty() {
            "get_..".to_string()
        } else if !is_verb(fixed.split('_').next().unwrap_or("")) {
            format!("get_{fixed}").chars().take(64).collect()
        } else {
            fixed
        };
        out.push(Finding::new(
            Lint::ToolName,
            Target::ToolName,
            format!("`{name}` is not a valid tool name: it must match `^[a-z][a-z0-9_]{{0,63}}$`"),
            format!("use lowercase snake_case that starts with a verb, e.g. `{fixed}`"),
        ));
    } else if !is_verb(first) && !is_vague_tool_name(name) {
        out.push(Finding::new(
            Lint::ToolName,
            Target::ToolName,
            format!("`{name}` does not start with a verb: a model picks tools by what they do"),
            format!("start the name with what the tool does, e.g. `get_{name}`, `list_{name}` or `search_{name}`"),
        ));
    }
}

/// `^[a-z][a-z0-9_]{0,63}$`.
pub(crate) fn is_valid_tool_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= 64
        && bytes[0].is_ascii_lowercase()
        && bytes
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_name_syntax() {
        assert!(is_valid_tool_name("get_x1"));
        assert!(is_valid_tool_name(&format!("g{}", "e".repeat(63))));
        assert!(!is_valid_tool_name(&format!("g{}", "e".repeat(64))));
        assert!(!is_valid_tool_name("get-x"));
        assert!(!is_valid_tool_name(""));
    }
}
