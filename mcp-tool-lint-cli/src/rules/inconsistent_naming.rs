//! `inconsistent_naming`: a tool name whose case style (`snake_case`, `camelCase`,
//! `kebab-case`, `PascalCase`) differs from the style most of its server's names follow, so
//! a model that learned the spelling from the others misspells it. One-word lower-case names
//! (`echo`) fit every style and are never counted.
//!
//! Which tools carry a namespace prefix is not checked: a model reads every name of the list,
//! and servers group tools as their domain does (`kubectl_*` beside `install_helm_chart`,
//! `jira_*` beside `confluence_*`). On servers nobody tuned the rule for, every "lacks the
//! prefix" finding was judged a false alarm.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::catalog::tool_name;
use crate::check::Finding;

/// The lint's name.
pub const NAME: &str = "inconsistent_naming";

/// A name's case style; `None` for a name that fits every style (one lower-case word).
fn style(name: &str) -> Option<&'static str> {
    let underscore = name.contains('_');
    let dash = name.contains('-');
    let upper = name.chars().any(char::is_uppercase);
    let starts_upper = name.chars().next().is_some_and(char::is_uppercase);
    Some(match (underscore, dash, upper) {
        (false, false, false) => return None,
        (true, false, false) => "snake_case",
        (false, true, false) => "kebab-case",
        (false, false, true) if starts_upper => "PascalCase",
        (false, false, true) => "camelCase",
        _ => "mixed separators and case",
    })
}

/// One finding per tool whose case style is not the server's.
pub fn check(tools: &[&Value]) -> Vec<Finding> {
    let names: Vec<&str> = tools.iter().map(|t| tool_name(t)).collect();
    case_findings(&names)
}

fn case_findings(names: &[&str]) -> Vec<Finding> {
    let styled: Vec<(&str, &str)> = names
        .iter()
        .filter_map(|n| style(n).map(|s| (*n, s)))
        .collect();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, s) in &styled {
        *counts.entry(s).or_default() += 1;
    }
    if counts.len() < 2 {
        return Vec::new();
    }
    // The most common style; on a tie, the style of the first-listed tool among the tied.
    let top = counts.values().copied().max().unwrap_or(0);
    let Some(main) = styled.iter().map(|(_, s)| *s).find(|s| counts[s] == top) else {
        return Vec::new();
    };
    styled
        .iter()
        .filter(|(_, s)| *s != main)
        .map(|(n, s)| Finding {
            level: mcp_tool_lint::Level::Advice,
            lint: NAME,
            tools: vec![n.to_string()],
            param: None,
            message: format!(
                "`{n}` is {s} while {} of this server's {} tool names are {main}: a model that learned the server's names from the others misspells this one",
                counts[main],
                styled.len()
            ),
            help: format!(
                "rename it in {main}, like the others; or allow it with a reason (`[tools.{n}.allow] {NAME} = \"...\"`)"
            ),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(names: &[&str]) -> Vec<(String, String)> {
        let tools: Vec<Value> = names.iter().map(|n| json!({"name": n})).collect();
        let refs: Vec<&Value> = tools.iter().collect();
        check(&refs)
            .into_iter()
            .map(|f| (f.tools[0].clone(), f.message))
            .collect()
    }

    #[test]
    fn the_odd_case_style_out() {
        let found = run(&["get_file", "list_files", "moveFile", "echo"]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, "moveFile");
        assert!(
            found[0]
                .1
                .contains("is camelCase while 2 of this server's 3 tool names are snake_case")
        );
    }

    #[test]
    fn a_namespace_some_tools_lack_is_no_inconsistency() {
        let names = [
            "kubectl_get",
            "kubectl_apply",
            "kubectl_logs",
            "install_helm_chart",
            "ping",
        ];
        assert!(run(&names).is_empty());
    }

    #[test]
    fn shared_verbs_one_style_and_a_full_prefix_are_consistent() {
        assert!(run(&["get_file", "get_dir", "get_tree", "list_roots"]).is_empty());
        assert!(run(&["git_status", "git_diff", "git_log"]).is_empty());
        assert!(run(&["echo", "add", "get_sum"]).is_empty());
        // Two of four is not most of them.
        assert!(run(&["repo_clone", "repo_pull", "issue_open", "issue_close"]).is_empty());
    }
}
