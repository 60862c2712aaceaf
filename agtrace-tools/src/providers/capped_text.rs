//! Text kept up to a number of bytes and counted whole.
//!
//! A tool output can be megabytes (a `cat` of a large file, a build log), and a session kept
//! parsed between calls needs only its beginning: the tools show excerpts of a few thousand
//! characters, and the rest is read from the index when asked for. Building the whole text
//! first and cutting it later touches every byte of it; a [`CappedText`] stops keeping at its
//! cap and only counts the characters after it. [`CappedText::push_json_literal`] decodes a
//! JSON string straight from the document's bytes, so a long one is never copied whole.

/// A text being built, of which at most `cap` bytes are kept.
pub(crate) struct CappedText {
    text: String,
    cap: usize,
    /// Characters left out.
    rest_chars: usize,
    cut: bool,
}

impl CappedText {
    /// Keeps at most `cap` bytes (all of the text when `None`).
    pub(crate) fn new(cap: Option<usize>) -> Self {
        CappedText {
            text: String::new(),
            cap: cap.unwrap_or(usize::MAX),
            rest_chars: 0,
            cut: false,
        }
    }

    pub(crate) fn push_str(&mut self, s: &str) {
        if self.cut {
            self.rest_chars += char_count(s);
            return;
        }
        let room = self.cap.saturating_sub(self.text.len());
        if s.len() <= room {
            self.text.push_str(s);
            return;
        }
        let mut end = room;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        self.text.push_str(&s[..end]);
        self.rest_chars += char_count(&s[end..]);
        self.cut = true;
    }

    fn push_char(&mut self, c: char) {
        self.push_str(c.encode_utf8(&mut [0; 4]));
    }

    /// Appends the text of `literal`, a JSON string with its quotes, as serde_json's parser
    /// accepted it (every escape well formed). A `\u` escape of half a surrogate pair, which
    /// is no character, reads as U+FFFD.
    pub(crate) fn push_json_literal(&mut self, literal: &str) {
        let body = literal
            .strip_prefix('"')
            .and_then(|l| l.strip_suffix('"'))
            .unwrap_or(literal);
        // The text is never longer than its escaped spelling.
        if !self.cut {
            self.text
                .reserve(body.len().min(self.cap.saturating_sub(self.text.len())));
        }
        let mut rest = body;
        while !self.cut {
            let Some(at) = memchr::memchr(b'\\', rest.as_bytes()) else {
                self.push_str(rest);
                return;
            };
            self.push_str(&rest[..at]);
            let (c, used) = unescape(&rest[at + 1..]);
            self.push_char(c);
            rest = &rest[at + 1 + used..];
        }
        self.rest_chars += escaped_chars(rest);
    }

    /// The kept text, and the whole text's length in characters when some was left out.
    pub(crate) fn finish(self) -> (String, Option<usize>) {
        let whole = self.cut.then(|| char_count(&self.text) + self.rest_chars);
        (self.text, whole)
    }
}

/// The character an escape stands for (`after` starts just after its backslash), and how many
/// bytes of `after` it took.
fn unescape(after: &str) -> (char, usize) {
    let simple = match after.as_bytes().first() {
        Some(b'n') => '\n',
        Some(b't') => '\t',
        Some(b'r') => '\r',
        Some(b'b') => '\u{8}',
        Some(b'f') => '\u{c}',
        Some(b'u') => return unicode_escape(after),
        Some(&b) if b.is_ascii() => char::from(b),
        // Not an escape serde_json lets through: the backslash stays.
        _ => return ('\\', 0),
    };
    (simple, 1)
}

/// A `uXXXX` escape, with the `\uXXXX` low half that follows a high surrogate.
fn unicode_escape(after: &str) -> (char, usize) {
    let Some(unit) = hex4(after.get(1..5)) else {
        return (char::REPLACEMENT_CHARACTER, 1);
    };
    if let Some(c) = char::from_u32(unit) {
        return (c, 5);
    }
    let low = after
        .get(5..7)
        .filter(|p| *p == "\\u")
        .and_then(|_| hex4(after.get(7..11)))
        .filter(|low| (0xDC00..0xE000).contains(low));
    match low {
        Some(low) if (0xD800..0xDC00).contains(&unit) => {
            let c = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
            (char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER), 11)
        }
        _ => (char::REPLACEMENT_CHARACTER, 5),
    }
}

fn hex4(digits: Option<&str>) -> Option<u32> {
    u32::from_str_radix(digits?, 16).ok()
}

fn char_count(s: &str) -> usize {
    s.chars().count()
}

/// The length in characters of the text of `body`, the inside of a JSON string, without
/// decoding it: each escape is one character however many bytes it takes.
fn escaped_chars(body: &str) -> usize {
    let mut chars = char_count(body);
    let mut from = 0;
    while let Some(at) = memchr::memchr(b'\\', &body.as_bytes()[from..]) {
        let after = from + at + 1;
        let (_, used) = unescape(&body[after..]);
        // The backslash and the `used` bytes after it are all ASCII, counted one each.
        chars -= used;
        from = after + used;
    }
    chars
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(json: &str, cap: Option<usize>) -> (String, Option<usize>) {
        let mut t = CappedText::new(cap);
        t.push_json_literal(json);
        t.finish()
    }

    #[test]
    fn decodes_every_escape_as_serde_json_does() {
        let texts = [
            "plain",
            "line\nnext\ttab\r\u{8}\u{c}\"quoted\" back\\slash /",
            "日本語 🙂 é \u{1} \u{7f}",
            "",
        ];
        for text in texts {
            let json = serde_json::to_string(text).unwrap();
            assert_eq!(decoded(&json, None), (text.to_string(), None), "{json}");
        }
        // Escapes serde_json accepts but does not write.
        let json = r#""\/\u00e9\u65E5\ud83d\ude42\u0041""#;
        let expected: String = serde_json::from_str(json).unwrap();
        assert_eq!(decoded(json, None).0, expected);
    }

    #[test]
    fn half_a_surrogate_pair_is_a_replacement_character() {
        assert_eq!(decoded(r#""a\ud83db""#, None).0, "a\u{fffd}b");
        assert_eq!(decoded(r#""a\ude42""#, None).0, "a\u{fffd}");
        assert_eq!(decoded(r#""\ud83d\u0041""#, None).0, "\u{fffd}A");
    }

    #[test]
    fn keeps_the_cap_and_counts_the_whole_text() {
        let text = "ab\tcd🙂\"ef".repeat(100);
        let json = serde_json::to_string(&text).unwrap();
        let whole = text.chars().count();
        for cap in [0, 1, 3, 4, 5, 7, 50, 333] {
            let (kept, chars) = decoded(&json, Some(cap));
            assert!(
                kept.len() <= cap && text.starts_with(&kept),
                "cap {cap}: {kept:?}"
            );
            // Nothing is left out that would have fit whole.
            assert!(kept.len() + 4 > cap, "cap {cap}: kept {}", kept.len());
            assert_eq!(chars, Some(whole), "cap {cap}");
        }
        assert_eq!(decoded(&json, Some(text.len())), (text.clone(), None));
    }

    #[test]
    fn pieces_join_across_the_cap() {
        let mut t = CappedText::new(Some(6));
        t.push_str("abcd");
        t.push_str(" ");
        t.push_json_literal(r#""é\tfg""#);
        // "abcd " is 5 bytes; "é" (2 bytes) would pass the cap of 6.
        assert_eq!(t.finish(), ("abcd ".to_string(), Some(9)));
    }
}
