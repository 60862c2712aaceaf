//! Reading prose: sentences, whole-word search, abbreviations that do not end a sentence.

/// "e.g.", "i.e.", "etc.": a trailing dot that does not end the sentence.
pub(crate) fn is_abbreviation(word: &str) -> bool {
    matches!(
        word.to_ascii_lowercase().as_str(),
        "e.g." | "i.e." | "eg." | "ie." | "etc."
    )
}

/// Whitespace runs (newlines included) folded to single spaces.
pub(crate) fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Byte offset of the first whole-word occurrence of `word` (a parameter name or a phrase) in
/// `hay` at or after `from`.
pub(crate) fn find_word(hay: &str, word: &str, from: usize) -> Option<usize> {
    if word.is_empty() {
        return None;
    }
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut start = from;
    while let Some(pos) = hay.get(start..).and_then(|h| h.find(word)) {
        let at = start + pos;
        let before_ok = hay[..at].chars().next_back().is_none_or(|c| !is_ident(c));
        let after_ok = hay[at + word.len()..]
            .chars()
            .next()
            .is_none_or(|c| !is_ident(c));
        if before_ok && after_ok {
            return Some(at);
        }
        start = at + word.len();
    }
    None
}

/// The sentences of a doc, whitespace collapsed. A sentence ends at `;`, `!`, `?`, a `.`
/// before a space (unless it ends an abbreviation) or a blank line.
pub(crate) fn sentences(doc: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = doc.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        cur.push(c);
        let next_is_space = chars.get(i + 1).is_none_or(|n| n.is_whitespace());
        let ends = matches!(c, ';' | '!' | '?')
            || (c == '.' && next_is_space && !is_abbreviation(last_word(&cur)));
        if ends || c == '\n' && chars.get(i + 1) == Some(&'\n') {
            out.push(collapse(&cur));
            cur.clear();
        }
    }
    if !cur.trim().is_empty() {
        out.push(collapse(&cur));
    }
    out
}

fn last_word(s: &str) -> &str {
    s.rsplit(|c: char| c.is_whitespace() || c == '(')
        .next()
        .unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_end_at_stops_but_not_at_abbreviations() {
        assert_eq!(
            sentences("Only for x, e.g. a file. Ignored otherwise;\nsee `y`"),
            ["Only for x, e.g. a file.", "Ignored otherwise;", "see `y`"]
        );
        assert_eq!(sentences("v1.2 is fine"), ["v1.2 is fine"]);
    }

    #[test]
    fn find_word_matches_whole_words_only() {
        assert_eq!(find_word("use limit_max or limit", "limit", 0), Some(17));
        assert_eq!(find_word("unlimited", "limit", 0), None);
    }
}
