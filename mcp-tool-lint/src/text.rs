//! Hand-written text heuristics over names and doc comments.
//!
//! Every heuristic here is tuned against real tool designs (the agtrace tools before and after
//! their redesign): a false positive is a compile error in a user's crate, so each pattern
//! demands concrete evidence (a cue word, quoted values, a sibling parameter's name) rather
//! than a loose keyword.

/// Levenshtein distance, for "did you mean" suggestions.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

fn segments(name: &str) -> Vec<String> {
    name.split('_')
        .filter(|s| !s.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

// ---------------------------------------------------------------------------------------------
// closed_domain_string

/// Words that, as a name's last `_`-segment (or its whole name), denote a closed set of values.
pub(crate) const CLOSED_DOMAIN_WORDS: &[&str] = &[
    "provider",
    "type",
    "kind",
    "status",
    "state",
    "mode",
    "format",
    "level",
    "sort",
    "order",
    "direction",
    "role",
    "severity",
    "category",
    "priority",
    "visibility",
    "granularity",
    "strategy",
    "stage",
    "phase",
    "tier",
    "unit",
    "units",
    "platform",
    "channel",
    "method",
    "verbosity",
    "encoding",
    "flavor",
    "flavour",
    "variant",
    "style",
];

/// Names ending in a closed-domain word whose values are nonetheless open (registries of
/// thousands of values, or free text).
const OPEN_DESPITE_SUFFIX: &[&str] = &["mime_type", "content_type", "media_type", "state_dir"];

/// `sort_by`, `order_by`, `group_by`: the value is one of the sortable fields.
const CLOSED_DOMAIN_PREFIXES: &[&str] = &["sort_by", "order_by", "group_by"];

pub(crate) fn closed_domain_by_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    if OPEN_DESPITE_SUFFIX.contains(&lower.as_str()) {
        return false;
    }
    if CLOSED_DOMAIN_PREFIXES
        .iter()
        .any(|p| lower == *p || lower.starts_with(&format!("{p}_")))
    {
        return true;
    }
    let segs = segments(&lower);
    let Some(last) = segs.last() else {
        return false;
    };
    // Plurals (`statuses`, `kinds`) name a set of values from the same closed domain.
    let singular = last
        .strip_suffix("es")
        .filter(|s| s.ends_with("us"))
        .or_else(|| last.strip_suffix('s'));
    CLOSED_DOMAIN_WORDS.contains(&last.as_str())
        || singular.is_some_and(|s| CLOSED_DOMAIN_WORDS.contains(&s) && s != "unit")
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Word(String),
    Quoted(String),
    Comma,
    Or,
    Pipe,
    Slash,
    Colon,
    LParen,
    RParen,
    /// Sentence punctuation and anything else that ends a list.
    Stop,
}

fn tokenize(doc: &str) -> Vec<Tok> {
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
            while i < chars.len() && is_word(chars[i]) {
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

fn is_abbreviation(word: &str) -> bool {
    matches!(
        word.to_ascii_lowercase().as_str(),
        "e.g." | "i.e." | "eg." | "ie." | "etc."
    )
}

/// A value in an enumeration: an identifier (`asc`, `ToolCall`, `claude-code`), never a path,
/// a sentence or a number with a unit.
fn is_value_like(s: &str) -> bool {
    let s = s.trim();
    !s.is_empty()
        && s.len() <= 40
        && s.chars().next().is_some_and(|c| c.is_alphanumeric())
        && s.chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | ' ' | '+'))
        && s.split_whitespace().count() <= 3
}

fn is_identifier(s: &str) -> bool {
    is_value_like(s) && !s.contains(' ')
}

/// `ToolCall`, `TOOL_CALL`: spelled like an enum variant rather than an English word.
fn looks_like_variant(s: &str) -> bool {
    let mut chars = s.chars();
    let first_upper = chars.next().is_some_and(|c| c.is_ascii_uppercase());
    let rest_upper = s.chars().skip(1).any(|c| c.is_ascii_uppercase());
    first_upper && rest_upper
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ValueList {
    /// The values found, as written.
    pub values: Vec<String>,
}

#[derive(Clone, Copy, PartialEq)]
enum Cue {
    None,
    /// "one of", "either", "can be", "must be", "values", a colon: announces the values.
    Strong,
    /// "e.g.", "such as", "for example", "like": announces examples, which may be open.
    Example,
}

fn cue_before(toks: &[Tok], start: usize) -> Cue {
    let word = |k: usize| match toks.get(k) {
        Some(Tok::Word(w)) => Some(w.to_ascii_lowercase()),
        _ => None,
    };
    let k = start;
    if k > 0 && toks[k - 1] == Tok::Colon {
        // "one of: a, b" and "Sort order: asc or desc" alike.
        if k >= 3 && word(k - 3).as_deref() == Some("one") && word(k - 2).as_deref() == Some("of") {
            return Cue::Strong;
        }
        if let Some(w) = word(k - 2)
            && matches!(w.as_str(), "e.g." | "eg." | "example" | "examples")
        {
            return Cue::Example;
        }
        return Cue::Strong;
    }
    let w1 = if start >= 1 { word(start - 1) } else { None };
    let w2 = if start >= 2 { word(start - 2) } else { None };
    match (w2.as_deref(), w1.as_deref()) {
        (Some("one"), Some("of")) => Cue::Strong,
        (_, Some("either" | "values" | "accepts" | "allowed")) => Cue::Strong,
        (Some("can" | "must" | "may" | "should"), Some("be")) => Cue::Strong,
        (_, Some("e.g." | "eg." | "i.e." | "ie." | "like")) => Cue::Example,
        (Some("such"), Some("as")) | (Some("for"), Some("example")) => Cue::Example,
        _ => Cue::None,
    }
}

/// Finds a doc's enumeration of values: quoted alternatives (`'a', 'b'`, `` `a`|`b` ``,
/// `'x' (default) or 'y'`), a parenthesised list (`(asc, desc)`), a list after a cue
/// ("one of a, b", "e.g. ToolCall, ToolResult, Message"), or a bare "a, b or c".
/// `ignore` holds names that, quoted, refer to other parameters rather than to values.
pub(crate) fn enumerated_values(doc: &str, ignore: &[&str]) -> Option<ValueList> {
    let toks = tokenize(doc);
    let mut i = 0;
    while i < toks.len() {
        let Some(first) = item(&toks[i]) else {
            i += 1;
            continue;
        };
        let mut items = vec![(first, matches!(toks[i], Tok::Quoted(_)))];
        let mut seps = Vec::new();
        let mut j = i + 1;
        loop {
            j = skip_annotation(&toks, j);
            let sep_start = j;
            let mut sep = Vec::new();
            while let Some(t @ (Tok::Comma | Tok::Or | Tok::Pipe | Tok::Slash)) = toks.get(j) {
                sep.push(t.clone());
                j += 1;
            }
            if sep.is_empty() || sep.len() > 2 {
                j = sep_start;
                break;
            }
            let Some(next) = toks.get(j).and_then(item) else {
                j = sep_start;
                break;
            };
            let next_quoted = matches!(toks[j], Tok::Quoted(_));
            // A slash only separates quoted values: unquoted it is "and/or", a path, a ratio.
            if sep.contains(&Tok::Slash) && !next_quoted {
                j = sep_start;
                break;
            }
            seps.extend(sep);
            items.push((next, next_quoted));
            j += 1;
        }
        let end = skip_annotation(&toks, j);
        items.retain(|(v, _)| !ignore.contains(&v.as_str()));
        let quoted = items.iter().filter(|(_, q)| *q).count();
        let values: Vec<String> = items.into_iter().map(|(v, _)| v).collect();
        let n = values.len();
        let has_or = seps.iter().any(|s| matches!(s, Tok::Or | Tok::Pipe));
        let has_pipe = seps.contains(&Tok::Pipe);
        let in_parens = i > 0 && toks[i - 1] == Tok::LParen && toks.get(end) == Some(&Tok::RParen);
        let all_identifiers = values.iter().all(|v| is_identifier(v));
        let closed = n >= 2
            && (quoted >= 2
                || (has_pipe && all_identifiers)
                || (in_parens && all_identifiers)
                || (n >= 3 && has_or && all_identifiers)
                || match cue_before(&toks, i) {
                    Cue::Strong => all_identifiers,
                    Cue::Example => {
                        all_identifiers && (n >= 3 || values.iter().all(|v| looks_like_variant(v)))
                    }
                    Cue::None => false,
                });
        if closed {
            return Some(ValueList { values });
        }
        i = j.max(i + 1);
    }
    None
}

fn item(t: &Tok) -> Option<String> {
    match t {
        Tok::Word(w) if is_identifier(w) && !is_stop_word(w) => Some(w.clone()),
        Tok::Quoted(q) if is_value_like(q) => Some(q.clone()),
        _ => None,
    }
}

/// Words that join prose rather than name values ("at or after", "a, the or any").
fn is_stop_word(w: &str) -> bool {
    matches!(
        w.to_ascii_lowercase().as_str(),
        "a" | "an"
            | "the"
            | "and"
            | "any"
            | "all"
            | "none"
            | "not"
            | "no"
            | "to"
            | "of"
            | "in"
            | "on"
            | "at"
            | "by"
            | "for"
            | "with"
            | "from"
            | "is"
            | "are"
            | "be"
            | "it"
            | "this"
            | "that"
            | "if"
            | "when"
            | "than"
            | "more"
            | "less"
            | "one"
            | "both"
            | "either"
            | "neither"
    )
}

/// Skips a short parenthesised note after a value: `'x' (default) or 'y'`.
fn skip_annotation(toks: &[Tok], j: usize) -> usize {
    if toks.get(j) != Some(&Tok::LParen) {
        return j;
    }
    let mut k = j + 1;
    while k < toks.len() && k - j <= 4 {
        match &toks[k] {
            Tok::RParen => return if k > j + 1 { k + 1 } else { j },
            Tok::Word(_) => k += 1,
            _ => return j,
        }
    }
    j
}

// ---------------------------------------------------------------------------------------------
// hidden_coupling

/// Phrases that by themselves make a parameter conditional on something else.
const COUPLING_PHRASES: &[&str] = &[
    "only applies",
    "applies only",
    "only apply",
    "only valid when",
    "only valid if",
    "only valid with",
    "only valid for",
    "valid only when",
    "valid only if",
    "valid only with",
    "ignored unless",
    "ignored otherwise",
    "otherwise ignored",
    "otherwise it is ignored",
    "has no effect unless",
    "no effect unless",
    "only takes effect",
    "takes effect only",
    "only meaningful",
    "meaningful only",
    "only relevant",
    "relevant only",
    "only used with",
    "used only with",
    "only used together",
    "only works with",
    "only works when",
    "only works if",
    "mutually exclusive",
    "cannot be combined",
    "can't be combined",
    "cannot be used with",
    "can't be used with",
    "must be used with",
    "only allowed when",
    "only allowed if",
];

/// Condition words that make a parameter conditional only when followed, in the same
/// sentence, by another parameter's name ("requires `detail_level`", "when format is ...").
const CONDITION_CUES: &[&str] = &[
    "requires",
    "require",
    "required when",
    "required if",
    "when",
    "if",
    "unless",
    "only used if",
    "only used when",
    "used only if",
    "used only when",
    "ignored if",
    "ignored when",
    "has no effect when",
    "has no effect if",
    "depends on",
    "use with",
    "used with",
    "together with",
    "in combination with",
    "combined with",
    "only with",
    "only for",
];

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Coupling {
    /// The sentence that states the dependency, as written.
    pub evidence: String,
    /// The other parameter it names, if any.
    pub other: Option<String>,
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Byte offsets of whole-word occurrences of `word` (a parameter name) in `hay`.
fn find_word(hay: &str, word: &str, from: usize) -> Option<usize> {
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

fn sentences(doc: &str) -> Vec<String> {
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

/// Finds a statement that the parameter's meaning depends on another parameter or its value.
pub(crate) fn coupling(doc: &str, own: &str, siblings: &[&str]) -> Option<Coupling> {
    let others: Vec<&str> = siblings.iter().copied().filter(|s| *s != own).collect();
    for sentence in sentences(doc) {
        let lower = sentence.to_ascii_lowercase();
        let named = |from: usize| {
            others
                .iter()
                .filter_map(|o| find_word(&lower, &o.to_ascii_lowercase(), from).map(|p| (p, *o)))
                .min()
                .map(|(_, o)| o.to_string())
        };
        if let Some(p) = COUPLING_PHRASES
            .iter()
            .filter_map(|p| find_word(&lower, p, 0))
            .min()
        {
            return Some(Coupling {
                evidence: sentence.clone(),
                other: named(p).or_else(|| named(0)),
            });
        }
        // `detail_level='turns'`, `format == "json"`: a condition on another parameter's value.
        for o in &others {
            let o = o.to_ascii_lowercase();
            if let Some(p) = find_word(&lower, &o, 0) {
                let rest = lower[p + o.len()..].trim_start_matches(['`', ' ']);
                if rest.starts_with('=') || rest.starts_with("!=") {
                    return Some(Coupling {
                        evidence: sentence.clone(),
                        other: Some(o.clone()),
                    });
                }
            }
        }
        for cue in CONDITION_CUES {
            if let Some(p) = find_word(&lower, cue, 0)
                && let Some(other) = named(p + cue.len())
            {
                return Some(Coupling {
                    evidence: sentence.clone(),
                    other: Some(other),
                });
            }
        }
    }
    None
}

// ---------------------------------------------------------------------------------------------
// mode_toggle

/// Words that name the shape or size of a response rather than which records it holds.
const SHAPE_WORDS: &[&str] = &[
    "full",
    "verbose",
    "raw",
    "detailed",
    "details",
    "detail",
    "expand",
    "expanded",
    "compact",
    "brief",
    "concise",
    "terse",
    "minimal",
    "pretty",
    "untruncated",
    "truncate",
    "truncated",
    "payload",
    "payloads",
    "preview",
    "previews",
    "markdown",
    "json",
    "html",
    "xml",
    "summarize",
    "summarized",
    "summary",
    "summaries",
    "debug",
];

/// Prefixes of filters and predicates: they choose records, not the response's shape.
const FILTER_PREFIXES: &[&str] = &["has", "is", "only", "exclude", "skip", "without", "hide"];

pub(crate) fn is_mode_toggle_name(name: &str) -> bool {
    let segs = segments(name);
    let Some(first) = segs.first() else {
        return false;
    };
    if FILTER_PREFIXES.contains(&first.as_str()) {
        return false;
    }
    let first_shape = SHAPE_WORDS.contains(&first.as_str());
    // `include_*`, `show_*`, `return_*`, `with_*`, `as_*`: look at what is included.
    let prefixed = matches!(
        first.as_str(),
        "include" | "show" | "return" | "with" | "as" | "use" | "output" | "print"
    );
    first_shape || (prefixed && segs[1..].iter().any(|s| SHAPE_WORDS.contains(&s.as_str())))
}

// ---------------------------------------------------------------------------------------------
// implicit_default

/// Finds a default stated in prose ("defaults to 20", "(default: 20)", "default 20",
/// "Default is X", "'x' (default)"). Returns the stated value when it can be read.
pub(crate) fn stated_default(doc: &str) -> Option<String> {
    let lower = doc.to_ascii_lowercase();
    let mut from = 0;
    while let Some(pos) = lower[from..].find("default") {
        let at = from + pos;
        from = at + "default".len();
        let before = lower[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let mut rest = &lower[from..];
        let mut original = &doc[from..];
        if let Some(r) = rest.strip_prefix('s') {
            rest = r;
            original = &original[1..];
        }
        if rest.starts_with(')') && before == Some('(') {
            // "'x' (default) or 'y'": the value is the quoted word before the note.
            let head = doc[..at - 1].trim_end();
            let value = head.trim_end_matches(['\'', '"', '`']);
            let value = value.rsplit(['\'', '"', '`', ' ']).next().unwrap_or("");
            return Some(value.to_string());
        }
        let trimmed = rest.trim_start();
        let skipped = rest.len() - trimmed.len();
        let original = &original[skipped..];
        let after_marker = ["to ", "is ", "value is ", ":", "=", "of "]
            .iter()
            .find(|m| trimmed.starts_with(**m))
            .map(|m| &original[m.len()..]);
        let value_start = match after_marker {
            Some(v) => Some(v),
            // "default 20", "default `10`": a value right after the word.
            None if trimmed
                .starts_with(|c: char| c.is_ascii_digit() || matches!(c, '\'' | '"' | '`')) =>
            {
                Some(original)
            }
            None => None,
        };
        if let Some(v) = value_start {
            let v = v.trim_start();
            let value: String = v
                .trim_start_matches(['\'', '"', '`'])
                .chars()
                .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
                .collect();
            let value = value.trim_end_matches('.').to_string();
            // "default is to list everything" states a behaviour, not a value; still a default.
            return Some(value);
        }
    }
    None
}

// ---------------------------------------------------------------------------------------------
// unbounded_limit

const PAGE_SIZE_NAMES: &[&str] = &[
    "limit",
    "page_size",
    "per_page",
    "max_results",
    "max_items",
    "max_count",
    "max_hits",
    "max_entries",
    "max_rows",
    "max_records",
    "max_events",
    "max_sessions",
    "count",
    "top_k",
    "top_n",
    "k",
    "n",
    "num_results",
    "n_results",
    "num_items",
    "size",
    "batch_size",
    "take",
    "first",
    "last",
    "results",
    "page_limit",
    "result_limit",
    "items_per_page",
    "results_per_page",
];

pub(crate) fn is_page_size_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    PAGE_SIZE_NAMES.contains(&lower.as_str())
        || lower.ends_with("_limit")
        || lower.ends_with("_per_page")
        || lower.ends_with("_page_size")
}

// ---------------------------------------------------------------------------------------------
// vague_name

/// Parameter names that say how the implementation uses a value instead of what it is, with
/// the rename to suggest.
const VAGUE_PARAMS: &[(&str, &str)] = &[
    (
        "pattern",
        "`query` for text to look for, `regex` only if it is one, `glob` for file globs",
    ),
    ("data", "what the data is (`event`, `rows`, `document`)"),
    (
        "input",
        "what the input is (`source_code`, `prompt`, `file_path`)",
    ),
    (
        "value",
        "what the value is (`threshold`, `new_title`, `setting_value`)",
    ),
    ("val", "what the value is (`threshold`, `new_title`)"),
    (
        "flag",
        "what it turns on (`include_archived`, `case_sensitive`)",
    ),
    ("params", "the parameters themselves, as separate fields"),
    ("param", "what the parameter is"),
    (
        "parameters",
        "the parameters themselves, as separate fields",
    ),
    ("args", "the arguments themselves, as separate fields"),
    ("arg", "what the argument is"),
    ("arguments", "the arguments themselves, as separate fields"),
    ("options", "the options themselves, as separate fields"),
    ("opts", "the options themselves, as separate fields"),
    ("obj", "what the object is (`event`, `session`)"),
    ("object", "what the object is (`event`, `session`)"),
    ("item", "what the item is (`event`, `session`, `file_path`)"),
    (
        "info",
        "what the information is (`session_summary`, `error_details`)",
    ),
    ("payload", "what the payload is (`message_body`, `event`)"),
    ("json", "what the JSON holds (`filter`, `document`)"),
    ("str", "what the text is (`title`, `message`, `query`)"),
    ("string", "what the text is (`title`, `message`, `query`)"),
    ("s", "what the text is (`title`, `message`, `query`)"),
    ("x", "what the value is"),
    ("y", "what the value is"),
    ("tmp", "what the value is"),
    ("temp", "what the value is (`temperature`?)"),
    ("thing", "what the thing is"),
    ("stuff", "what the values are"),
    ("misc", "what the values are"),
    ("foo", "what the value is"),
    ("bar", "what the value is"),
    (
        "blob",
        "what the content is (`file_content`, `image_png_base64`)",
    ),
];

pub(crate) fn vague_param_name(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    // `data2`, `input_1`: numbering does not make a vague name precise.
    let stem = lower
        .trim_end_matches(|c: char| c.is_ascii_digit())
        .trim_end_matches('_');
    VAGUE_PARAMS
        .iter()
        .find(|(n, _)| *n == stem)
        .map(|(_, s)| *s)
}

/// Tool-name segments that say nothing about what the tool does.
const VAGUE_TOOL_WORDS: &[&str] = &[
    "do",
    "it",
    "handle",
    "handler",
    "process",
    "run",
    "execute",
    "exec",
    "manage",
    "tool",
    "tools",
    "helper",
    "helpers",
    "misc",
    "util",
    "utils",
    "utility",
    "invoke",
    "call",
    "perform",
    "action",
    "task",
    "operation",
    "op",
    "thing",
    "stuff",
    "data",
    "request",
    "input",
    "main",
    "go",
    "this",
    "that",
    "something",
    "generic",
    "general",
    "api",
    "function",
    "func",
    "fn",
    "command",
    "cmd",
];

/// A tool name made only of vague words (`do_it`, `handle`, `process_data`, `run_tool`).
pub(crate) fn is_vague_tool_name(name: &str) -> bool {
    let segs = segments(name);
    !segs.is_empty() && segs.iter().all(|s| VAGUE_TOOL_WORDS.contains(&s.as_str()))
}

// ---------------------------------------------------------------------------------------------
// tool_name

/// `^[a-z][a-z0-9_]{0,63}$`.
pub(crate) fn is_valid_tool_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= 64
        && bytes[0].is_ascii_lowercase()
        && bytes
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'_')
}

/// Rewrites a name into the allowed alphabet (`Search-Events` -> `search_events`).
pub(crate) fn snake_case(name: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            if prev_lower {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            prev_lower = false;
        } else if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
            prev_lower = true;
        } else {
            if !out.ends_with('_') && !out.is_empty() {
                out.push('_');
            }
            prev_lower = false;
        }
    }
    let out = out.trim_matches('_').to_string();
    let out = out
        .trim_start_matches(|c: char| c.is_ascii_digit() || c == '_')
        .to_string();
    out.chars().take(64).collect()
}

/// Verbs a tool name may start with. Generous on purpose: this rule is about the name
/// reading as an action, not about a house vocabulary.
pub(crate) const READ_VERBS: &[&str] = &[
    "get",
    "list",
    "search",
    "find",
    "read",
    "fetch",
    "query",
    "lookup",
    "look",
    "show",
    "describe",
    "view",
    "inspect",
    "count",
    "browse",
    "scan",
    "peek",
    "explain",
    "diff",
    "compare",
    "preview",
    "resolve",
    "locate",
    "retrieve",
    "load",
    "download",
    "export",
    "estimate",
    "measure",
    "sample",
    "analyze",
    "analyse",
    "summarize",
    "summarise",
    "check",
    "validate",
    "verify",
    "test",
    "lint",
    "compute",
    "calculate",
    "count",
    "detect",
    "classify",
    "extract",
    "parse",
    "render",
    "format",
    "convert",
    "translate",
    "transform",
    "match",
    "rank",
    "score",
    "evaluate",
    "review",
    "audit",
    "trace",
    "profile",
    "monitor",
    "watch",
    "poll",
    "ping",
    "tail",
    "grep",
    "diagnose",
    "debug",
    "suggest",
    "recommend",
    "plan",
    "predict",
    "generate",
    "draft",
    "outline",
    "map",
    "index",
    "tokenize",
    "embed",
    "hash",
    "sort",
    "filter",
    "group",
    "aggregate",
    "collect",
    "navigate",
    "open",
    "await",
    "wait",
    "explore",
    "identify",
    "recall",
];

/// Verbs of tools that act, besides [`MUTATING_VERBS`]: running, starting, connecting,
/// clicking... Together with [`READ_VERBS`] they are the verbs a tool name may start with.
const ACTION_VERBS: &[&str] = &[
    "change",
    "copy",
    "message",
    "start",
    "stop",
    "restart",
    "pause",
    "resume",
    "schedule",
    "trigger",
    "release",
    "import",
    "sync",
    "subscribe",
    "unsubscribe",
    "lock",
    "unlock",
    "apply",
    "pull",
    "fork",
    "clone",
    "tag",
    "label",
    "mark",
    "pin",
    "unpin",
    "star",
    "unstar",
    "follow",
    "unfollow",
    "charge",
    "run",
    "execute",
    "build",
    "compile",
    "record",
    "log",
    "attach",
    "detach",
    "link",
    "unlink",
    "connect",
    "disconnect",
    "login",
    "logout",
    "authenticate",
    "authorize",
    "configure",
    "init",
    "initialize",
    "provision",
    "scale",
    "migrate",
    "seed",
    "fill",
    "click",
    "type",
    "press",
    "navigate",
    "scroll",
    "select",
    "upvote",
    "like",
    "share",
    "block",
    "unblock",
    "mute",
    "unmute",
    "complete",
    "finish",
    "accept",
    "decline",
    "confirm",
    "empty",
    "dismiss",
    "snooze",
    "translate",
];

/// Verbs that only read: a tool named with one cannot be `destructive`. Kept strict (no
/// `check`, `index`, `export`...) because those sometimes write.
const PURE_READ_VERBS: &[&str] = &[
    "get",
    "list",
    "search",
    "find",
    "read",
    "fetch",
    "query",
    "lookup",
    "show",
    "describe",
    "view",
    "inspect",
    "count",
    "browse",
    "peek",
    "explain",
    "preview",
    "summarize",
    "summarise",
    "analyze",
    "analyse",
    "estimate",
    "retrieve",
    "diff",
    "compare",
];

/// Verbs that certainly change state: a tool named with one cannot be `read_only`. Kept
/// strict (no `run`, `build`, `test`...) because running something may only read.
const MUTATING_VERBS: &[&str] = &[
    "write",
    "create",
    "update",
    "delete",
    "remove",
    "add",
    "set",
    "unset",
    "put",
    "post",
    "patch",
    "edit",
    "modify",
    "rename",
    "move",
    "insert",
    "append",
    "prepend",
    "replace",
    "upsert",
    "save",
    "store",
    "upload",
    "send",
    "publish",
    "reply",
    "comment",
    "notify",
    "email",
    "invite",
    "assign",
    "unassign",
    "close",
    "reopen",
    "merge",
    "approve",
    "reject",
    "cancel",
    "kill",
    "deploy",
    "rollback",
    "revert",
    "reset",
    "clear",
    "purge",
    "drop",
    "truncate",
    "archive",
    "unarchive",
    "restore",
    "install",
    "uninstall",
    "enable",
    "disable",
    "register",
    "unregister",
    "grant",
    "revoke",
    "commit",
    "push",
    "destroy",
    "erase",
    "wipe",
    "overwrite",
    "discard",
    "submit",
    "pay",
    "refund",
    "transfer",
    "ban",
    "book",
    "buy",
];

pub(crate) fn is_verb(word: &str) -> bool {
    READ_VERBS.contains(&word) || MUTATING_VERBS.contains(&word) || ACTION_VERBS.contains(&word)
}

pub(crate) fn is_read_verb(word: &str) -> bool {
    PURE_READ_VERBS.contains(&word)
}

pub(crate) fn is_write_verb(word: &str) -> bool {
    MUTATING_VERBS.contains(&word)
}

/// `ToolCall, ToolResult` -> `ToolCall`, `ToolResult`; `claude_code` -> `ClaudeCode`.
pub(crate) fn variant_name(value: &str) -> String {
    value
        .split(|c: char| !c.is_alphanumeric())
        .filter(|s| !s.is_empty())
        .map(|s| {
            let mut cs = s.chars();
            let first = cs
                .next()
                .map(|c| c.to_ascii_uppercase())
                .unwrap_or_default();
            let rest: String = cs.collect();
            // Keep CamelCase as written; lower-case SHOUTING words.
            if rest.chars().all(|c| !c.is_ascii_lowercase()) {
                format!("{first}{}", rest.to_ascii_lowercase())
            } else {
                format!("{first}{rest}")
            }
        })
        .collect()
}

pub(crate) fn type_name(param: &str) -> String {
    variant_name(param)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_single_edits() {
        assert_eq!(edit_distance("vague_names", "vague_name"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

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

    #[test]
    fn enumerated_values_are_returned_as_written() {
        let v = enumerated_values(
            "Filter by event type (e.g. ToolCall, ToolResult, Message)",
            &[],
        )
        .unwrap();
        assert_eq!(v.values, ["ToolCall", "ToolResult", "Message"]);
        let v = enumerated_values("'newest' (default) or 'oldest'.", &[]).unwrap();
        assert_eq!(v.values, ["newest", "oldest"]);
        assert_eq!(
            enumerated_values("Use `query` or `cursor`.", &["query", "cursor"]),
            None
        );
    }

    #[test]
    fn stated_default_reads_the_value() {
        assert_eq!(
            stated_default("Results per page; defaults to 20.").as_deref(),
            Some("20")
        );
        assert_eq!(
            stated_default("(default: `newest`)").as_deref(),
            Some("newest")
        );
        assert_eq!(
            stated_default("'newest' (default) or 'oldest'").as_deref(),
            Some("newest")
        );
        assert_eq!(stated_default("Default is 0.5.").as_deref(), Some("0.5"));
        assert_eq!(stated_default("The default profile is used."), None);
        assert_eq!(stated_default("A defaulted value."), None);
    }

    #[test]
    fn coupling_reports_the_other_parameter() {
        let c = coupling(
            "WARNING: Only valid when detail_level='turns'. Ignored otherwise.",
            "x",
            &["detail_level", "x"],
        );
        assert_eq!(c.unwrap().other.as_deref(), Some("detail_level"));
        // A parameter mentioning itself is not coupled to anything.
        assert_eq!(
            coupling("Ignored if limit is 0.", "limit", &["limit"]),
            None
        );
    }

    #[test]
    fn snake_case_repairs_names() {
        assert_eq!(snake_case("searchEvents"), "search_events");
        assert_eq!(snake_case("Search-Events"), "search_events");
        assert_eq!(snake_case("9 get it"), "get_it");
    }

    #[test]
    fn variant_names_are_camel_case() {
        assert_eq!(variant_name("claude_code"), "ClaudeCode");
        assert_eq!(variant_name("ToolCall"), "ToolCall");
        assert_eq!(variant_name("ERROR"), "Error");
        assert_eq!(type_name("event_type"), "EventType");
    }

    #[test]
    fn tool_name_syntax() {
        assert!(is_valid_tool_name("get_x1"));
        assert!(is_valid_tool_name(&format!("g{}", "e".repeat(63))));
        assert!(!is_valid_tool_name(&format!("g{}", "e".repeat(64))));
        assert!(!is_valid_tool_name("get-x"));
        assert!(!is_valid_tool_name(""));
    }
}
