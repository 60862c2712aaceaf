//! Word-level helpers shared by the catalog rules: splitting names and descriptions into words.

use std::collections::BTreeSet;

/// Levenshtein distance, for "did you mean" suggestions.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut row = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = prev[j] + usize::from(ca != *cb);
            row.push(substitution.min(prev[j + 1] + 1).min(row[j] + 1));
        }
        prev = row;
    }
    prev[b.len()]
}

/// The words of an identifier in any case style: `browser_click`, `getTinyImage`,
/// `read-file` and `HTTPRequest` give `[browser, click]`, `[get, tiny, image]`,
/// `[read, file]` and `[http, request]`.
pub fn name_words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut words = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        let boundary = c.is_uppercase()
            && !current.is_empty()
            && (prev.is_some_and(|p| p.is_lowercase() || p.is_ascii_digit())
                || next.is_some_and(char::is_lowercase));
        if boundary {
            words.push(std::mem::take(&mut current));
        }
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// Function words that say nothing about what a tool does.
const STOPWORDS: &[&str] = &[
    "a", "an", "the", "and", "or", "of", "to", "in", "on", "for", "with", "by", "from", "at", "as",
    "is", "are", "be", "it", "its", "this", "that", "these", "those", "can", "will", "if", "use",
    "used", "using", "you", "your", "any", "all", "one", "into", "which", "when", "not", "only",
    "also", "eg", "ie", "etc", "such", "has", "have", "was", "but", "so", "than", "then", "via",
    "do", "does", "should", "may", "must", "each", "other", "more",
];

/// The content words of a text: lower-cased, split on anything not alphanumeric, without
/// function words and single letters, with a plural `s` dropped (`files` and `file` are one
/// word).
pub fn content_words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .filter(|w| w.chars().count() > 1 && !STOPWORDS.contains(&w.as_str()))
        .map(|w| match w.strip_suffix('s') {
            Some(stem) if stem.len() >= 3 && !stem.ends_with('s') => stem.to_string(),
            _ => w,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_in_every_case_style() {
        assert_eq!(name_words("browser_click"), ["browser", "click"]);
        assert_eq!(name_words("getTinyImage"), ["get", "tiny", "image"]);
        assert_eq!(name_words("read-file"), ["read", "file"]);
        assert_eq!(name_words("HTTPRequest"), ["http", "request"]);
        assert_eq!(name_words("get_v2Items"), ["get", "v2", "items"]);
    }

    #[test]
    fn content_words_drop_function_words_and_plurals() {
        let words = content_words("Read the contents of files, e.g. logs.");
        assert_eq!(
            words.into_iter().collect::<Vec<_>>(),
            ["content", "file", "log", "read"]
        );
        assert!(content_words("access process").contains("access"));
    }

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("same", "same"), 0);
    }
}
