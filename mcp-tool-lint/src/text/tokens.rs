//! A doc comment as tokens, for reading lists of values (`'asc', 'desc'`, `a|b`, `(x, y)`).

use super::sentences::is_abbreviation;

/// One token of a doc.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    /// A run of word characters (letters, digits, `_-./+`), without a sentence's final dot.
    Word(String),
    /// Text between matching quotes or backticks on one line, at most 60 characters.
    Quoted(String),
    Comma,
    /// The word "or", in any case.
    Or,
    Pipe,
    Slash,
    Colon,
    LParen,
    RParen,
    /// Sentence punctuation and anything else that ends a list.
    Stop,
}

/// Splits a doc into [`Tok`]s. Whitespace is dropped; apostrophes (`user's`, `users'`) are
/// not quotes.
pub(crate) fn tokenize(doc: &str) -> Vec<Tok> {
    let chars: Vec<char> = doc.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let is_word = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | '+');
    while i < chars.len() {
        let c = chars[i];
        let prev_alnum = i > 0 && chars[i - 1].is_alphanumeric();
        if matches!(c, '\'' | '"' | '`') && !(c == '\'' && prev_alnum) {
            // A quote opens a value only if it closes within a short span, on the same line,
            // and the closing quote is not the start of a word (apostrophes: "user's").
            let mut j = i + 1;
            while j < chars.len() && chars[j] != c && chars[j] != '\n' && j - i <= 60 {
                j += 1;
            }
            let closes = j < chars.len() && chars[j] == c && j > i + 1;
            let next_alnum = chars.get(j + 1).is_some_and(|n| n.is_alphanumeric());
            if closes && !(c == '\'' && next_alnum) {
                out.push(Tok::Quoted(chars[i + 1..j].iter().collect()));
                i = j + 1;
                continue;
            }
            out.push(Tok::Stop);
            i += 1;
            continue;
        }
        if is_word(c) {
            let start = i;
            // A colon between two word characters is part of the word: `HH:MM`, `repo:owner`.
            let inner_colon = |k: usize| {
                chars[k] == ':'
                    && k > 0
                    && chars[k - 1].is_alphanumeric()
                    && chars.get(k + 1).is_some_and(|n| n.is_alphanumeric())
            };
            while i < chars.len() && (is_word(chars[i]) || inner_colon(i)) {
                i += 1;
            }
            let mut word: String = chars[start..i].iter().collect();
            let mut trailing_stop = false;
            while word.ends_with('.') && !is_abbreviation(&word) {
                word.pop();
                trailing_stop = true;
            }
            if word == "/" {
                out.push(Tok::Slash);
            } else if word.eq_ignore_ascii_case("or") {
                out.push(Tok::Or);
            } else if !word.is_empty() {
                out.push(Tok::Word(word));
            }
            if trailing_stop {
                out.push(Tok::Stop);
            }
            continue;
        }
        out.push(match c {
            ',' => Tok::Comma,
            '|' => Tok::Pipe,
            ':' => Tok::Colon,
            '(' => Tok::LParen,
            ')' => Tok::RParen,
            c if c.is_whitespace() => {
                i += 1;
                continue;
            }
            _ => Tok::Stop,
        });
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_values_but_apostrophes_are_not() {
        assert_eq!(tokenize("'turns' level")[0], Tok::Quoted("turns".into()));
        assert!(
            !tokenize("the user's name")
                .iter()
                .any(|t| matches!(t, Tok::Quoted(_)))
        );
        assert!(
            !tokenize("sessions' start, users' end")
                .iter()
                .any(|t| matches!(t, Tok::Quoted(_)))
        );
    }
}
