//! `tool_name`: a tool name that clients may refuse or rename, or one that says neither what
//! the tool does nor what it answers.
//!
//! Syntax: a letter, then letters, digits, `_` or `-`, 64 characters at most. That is what
//! every major client accepts (OpenAI and Anthropic allow `^[a-zA-Z0-9_-]{1,64}$`; the MCP
//! specification also allows `.`, which they refuse). Upper case is sound on the wire
//! (`API-post-search`, `getUser`); a server that mixes spellings is `mcp-tool-lint`'s
//! catalog-wide `inconsistent_naming`, not a fault of one name.
//!
//! Meaning: the name must contain an action or name a report. Any `_`/`-` segment may be the
//! verb, so namespaced names pass (`github_create_issue`, `slack_post_message`,
//! `browser_navigate`, `issue_read`); verbs are known by a list and by their shape
//! (`reindex`, `unarchive`, `vectorize`, `listing`). A name without a verb passes when its
//! last word names what the tool answers with (`git_status`, `directory_tree`,
//! `session_summary`) or is a plural, which reads as the list of those things
//! (`browser_tabs`). What fails is a bare object (`session`, `jira_issue`,
//! `customer_account`): nothing says whether the tool reads it, creates it or deletes it.

use super::{Rule, ToolCx};
use crate::rules::vague_name::is_vague_tool_name;
use crate::text::identifiers::snake_case;
use crate::text::verbs::is_verb;
use crate::{Finding, Lint, Target};

pub(crate) const RULE: Rule = Rule {
    tool: Some(check),
    ..Rule::NONE
};

/// Last words that name what a verb-less tool answers with: the name then reads as a query.
const REPORT_NOUNS: &[&str] = &[
    "status",
    "summary",
    "summaries",
    "tree",
    "info",
    "details",
    "history",
    "stats",
    "statistics",
    "overview",
    "snapshot",
    "report",
    "count",
    "metrics",
    "usage",
    "health",
    "version",
    "time",
    "now",
    "me",
    "diff",
    "log",
    "logs",
    "changes",
    "results",
    "suggestions",
    "advisors",
    "recommendations",
];

fn check(cx: &ToolCx<'_>, out: &mut Vec<Finding>) {
    let name = cx.tool.name.as_str();
    if !is_valid_tool_name(name) {
        let fixed = snake_case(name);
        // The suggestion must pass the meaning check too, or following it fails again.
        let fixed = if fixed.is_empty() {
            "get_..".to_string()
        } else if !says_what_it_does(&fixed) {
            format!("get_{fixed}").chars().take(64).collect()
        } else {
            fixed
        };
        out.push(Finding::new(
            Lint::ToolName,
            Target::ToolName,
            format!("`{name}` is not a valid tool name: it must match `^[A-Za-z][A-Za-z0-9_-]{{0,63}}$`"),
            format!("use lowercase snake_case that says what the tool does, e.g. `{fixed}`"),
        ));
    } else if !says_what_it_does(name) && !is_vague_tool_name(name) {
        out.push(Finding::new(
            Lint::ToolName,
            Target::ToolName,
            format!("`{name}` names an object but no action: a model picks tools by what they do"),
            format!("say what the tool does with it, e.g. `get_{name}`, `list_{name}` or `delete_{name}`"),
        ));
    }
}

/// `^[A-Za-z][A-Za-z0-9_-]{0,63}$`.
pub(crate) fn is_valid_tool_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= 64
        && bytes[0].is_ascii_alphabetic()
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
}

/// Some segment is a verb, or the last one names a report or a list (see the module doc).
fn says_what_it_does(name: &str) -> bool {
    // `snake_case` splits camelCase too, so `getUser` and `API-post-search` read as words.
    let name = snake_case(name);
    let segments: Vec<&str> = name.split(['_', '-']).filter(|s| !s.is_empty()).collect();
    // A plural reads as the list of those things: `browser_tabs`, `console_messages`.
    let plural = |s: &str| s.len() > 3 && s.ends_with('s') && !s.ends_with("ss");
    segments.iter().any(|s| is_verb(s))
        || segments
            .last()
            .is_some_and(|s| REPORT_NOUNS.contains(s) || plural(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_name_syntax() {
        assert!(is_valid_tool_name("get_x1"));
        assert!(is_valid_tool_name("get-x"));
        assert!(is_valid_tool_name(&format!("g{}", "e".repeat(63))));
        assert!(!is_valid_tool_name(&format!("g{}", "e".repeat(64))));
        assert!(is_valid_tool_name("getX"));
        assert!(is_valid_tool_name("API-get-users"));
        for bad in ["", "1st_tool", "files.read", "get x", "tools:search", "créer"] {
            assert!(!is_valid_tool_name(bad), "{bad}");
        }
    }

    #[test]
    fn namespaced_and_object_first_names_say_what_they_do() {
        for name in [
            "github_create_issue",
            "slack_post_message",
            "browser_navigate",
            "git_status",
            "issue_read",
            "actions_list",
            "directory_tree",
            "get-sum",
            "k8s_get_pods",
            "reindex_documents",
            "sequentialthinking",
            "vectorize_text",
            "browser_tabs",
            "git_checkout",
        ] {
            assert!(says_what_it_does(name), "{name}");
        }
        for name in ["session", "jira_issue", "customer_account", "weather"] {
            assert!(!says_what_it_does(name), "{name}");
        }
    }
}
