//! The search syntax users type, parsed into a small AST and rendered as a safe FTS5 `MATCH`
//! expression: every term is a quoted FTS5 string, so no user text is ever FTS5 syntax.
//!
//! Supported: words (all must occur), `a OR b`, `-word` or `a NOT word` to exclude, `pre*` for a
//! prefix and `"exact phrase"`. Anything else that looks like an operator (column filters,
//! parentheses, a bare `NOT x`, a lone `*`) is rejected with a message that says so, rather than
//! searched as literal words and silently finding nothing.
//!
//! Chinese, Japanese and Korean text has no spaces between words, and the word index
//! (`unicode61`) keeps a whole unspaced run as one token: a word inside a run cannot be found
//! there. A query with such characters is therefore answered through a second, trigram table
//! that holds only the CJK-bearing words of each event ([`cjk_words`]), as the [`CjkPlan`] says.

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

/// The scripts written without spaces between words: Hiragana and Katakana, the CJK ideographs
/// (with extensions A–H and the compatibility block), Hangul syllables, half-width Katakana.
const CJK_RANGES: [(char, char); 7] = [
    ('\u{3040}', '\u{30FF}'),
    ('\u{3400}', '\u{4DBF}'),
    ('\u{4E00}', '\u{9FFF}'),
    ('\u{AC00}', '\u{D7AF}'),
    ('\u{F900}', '\u{FAFF}'),
    ('\u{FF66}', '\u{FF9F}'),
    ('\u{20000}', '\u{3134F}'),
];

/// Whether `c` belongs to a script written without spaces (see `CJK_RANGES`).
pub fn is_cjk(c: char) -> bool {
    CJK_RANGES.iter().any(|&(lo, hi)| (lo..=hi).contains(&c))
}

fn has_cjk(s: &str) -> bool {
    s.bytes().any(|b| b >= CJK_LEAD_MIN) && s.chars().any(is_cjk)
}

/// Every CJK character is 3 or 4 bytes in UTF-8 with a lead byte of at least 0xE3: a byte scan
/// skips everything else (most tool output is ASCII).
const CJK_LEAD_MIN: u8 = 0xE3;

/// The byte offset of the first CJK letter (a CJK character that is also alphanumeric) at or
/// after byte `from`, which must be a char boundary.
fn next_cjk_char(s: &str, from: usize) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut at = from;
    while let Some(skip) = bytes[at..].iter().position(|&b| b >= CJK_LEAD_MIN) {
        at += skip;
        // A byte >= 0xE3 is always a lead byte, so `at` is a char boundary.
        let c = s[at..].chars().next()?;
        if is_cjk(c) && c.is_alphanumeric() {
            return Some(at);
        }
        at += c.len_utf8();
    }
    None
}

/// The words of `text` (runs of letters and digits) that hold a CJK character, lower-cased and
/// separated by spaces, or `None` when there is none: what the trigram table indexes for an
/// event. Only these words: the rest of the text is already in the word index, and indexing all
/// of it by trigrams would multiply the index's size and build time.
///
/// Runs once per indexed event, so it looks only around the CJK letters a byte scan finds and
/// never classifies the characters of the words it does not keep.
pub fn cjk_words(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut from = 0;
    while let Some(at) = next_cjk_char(text, from) {
        let start = text[from..at]
            .char_indices()
            .rev()
            .take_while(|(_, c)| c.is_alphanumeric())
            .last()
            .map_or(at, |(i, _)| from + i);
        let end = text[at..]
            .char_indices()
            .find(|(_, c)| !c.is_alphanumeric())
            .map_or(text.len(), |(i, _)| at + i);
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(text[start..end].chars().flat_map(char::to_lowercase));
        from = end;
    }
    (!out.is_empty()).then_some(out)
}

/// Shortest text the trigram table can match; shorter CJK words are found by a scan of its
/// stored words.
const TRIGRAM_CHARS: usize = 3;

/// One way to find the events that hold a term.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    /// An FTS5 `MATCH` expression over the word index (`events_fts`).
    Words(String),
    /// An FTS5 `MATCH` expression (a quoted string of 3+ characters) over the trigram table
    /// (`events_cjk`): finds the text anywhere inside a CJK-bearing word.
    Trigram(String),
    /// A lower-cased 1–2 character text to find inside the trigram table's stored words by a
    /// scan of that (small) table: trigrams cannot match it.
    Substring(String),
}

