//! `tool_name`: a tool name that clients may refuse or rename, everywhere; and in the author's
//! own code, one that breaks the project's naming rule.
//!
//! Syntax: a letter, then letters, digits, `_` or `-`, 64 characters at most. That is what
//! every major client accepts (OpenAI and Anthropic allow `^[a-zA-Z0-9_-]{1,64}$`; the MCP
//! specification also allows `.`, which they refuse). On another server's schema that is all:
//! its case style, its namespaces and its domain's command names (`hset`, `lpush`) are its
//! own, and a model reads the description beside them.
//!
//! In code ([`code_name_fault`]): lowercase snake_case that starts with a verb, after an
//! optional namespace prefix (the tool's family, or a prefix before verb and object as in
//! `github_create_issue`), or that names the report it answers (`session_summary`). Verbs are
//! known by a list, by their shape (`reindex`, `unarchive`, `vectorize`, `listing`) and by the
//! tool's own description using the word as one (`greet_person`: "Greets a person by name.").
//! [`says_what_it_does`], the looser reading (any segment a verb, or a plural last word),
//! decides whether the fix suggested for a malformed name needs a verb in front.

use super::{Rule, ToolCx};
use crate::text::identifiers::snake_case;
use crate::text::verbs::is_verb;
use crate::{Finding, Lint, Origin, Target};

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
    } else if cx.tool.origin == Origin::Schema {
        // Another server's name: its case style, its namespace and its domain's vocabulary
        // (`hset`, `lpush`) are its own, and a model reads the description beside it. Only
        // what clients refuse is a fault.
    } else if let Some(why) = code_name_fault(
        name,
        cx.tool.family.as_deref(),
        cx.tool.description.as_deref(),
    ) {
        out.push(Finding::new(
            Lint::ToolName,
            Target::ToolName,
            format!("`{name}` {why}"),
            format!(
                "name it lowercase snake_case, verb first (after an optional namespace prefix): {}",
                code_name_suggestion(name)
            ),
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

/// What is wrong with the author's own tool name, by the rule the README states: lowercase
/// snake_case (`^[a-z][a-z0-9_]{0,63}$`) that starts with what the tool does, a verb, after
/// an optional namespace prefix (`github_create_issue`, or `browser_navigate` in family
/// `browser`), or that names the report it answers (`session_summary`, `git_status`). `None`
/// when the name follows it.
fn code_name_fault(
    name: &str,
    family: Option<&str>,
    description: Option<&str>,
) -> Option<&'static str> {
    let snake = !name.is_empty()
        && name.as_bytes()[0].is_ascii_lowercase()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
    if !snake {
        return Some("is not lowercase snake_case: the tools a model sees side by side should read alike");
    }
    let segments: Vec<&str> = name.split('_').filter(|s| !s.is_empty()).collect();
    let first_is_verb = segments.first().is_some_and(|s| is_verb(s))
        || description_acts_out(name, description);
    let family_prefix = family.is_some_and(|f| segments.first() == Some(&f))
        && segments.get(1).is_some_and(|s| is_verb(s));
    let namespaced_verb = segments.len() >= 3 && segments.get(1).is_some_and(|s| is_verb(s));
    let report = segments.len() >= 2 && segments.last().is_some_and(|s| REPORT_NOUNS.contains(s));
    if first_is_verb || family_prefix || namespaced_verb || report {
        None
    } else if segments.iter().any(|s| is_verb(s)) {
        Some("puts the object before the action: a model scans tool names for what they do")
    } else {
        Some("names an object but no action: a model picks tools by what they do")
    }
}

/// Words that can only begin a noun phrase: after a tool description's first word, they
/// show that word to be a verb acting on it ("Greets a person", "Translate the text").
const DETERMINERS: &[&str] = &[
    "a", "an", "the", "one", "all", "each", "every", "some", "any", "this", "that", "these",
    "those", "its", "their", "your", "his", "her", "our", "my", "someone", "something",
];

/// Whether the tool's own description opens with its name's first word used as a verb, in
/// the imperative or third person (`greet_person`: "Greets a person by name."): the author has
/// said it is an action, which no list of verbs can know of every word. Only a determiner
/// after it counts, since a noun opens descriptions too ("Tasks on the board").
fn description_acts_out(name: &str, description: Option<&str>) -> bool {
    let Some(first) = name.split('_').find(|s| !s.is_empty()) else {
        return false;
    };
    let mut words = description
        .unwrap_or("")
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase());
    let (Some(opener), Some(next)) = (words.next(), words.next()) else {
        return false;
    };
    let inflected = opener == first
        || opener.strip_suffix('s') == Some(first)
        || opener.strip_suffix("es") == Some(first)
        || (first.ends_with('y') && opener.strip_suffix("ies") == first.strip_suffix('y'));
    inflected && DETERMINERS.contains(&next.as_str())
}

/// The fix for a name [`code_name_fault`] refuses: the snake_case spelling, with its verb
/// moved first when it has one (`issue_create` -> `create_issue`), else three verbs to choose.
fn code_name_suggestion(name: &str) -> String {
    let fixed = snake_case(name);
    let segments: Vec<&str> = fixed.split('_').filter(|s| !s.is_empty()).collect();
    if let Some(i) = segments.iter().position(|s| is_verb(s)) {
        let mut reordered = vec![segments[i]];
        reordered.extend(segments.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, s)| *s));
        return format!("`{}`", reordered.join("_"));
    }
    format!("e.g. `get_{fixed}`, `list_{fixed}` or `create_{fixed}`")
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

    #[test]
    fn the_authors_own_names_are_snake_case_and_verb_first() {
        for name in [
            "list_sessions",
            "github_create_issue",
            "get_session_summary",
            "session_summary",
            "git_status",
            "reindex_documents",
        ] {
            assert_eq!(code_name_fault(name, None, None), None, "{name}");
        }
        for name in [
            "listSessions",
            "list-sessions",
            "issue_create",
            "sessions",
            "session",
            "Get_session",
        ] {
            assert!(code_name_fault(name, None, None).is_some(), "{name}");
        }
        // A first word the description uses as a verb is one, list or not; a noun is not.
        for (name, doc) in [
            ("greet_person", "Greets a person by name."),
            ("greet_person", "Greet someone, by name."),
            ("tally_votes", "Tallies the votes of a poll."),
            ("brew_coffee", "Brews a pot of coffee."),
        ] {
            assert!(code_name_fault(name, None, None).is_some(), "{name}: not in the list");
            assert_eq!(code_name_fault(name, None, Some(doc)), None, "{name}: {doc}");
        }
        for (name, doc) in [
            ("task_list", "Task list of the board."),
            ("tasks", "Tasks on the board, oldest first."),
            ("weather", "Weather for a city."),
            ("person_greet", "Greets a person."),
            ("greet_person", ""),
        ] {
            assert!(code_name_fault(name, None, Some(doc)).is_some(), "{name}: {doc}");
        }
        // A first word that is the tool's family is its namespace.
        assert_eq!(code_name_fault("browser_navigate", Some("browser"), None), None);
        assert!(code_name_fault("browser_navigate", Some("trace"), None).is_some());
    }
}
