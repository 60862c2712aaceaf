//! `unannotated_destructive`: a catalog in which no tool declares a behaviour hint while some
//! tools' verbs destroy (`delete_issue`, `purge_cache`) and others only read (`get_issue`).
//!
//! The MCP specification gives an unannotated tool the defaults `readOnlyHint: false` and
//! `destructiveHint: true`: to a client every tool of such a catalog may destroy, the one
//! that lists issues as much as the one that deletes them. A client then asks the user before
//! every call or before none, and cannot tell the deletions apart. The evidence is structural
//! (no `annotations` hint anywhere) and the tool's verb, counted as destructive only when it
//! cannot mean anything else: `delete`, `destroy`, `purge`, `erase`, `wipe`, ... (`drop`,
//! `clear` and `reset` have harmless senses: drag and drop, a cleared filter, a reset zoom).

use serde_json::Value;

use crate::catalog::tool_name;
use crate::check::Finding;
use crate::rules::words::name_words;

/// The lint's name.
pub const NAME: &str = "unannotated_destructive";

/// Verbs that always destroy or overwrite state.
const DESTRUCTIVE_VERBS: &[&str] = &[
    "delete",
    "remove",
    "destroy",
    "purge",
    "erase",
    "wipe",
    "truncate",
    "overwrite",
    "uninstall",
    "unlink",
    "revoke",
    "terminate",
    "discard",
    "kill",
    "rm",
    "del",
];

/// Verbs that only read.
const READ_VERBS: &[&str] = &[
    "get", "list", "search", "find", "read", "fetch", "query", "show", "describe", "view",
    "inspect", "lookup", "count",
];

/// The MCP behaviour hints.
const HINTS: &[&str] = &[
    "readOnlyHint",
    "destructiveHint",
    "idempotentHint",
    "openWorldHint",
];

/// A tool's verb: the first word of its name that is one (`github_delete_issue`: `delete`).
fn verb(name: &str) -> Option<String> {
    name_words(name)
        .into_iter()
        .map(|w| w.to_lowercase())
        .find(|w| {
            DESTRUCTIVE_VERBS.contains(&w.as_str())
                || READ_VERBS.contains(&w.as_str())
                || mcp_tool_lint::is_verb(w)
        })
}

fn hinted(tool: &Value) -> bool {
    tool.get("annotations")
        .and_then(Value::as_object)
        .is_some_and(|a| {
            HINTS
                .iter()
                .any(|h| a.get(*h).is_some_and(Value::is_boolean))
        })
}

/// The finding on a catalog whose destructive tools nothing tells apart from its readers.
pub fn check(tools: &[&Value]) -> Option<Finding> {
    if tools.iter().any(|t| hinted(t)) {
        return None;
    }
    let verbs: Vec<(&str, Option<String>)> = tools
        .iter()
        .map(|t| (tool_name(t), verb(tool_name(t))))
        .collect();
    let destructive: Vec<&str> = verbs
        .iter()
        .filter(|(_, v)| v.as_deref().is_some_and(|v| DESTRUCTIVE_VERBS.contains(&v)))
        .map(|(n, _)| *n)
        .collect();
    let reads = verbs
        .iter()
        .any(|(_, v)| v.as_deref().is_some_and(|v| READ_VERBS.contains(&v)));
    if destructive.is_empty() || !reads {
        return None;
    }
    let named = destructive
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ");
    Some(Finding::catalog_advice(
        NAME,
        format!(
            "no tool declares `annotations`, so by the MCP defaults every tool may destroy: a client cannot tell the tools that only read from those that delete ({named})"
        ),
        format!(
            "declare `annotations` on every tool: `readOnlyHint: true` on those that only read, `destructiveHint: true` on {named} (and `idempotentHint` where repeating a call changes nothing); or allow it with a reason (`[allow] {NAME} = \"...\"`)"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(tools: &[Value]) -> Option<Finding> {
        check(&tools.iter().collect::<Vec<_>>())
    }

    #[test]
    fn destructive_and_reading_tools_without_any_hint_fire() {
        let tools = [
            json!({"name": "get_issue"}),
            json!({"name": "github_delete_issue"}),
            json!({"name": "purgeCache", "annotations": {"title": "Purge"}}),
        ];
        let f = run(&tools).unwrap();
        assert_eq!(f.lint, NAME);
        assert!(f.tools.is_empty());
        assert!(
            f.message.contains("`github_delete_issue`, `purgeCache`"),
            "{}",
            f.message
        );
    }

    #[test]
    fn a_hint_anywhere_or_no_destructive_verb_is_silent() {
        // One tool with a hint: the server speaks the vocabulary.
        assert!(
            run(&[
                json!({"name": "get_issue", "annotations": {"readOnlyHint": true}}),
                json!({"name": "delete_issue"}),
            ])
            .is_none()
        );
        // Verbs with harmless senses, or nothing that only reads.
        assert!(
            run(&[
                json!({"name": "browser_drop"}),
                json!({"name": "list_tabs"})
            ])
            .is_none()
        );
        assert!(run(&[json!({"name": "reset_zoom"}), json!({"name": "get_page"})]).is_none());
        assert!(
            run(&[
                json!({"name": "delete_issue"}),
                json!({"name": "create_issue"})
            ])
            .is_none()
        );
        // The verb is the first word that is one: `list_deleted_items` lists.
        assert!(
            run(&[
                json!({"name": "list_deleted_items"}),
                json!({"name": "get_item"})
            ])
            .is_none()
        );
    }
}
