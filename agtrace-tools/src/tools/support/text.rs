//! Shortening text for previews and snippets, and measuring text as it will be sent: the
//! budgets are on the JSON answer, where `"`, `\` and control characters take more bytes.

use mcp_tool::prelude::*;

/// A text shortened to fit an answer. When `truncated`, the whole text is returned by
/// `get_event_details` (or, for a whole session, `get_session_full`).
#[tool_output]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Excerpt {
    /// The text, or its beginning when `truncated`.
    pub text: String,
    /// True when `text` is only the beginning of the original.
    pub truncated: bool,
    /// Length of the whole original text, in characters.
    pub original_chars: usize,
}

impl Excerpt {
    /// The first `max_chars` characters of `text`.
    pub fn head(text: &str, max_chars: usize) -> Self {
        let cut = byte_at_char(text, max_chars);
        let truncated = cut < text.len();
        Excerpt {
            text: text[..cut].to_owned(),
            truncated,
            original_chars: if truncated {
                text.chars().count()
            } else {
                text[..cut].chars().count()
            },
        }
    }

    /// This excerpt of a text that was itself only the beginning of one `whole_chars`
    /// characters long (see [`Event::whole_text_chars`](crate::model::Event::whole_text_chars)).
    pub fn of_whole(mut self, whole_chars: Option<usize>) -> Self {
        if let Some(whole) = whole_chars {
            self.truncated = true;
            self.original_chars = whole;
        }
        self
    }

    /// Like [`Excerpt::head`] with whitespace runs folded to one space, for one-line snippets.
    /// Folding is not cutting: `truncated` says only whether characters were left out.
    pub fn line(text: &str, max_chars: usize) -> Self {
        let folded = fold_whitespace(text, max_chars.saturating_add(1));
        let cut = byte_at_char(&folded, max_chars);
        Excerpt {
            text: folded[..cut].to_owned(),
            truncated: cut < folded.len(),
            original_chars: text.chars().count(),
        }
    }
}

/// Byte offset of the `n`th character (or the end).
pub fn byte_at_char(text: &str, n: usize) -> usize {
    text.char_indices().nth(n).map_or(text.len(), |(b, _)| b)
}

/// Collapses whitespace runs to single spaces, stopping after `max_chars` output characters.
pub fn fold_whitespace(text: &str, max_chars: usize) -> String {
    let mut out = String::new();
    let mut count = 0;
    let mut pending_space = false;
    for c in text.trim().chars() {
        if count >= max_chars {
            break;
        }
        if c.is_whitespace() {
            pending_space = true;
            continue;
        }
        if pending_space {
            out.push(' ');
            count += 1;
            pending_space = false;
            if count >= max_chars {
                break;
            }
        }
        out.push(c);
        count += 1;
    }
    out
}

/// Bytes `c` takes inside a JSON string as serde_json writes it.
pub fn escaped_len(c: char) -> usize {
    match c {
        '"' | '\\' | '\n' | '\r' | '\t' | '\u{8}' | '\u{c}' => 2,
        c if (c as u32) < 0x20 => 6,
        c => c.len_utf8(),
    }
}

/// Bytes of `s` as a JSON string literal, quotes included.
pub fn json_str_len(s: &str) -> usize {
    2 + s.chars().map(escaped_len).sum::<usize>()
}

/// The end (a char boundary) of the longest piece of `s` from byte `start` whose JSON-escaped
/// form takes at most `budget` bytes (quotes not counted). Returns `start` when not even one
/// character fits.
pub fn split_at_escaped(s: &str, start: usize, budget: usize) -> usize {
    let mut used = 0;
    for (i, c) in s[start..].char_indices() {
        let n = escaped_len(c);
        if used + n > budget {
            return start + i;
        }
        used += n;
    }
    s.len()
}

/// Where one page's piece of a long text ends: it starts at byte `start` and may take `room`
/// bytes of JSON-escaped text. `None` when the rest of the text fits whole.
pub fn piece_end(s: &str, start: usize, room: usize) -> Option<usize> {
    let rest = &s[start..];
    let whole = json_str_len(rest) - 2;
    (whole > room).then(|| split_at_escaped(s, start, room))
}

/// Character offset of byte `byte` (a char boundary) in `s`.
pub fn char_offset(s: &str, byte: usize) -> usize {
    s[..byte].chars().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaped_length_matches_serde_json() {
        for s in [
            "plain",
            "quote \" and \\ back",
            "ctl \u{1}\u{1f} \n\t\r",
            "日本語 emoji🙂",
            "",
        ] {
            assert_eq!(
                json_str_len(s),
                serde_json::to_string(s).unwrap().len(),
                "{s:?}"
            );
        }
    }

    #[test]
    fn split_respects_char_boundaries_and_the_escaped_budget() {
        let s = "aé\"日🙂\u{1}z";
        let mut start = 0;
        let mut pieces = Vec::new();
        while start < s.len() {
            let end = split_at_escaped(s, start, 6);
            assert!(end > start);
            assert!(json_str_len(&s[start..end]) - 2 <= 6);
            pieces.push(&s[start..end]);
            start = end;
        }
        assert_eq!(pieces.concat(), s);
    }

    #[test]
    fn excerpts_say_what_was_cut() {
        let e = Excerpt::head("héllo world", 5);
        assert_eq!(
            (e.text.as_str(), e.truncated, e.original_chars),
            ("héllo", true, 11)
        );
        let e = Excerpt::head("short", 50);
        assert_eq!((e.truncated, e.original_chars), (false, 5));
        let e = Excerpt::line("  two\n\n  lines  ", 50);
        assert_eq!((e.text.as_str(), e.truncated), ("two lines", false));
        let e = Excerpt::line("one two three", 7);
        assert_eq!(
            (e.text.as_str(), e.truncated, e.original_chars),
            ("one two", true, 13)
        );
    }
}
