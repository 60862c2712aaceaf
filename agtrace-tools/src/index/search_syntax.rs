//! The search syntax users type, parsed into a small AST and rendered as a safe FTS5 `MATCH`
//! expression: every term is a quoted FTS5 string, so no user text is ever FTS5 syntax.
//!
//! Supported: words (all must occur), `a OR b`, `-word` or `a NOT word` to exclude, `pre*` for a
//! prefix and `"exact phrase"`. Anything else that looks like an operator (column filters,
//! parentheses, a bare `NOT x`, a lone `*`) is rejected with a message that says so, rather than
//! searched as literal words and silently finding nothing.

/// What the search syntax supports, for error messages and the tool description.
pub const SUPPORTED: &str = "Supported: words (all must occur), `a OR b`, `-word` or `a NOT word` to exclude, `pre*` for a prefix, `\"exact phrase\"`.";

/// Most terms one query may have: a longer one is almost surely pasted text, not a search.
pub const MAX_TERMS: usize = 64;

/// A query that uses a form the syntax does not support; the message says which and what is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryError(pub String);

impl std::fmt::Display for QueryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for QueryError {}

fn err(why: impl std::fmt::Display) -> QueryError {
    QueryError(format!("{why} {SUPPORTED}"))
}

/// One term: words matched as adjacent tokens, the last one as a prefix when `prefix`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Atom {
    text: String,
    prefix: bool,
}

impl Atom {
    fn render(&self) -> String {
        format!(
            "text : \"{}\"{}",
            self.text.replace('"', "\"\""),
            if self.prefix { " *" } else { "" }
        )
    }
}

/// A parsed query: every clause must match (a clause is one or more `OR` alternatives) and no
/// excluded term may.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedQuery {
    clauses: Vec<Vec<Atom>>,
    excluded: Vec<Atom>,
}

#[derive(Debug)]
enum Token {
    Term { atom: Atom, negated: bool },
    Or,
    And,
    Not,
}

fn has_word(s: &str) -> bool {
    s.chars().any(char::is_alphanumeric)
}

/// `name:value` with a plain name: what a column filter looks like. URLs (`http://`), paths
/// (`C:\`) and `a::b` are not.
fn looks_like_column_filter(word: &str) -> bool {
    let Some((name, rest)) = word.split_once(':') else {
        return false;
    };
    !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphabetic() || c == '_')
        && rest
            .chars()
            .next()
            .is_some_and(|c| !matches!(c, '/' | ':' | '\\'))
}

fn word_token(raw: &str) -> Result<Option<Token>, QueryError> {
    match raw {
        "OR" => return Ok(Some(Token::Or)),
        "AND" => return Ok(Some(Token::And)),
        "NOT" => return Ok(Some(Token::Not)),
        _ => {}
    }
    if raw.starts_with('(') || raw == ")" {
        return Err(err(format!("`{raw}`: parentheses are not supported.")));
    }
    // One leading `-` excludes; `--flag` is a word.
    let (negated, body) = match raw.strip_prefix('-') {
        Some(rest) if !rest.starts_with('-') && !rest.is_empty() => (true, rest),
        _ => (false, raw),
    };
    if looks_like_column_filter(body) {
        return Err(err(format!(
            "`{raw}`: column filters are not supported (quote it to search the words; use the provider, event_type or session_id arguments to filter)."
        )));
    }
    let (prefix, text) = match body.strip_suffix('*') {
        Some(t) => (true, t),
        None => (false, body),
    };
    if text.contains('*') || (prefix && !has_word(text)) {
        return Err(err(format!(
            "`{raw}`: `*` is only supported at the end of a word, for a prefix."
        )));
    }
    if !has_word(text) {
        // Punctuation alone (`--`, `!!`) matches nothing in the index: ignored as before.
        return Ok(None);
    }
    Ok(Some(Token::Term {
        atom: Atom {
            text: text.to_string(),
            prefix,
        },
        negated,
    }))
}

/// Control characters (NUL among them) separate words: the index never holds them in a word,
/// and FTS5 reads its expression only up to a NUL.
fn is_separator(c: char) -> bool {
    c.is_whitespace() || c.is_control()
}

fn lex(q: &str) -> Result<Vec<Token>, QueryError> {
    let mut out = Vec::new();
    let mut chars = q.chars().peekable();
    while let Some(&c) = chars.peek() {
        if is_separator(c) {
            chars.next();
        } else if c == '"' {
            chars.next();
            let mut text = String::new();
            // An unbalanced quote runs to the end of the query.
            for c in chars.by_ref() {
                if c == '"' {
                    break;
                }
                text.push(if c.is_control() { ' ' } else { c });
            }
            let prefix = chars.next_if_eq(&'*').is_some();
            if has_word(&text) {
                out.push(Token::Term {
                    atom: Atom { text, prefix },
                    negated: false,
                });
            }
        } else {
            let mut raw = String::new();
            while let Some(c) = chars.next_if(|&c| !is_separator(c) && c != '"') {
                raw.push(c);
            }
            out.extend(word_token(&raw)?);
        }
    }
    Ok(out)
}