/// How a query with CJK terms is answered: events in every clause of `required` and in no
/// entry of `excluded`. A clause holds alternatives (`OR`); an alternative, and an excluded
/// term, holds lookups that must all match (a CJK term is matched word by word: each of its
/// CJK-bearing words inside some CJK-bearing word of the event, each other word in the word
/// index, not necessarily adjacent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CjkPlan {
    /// Clauses, all required; each a list of alternatives, each a list of lookups to intersect.
    pub required: Vec<Vec<Vec<Lookup>>>,
    /// Excluded terms, each a list of lookups to intersect.
    pub excluded: Vec<Vec<Lookup>>,
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

    fn has_cjk(&self) -> bool {
        has_cjk(&self.text)
    }

    /// The lookups of a term with CJK characters: one per word, CJK-bearing words through the
    /// trigram table, the others through the word index (the last as a prefix if the term is).
    fn cjk_lookups(&self) -> Vec<Lookup> {
        let words: Vec<&str> = self
            .text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        let last = words.len().saturating_sub(1);
        words
            .iter()
            .enumerate()
            .map(|(i, w)| {
                if w.chars().any(is_cjk) {
                    let w: String = w.chars().flat_map(char::to_lowercase).collect();
                    if w.chars().count() >= TRIGRAM_CHARS {
                        Lookup::Trigram(format!("\"{w}\""))
                    } else {
                        Lookup::Substring(w)
                    }
                } else {
                    Lookup::Words(
                        Atom {
                            text: w.to_string(),
                            prefix: self.prefix && i == last,
                        }
                        .render(),
                    )
                }
            })
            .collect()
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

    /// How to answer the query when a term holds CJK characters, or `None` when none does
    /// (then [`ParsedQuery::to_fts`] answers it from the word index alone, as before).
    /// Clauses and excluded terms without CJK stay one word-index expression, so the query
    /// still makes as few index lookups as it can.
    pub fn cjk_plan(&self) -> Option<CjkPlan> {
        let all = self.clauses.iter().flatten().chain(&self.excluded);
        if !all.clone().any(Atom::has_cjk) {
            return None;
        }
        let (latin, cjk): (Vec<&Vec<Atom>>, Vec<&Vec<Atom>>) = self
            .clauses
            .iter()
            .partition(|c| !c.iter().any(Atom::has_cjk));
        let (latin_excluded, cjk_excluded): (Vec<&Atom>, Vec<&Atom>) =
            self.excluded.iter().partition(|a| !a.has_cjk());
        let mut required: Vec<Vec<Vec<Lookup>>> = Vec::new();
        let mut excluded: Vec<Vec<Lookup>> = Vec::new();
        if latin.is_empty() {
            excluded.extend(
                latin_excluded
                    .iter()
                    .map(|a| vec![Lookup::Words(a.render())]),
            );
        } else {
            let only_latin = ParsedQuery {
                clauses: latin.into_iter().cloned().collect(),
                excluded: latin_excluded.into_iter().cloned().collect(),
            };
            required.push(vec![vec![Lookup::Words(only_latin.to_fts())]]);
        }
        for clause in cjk {
            required.push(
                clause
                    .iter()
                    .map(|a| {
                        if a.has_cjk() {
                            a.cjk_lookups()
                        } else {
                            vec![Lookup::Words(a.render())]
                        }
                    })
                    .collect(),
            );
        }
        excluded.extend(cjk_excluded.iter().map(|a| a.cjk_lookups()));
        Some(CjkPlan { required, excluded })
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

    #[test]
    fn cjk_words_keeps_only_the_words_with_cjk_lower_cased() {
        assert_eq!(cjk_words("plain ASCII text, café"), None);
        assert_eq!(
            cjk_words("Fix the 全文検索機能 in Rust製ツール now."),
            Some("全文検索機能 rust製ツール".to_string())
        );
        assert_eq!(
            cjk_words("我们需要修复搜索功能的错误。한국어검색"),
            Some("我们需要修复搜索功能的错误 한국어검색".to_string())
        );
    }

    /// The plain definition `cjk_words` must agree with: split into runs of letters and digits,
    /// keep those holding a CJK character.
    fn cjk_words_by_splitting(text: &str) -> Option<String> {
        let words: Vec<String> = text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.chars().any(is_cjk))
            .map(|w| w.chars().flat_map(char::to_lowercase).collect())
            .collect();
        (!words.is_empty()).then(|| words.join(" "))
    }

    proptest::proptest! {
        #[test]
        fn cjk_words_equals_splitting_into_words(
            text in "[a-zA-Zé0-9 .,_\\-\u{3000}-\u{3002}\u{3040}-\u{30FF}\u{4E00}-\u{4E10}\u{AC00}-\u{AC05}\u{FF61}-\u{FF9F}\u{9FFE}\u{1F600}Ⅻ²]{0,40}"
        ) {
            proptest::prop_assert_eq!(cjk_words(&text), cjk_words_by_splitting(&text));
        }
    }

    #[test]
    fn a_query_without_cjk_has_no_cjk_plan() {
        assert_eq!(parse("error OR warn* -skip").unwrap().cjk_plan(), None);
    }

    #[test]
    fn cjk_terms_go_to_the_trigram_table_and_latin_clauses_stay_one_expression() {
        let plan = parse("error 検索機能 OR 搜索 -deprecated -错误 \"Rust製 tool\"*")
            .unwrap()
            .cjk_plan()
            .unwrap();
        assert_eq!(
            plan.required,
            vec![
                vec![vec![Lookup::Words(
                    "((text : \"error\") NOT (text : \"deprecated\"))".into()
                )]],
                vec![
                    vec![Lookup::Trigram("\"検索機能\"".into())],
                    vec![Lookup::Substring("搜索".into())],
                ],
                vec![vec![
                    Lookup::Trigram("\"rust製\"".into()),
                    Lookup::Words("text : \"tool\" *".into()),
                ]],
            ]
        );
        assert_eq!(plan.excluded, vec![vec![Lookup::Substring("错误".into())]]);
        let only_cjk = parse("検索 -draft").unwrap().cjk_plan().unwrap();
        assert_eq!(
            only_cjk.required,
            vec![vec![vec![Lookup::Substring("検索".into())]]]
        );
        assert_eq!(
            only_cjk.excluded,
            vec![vec![Lookup::Words("text : \"draft\"".into())]]
        );
    }
}
