//! `inconsistent_naming`: a tool name that breaks the convention the rest of its server
//! follows, so a model that learned the pattern from the others misreads or misses it.
//! Two conventions are checked:
//!
//! - the case style (`snake_case`, `camelCase`, `kebab-case`, `PascalCase`): a tool whose
//!   style differs from the server's most common one. One-word lower-case names (`echo`) fit
//!   every style and are never counted.
//! - the namespace prefix: a first word that more than half of the tools (and at least
//!   [`MIN_PREFIXED`]) start with, that is not a verb, and that a tool lacks (`browser_click`,
//!   `browser_type` ... and `wait_for`). A shared leading verb (`get_`, `list_`) is a habit
//!   of verbs, not a namespace.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::catalog::tool_name;
use crate::check::Finding;
use crate::rules::words::name_words;

/// The lint's name.
pub const NAME: &str = "inconsistent_naming";

/// A namespace prefix is counted only when at least this many tools share it.
pub const MIN_PREFIXED: usize = 3;

/// Verbs that often lead tool names: a first word shared because tools start with a verb is
/// not a namespace.
const VERBS: &[&str] = &[
    "get", "list", "set", "create", "update", "delete", "remove", "add", "read", "write", "search",
    "find", "fetch", "run", "start", "stop", "open", "close", "edit", "move", "copy", "send",
    "check", "query", "describe", "show", "make", "put", "post", "patch", "insert", "upload",
    "download", "execute", "call", "trigger", "generate", "convert", "compute", "validate",
    "toggle", "enable", "disable", "print", "load", "save", "sync", "install",
];

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

/// The findings of both conventions, one per tool that breaks one.
pub fn check(tools: &[&Value]) -> Vec<Finding> {
    let names: Vec<&str> = tools.iter().map(|t| tool_name(t)).collect();
    let mut out = case_findings(&names);
    out.extend(prefix_findings(&names));
    out
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

fn prefix_findings(names: &[&str]) -> Vec<Finding> {
    let firsts: Vec<Option<String>> = names
        .iter()
        .map(|n| {
            let words = name_words(n);
            (words.len() >= 2).then(|| words[0].clone())
        })
        .collect();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for w in firsts.iter().flatten() {
        *counts.entry(w).or_default() += 1;
    }
    let Some((prefix, shared)) = counts
        .into_iter()
        .filter(|(w, _)| !VERBS.contains(w))
        .max_by_key(|(_, c)| *c)
    else {
        return Vec::new();
    };
    if shared < MIN_PREFIXED || shared * 2 <= names.len() || shared == names.len() {
        return Vec::new();
    }
    // A first word that other tools share too is a namespace of its own (`confluence_*` beside
    // `jira_*`): a server may have several.
    let namespace = |w: &str| {
        !VERBS.contains(&w) && firsts.iter().flatten().filter(|f| f.as_str() == w).count() >= 2
    };
    names
        .iter()
        .zip(&firsts)
        .filter(|(_, first)| first.as_deref() != Some(prefix))
        .filter(|(_, first)| !first.as_deref().is_some_and(namespace))
        .map(|(n, _)| Finding {
            level: mcp_tool_lint::Level::Advice,
            lint: NAME,
            tools: vec![n.to_string()],
            param: None,
            message: format!(
                "`{n}` lacks the `{prefix}` prefix that {shared} of this server's {} tools start with: a model that looks for the server's tools by their namespace misses it",
                names.len()
            ),
            help: format!(
                "start its name with `{prefix}` like the others (or drop the prefix everywhere); or allow it with a reason (`[tools.{n}.allow] {NAME} = \"...\"`)"
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
    fn the_tool_without_the_namespace_prefix() {
        let found = run(&[
            "browser_click",
            "browser_type",
            "browser_navigate",
            "wait_for",
        ]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, "wait_for");
        assert!(
            found[0]
                .1
                .contains("lacks the `browser` prefix that 3 of this server's 4 tools")
        );
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