/// Parses a user query. `OR` binds tighter than the implicit AND (`a b OR c` is a and (b or c)),
/// as in web search.
pub fn parse(q: &str) -> Result<ParsedQuery, QueryError> {
    let mut clauses: Vec<Vec<Atom>> = Vec::new();
    let mut excluded = Vec::new();
    // The operator waiting for its right-hand term.
    let mut pending: Option<&'static str> = None;
    let mut last_was_positive = false;
    let mut terms = 0usize;
    for tok in lex(q)? {
        match tok {
            Token::Or | Token::And | Token::Not => {
                let name = match tok {
                    Token::Or => "OR",
                    Token::And => "AND",
                    _ => "NOT",
                };
                if let Some(p) = pending {
                    return Err(err(format!("`{p} {name}`: two operators in a row.")));
                }
                if !last_was_positive {
                    return Err(err(format!(
                        "`{name}` needs a word to find before it (`a {name} b`)."
                    )));
                }
                pending = Some(name);
            }
            Token::Term { atom, negated } => {
                terms += 1;
                if terms > MAX_TERMS {
                    return Err(err(format!("At most {MAX_TERMS} terms per query.")));
                }
                match (pending.take(), negated) {
                    (Some("NOT"), false) => {
                        excluded.push(atom);
                        last_was_positive = false;
                    }
                    (Some(p), true) => {
                        return Err(err(format!("`{p} -{}`: cannot combine.", atom.text)));
                    }
                    (_, true) => {
                        excluded.push(atom);
                        last_was_positive = false;
                    }
                    (Some("OR"), false) => {
                        if let Some(c) = clauses.last_mut() {
                            c.push(atom);
                        }
                        last_was_positive = true;
                    }
                    (_, false) => {
                        clauses.push(vec![atom]);
                        last_was_positive = true;
                    }
                }
            }
        }
    }
    if let Some(p) = pending {
        return Err(err(format!("`{p}` needs a word after it.")));
    }
    if clauses.is_empty() {
        return Err(err(if excluded.is_empty() {
            "`query` needs at least one word with a letter or a digit."
        } else {
            "`query` needs at least one word to find: excluded words alone are not supported."
        }));
    }
    Ok(ParsedQuery { clauses, excluded })
}

impl ParsedQuery {
    /// The FTS5 `MATCH` expression, parenthesised so that it can be ANDed with more.
    pub fn to_fts(&self) -> String {
        let clause = |c: &Vec<Atom>| {
            if c.len() == 1 {
                c[0].render()
            } else {
                format!(
                    "({})",
                    c.iter().map(Atom::render).collect::<Vec<_>>().join(" OR ")
                )
            }
        };
        let positive = self.clauses.iter().map(clause).collect::<Vec<_>>();
        let positive = positive.join(" AND ");
        if self.excluded.is_empty() {
            format!("({positive})")
        } else {
            let neg = self.excluded.iter().map(Atom::render).collect::<Vec<_>>();
            format!("(({positive}) NOT ({}))", neg.join(" OR "))
        }
    }

    /// Lower-cased alphanumeric runs of the terms to find (not the excluded ones), to locate a
    /// match in an event text.
    pub fn match_terms(&self) -> Vec<Vec<char>> {
        self.clauses
            .iter()
            .flatten()
            .flat_map(|a| a.text.split(|c: char| !c.is_alphanumeric()))
            .filter(|w| !w.is_empty())
            .map(|w| w.chars().flat_map(char::to_lowercase).collect())
            .collect()
    }
}

/// The FTS5 `MATCH` expression of a user query, or why it cannot be searched.
pub fn fts_query(user: &str) -> Result<String, QueryError> {
    parse(user).map(|p| p.to_fts())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_quoted_terms_with_operators() {
        assert_eq!(fts_query("error").unwrap(), "(text : \"error\")");
        assert_eq!(
            fts_query("a b OR c* -d \"x y\"").unwrap(),
            "((text : \"a\" AND (text : \"b\" OR text : \"c\" *) AND text : \"x y\") NOT (text : \"d\"))"
        );
        assert_eq!(
            fts_query("a NOT b").unwrap(),
            "((text : \"a\") NOT (text : \"b\"))"
        );
        assert_eq!(
            fts_query("\"say \"\"hi").unwrap(),
            "(text : \"say \" AND text : \"hi\")"
        );
    }

    #[test]
    fn rejects_unsupported_forms_saying_what_is_supported() {
        for q in [
            "text:error",
            "(a OR b)",
            "NOT error",
            "-error",
            "*",
            "a OR",
            "OR a",
            "a OR OR b",
            "*ing",
            "e*r",
            "a NOT -b",
            "a AND",
        ] {
            let e = fts_query(q).unwrap_err();
            assert!(e.0.ends_with(SUPPORTED), "{q}: {e}");
        }
        for ok in [
            "http://x.y",
            "std::io",
            "C:\\dir",
            "--verbose",
            "f(x)",
            "a\0b",
            "hoge.py",
        ] {
            fts_query(ok).unwrap_or_else(|e| panic!("{ok}: {e}"));
        }
    }
}
