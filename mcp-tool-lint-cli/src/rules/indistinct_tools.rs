//! `indistinct_tools`: two tools of one server whose descriptions are so alike that a model
//! choosing between them cannot tell which one it needs.
//!
//! The measure is the Jaccard index of the descriptions' content words (lower-cased, without
//! function words and plural `s`): shared words over all words. It fires at [`THRESHOLD`]
//! and above, a value chosen on real catalogs for precision (see `docs/lints.md`,
//! "mcp-tool-lint on real servers"). On the seven servers measured, the only pair above 0.8
//! is `list_directory` and `list_directory_with_sizes` (0.85: one description plus
//! "including sizes"); the next ones, memory's `delete_entities` and `delete_relations`
//! (0.62) and `create_entities` and `create_relations` (0.60), differ in the one word that
//! matters and a model tells them apart. Short descriptions that differ in one noun sit
//! around 0.6-0.75, hence a threshold above them.

use serde_json::Value;

use crate::catalog::{tool_description, tool_name};
use crate::check::Finding;
use crate::rules::words::content_words;

/// The lint's name.
pub const NAME: &str = "indistinct_tools";

/// The similarity from which two descriptions are indistinct.
pub const THRESHOLD: f64 = 0.8;

/// Descriptions with fewer content words than this are not compared: two of them share most
/// of their words by chance, and saying too little is not the same fault as saying the same.
pub const MIN_WORDS: usize = 3;

/// The Jaccard index of two texts' content words, in `0.0..=1.0`; `None` when either has
/// fewer than [`MIN_WORDS`] content words.
pub fn similarity(a: &str, b: &str) -> Option<f64> {
    let (a, b) = (content_words(a), content_words(b));
    if a.len() < MIN_WORDS || b.len() < MIN_WORDS {
        return None;
    }
    let shared = a.intersection(&b).count();
    Some(shared as f64 / (a.len() + b.len() - shared) as f64)
}

/// Every pair of tools (in catalog order) with its similarity, for measuring the threshold.
pub fn pairs<'a>(tools: &[&'a Value]) -> Vec<(&'a str, &'a str, f64)> {
    let mut out = Vec::new();
    for (i, a) in tools.iter().enumerate() {
        for b in &tools[i + 1..] {
            let (Some(da), Some(db)) = (tool_description(a), tool_description(b)) else {
                continue;
            };
            if let Some(s) = similarity(da, db) {
                out.push((tool_name(a), tool_name(b), s));
            }
        }
    }
    out
}

/// Whether the names already tell the two apart: their words differ (`get_block_children`
/// and `patch_block_children`, `create_issue` and `create_branch`, `expire` and `sadd`, and
/// `list_directory` beside `list_directory_with_sizes`, whose added words say what it adds).
/// A model reads the names first; alike descriptions leave it guessing only between names of
/// the same words (`search_files`, `files_search`). On the development set every pair of
/// alike descriptions whose names differed in any word but one was judged told apart.
fn told_apart_by_name(a: &str, b: &str) -> bool {
    let words = |n: &str| {
        let mut w = super::words::name_words(n);
        w.sort();
        w.dedup();
        w
    };
    words(a) != words(b)
}

/// A finding for every pair at or above [`THRESHOLD`] whose names do not tell them apart.
pub fn check(tools: &[&Value]) -> Vec<Finding> {
    pairs(tools)
        .into_iter()
        .filter(|(_, _, s)| *s >= THRESHOLD)
        .filter(|(a, b, _)| !told_apart_by_name(a, b))
        .map(|(a, b, s)| Finding {
            level: mcp_tool_lint::Level::Advice,
            lint: NAME,
            tools: vec![a.to_string(), b.to_string()],
            param: None,
            message: format!(
                "`{a}` and `{b}` have descriptions that share {:.0}% of their words: a model choosing between them cannot tell which one it needs",
                s * 100.0
            ),
            help: format!(
                "say in each description what sets it apart and when to use the other one, or merge the two tools; or allow it with a reason (`[tools.{a}.allow] {NAME} = \"...\"`)"
            ),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_same_description_in_other_words_order_is_indistinct() {
        let s = similarity(
            "Read the complete contents of a file from the file system.",
            "Read a file's complete contents from the file system.",
        )
        .unwrap();
        assert!(s >= THRESHOLD, "{s}");
    }

    #[test]
    fn tools_on_one_subject_that_say_what_differs_are_not() {
        let s = similarity(
            "Read the complete contents of a text file as text.",
            "Read an image or audio file and return its base64 data and MIME type.",
        )
        .unwrap();
        assert!(s < THRESHOLD, "{s}");
    }

    #[test]
    fn short_descriptions_are_not_compared() {
        assert_eq!(similarity("Get time.", "Get time."), None);
    }

    #[test]
    fn a_finding_names_both_tools() {
        let a = json!({"name": "read_file", "description": "Read the complete contents of a file from disk."});
        let b = json!({"name": "file_read", "description": "Read the complete contents of a file from disk as text."});
        let c = json!({"name": "get_time", "description": "The current time in a time zone."});
        let found = check(&[&a, &b, &c]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].tools, ["read_file", "file_read"]);
    }

    #[test]
    fn names_of_other_words_tell_tools_apart() {
        let tool = |name: &str| json!({"name": name, "description": "Create a new item in a GitLab project."});
        let (repo, issue, labelled) = (
            tool("create_repository"),
            tool("create_issue"),
            tool("create_issue_with_labels"),
        );
        assert!(check(&[&repo, &issue, &labelled]).is_empty());
        let (a, b) = (tool("search_files"), tool("files_search"));
        assert_eq!(check(&[&a, &b]).len(), 1);
    }
}
