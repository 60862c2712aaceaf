//! `closed_domain_string`: a `String` (or `Vec<String>`) parameter that takes one of a fixed
//! set of values, as its name or its doc shows.

use super::{ParamCx, Rule, quote_list};
use crate::text::identifiers::{segments, type_name, variant_name};
use crate::text::tokens::{Tok, tokenize};
use crate::{Finding, Lint, Origin, TypeClass};

pub(crate) const RULE: Rule = Rule {
    param: Some(check),
    ..Rule::NONE
};

fn is_stringish(ty: &TypeClass) -> bool {
    match ty {
        TypeClass::String => true,
        TypeClass::Array(inner) => **inner == TypeClass::String,
        _ => false,
    }
}

fn check(cx: &ParamCx<'_>, out: &mut Vec<Finding>) {
    let p = cx.param;
    let name = p.name.as_str();
    if !is_stringish(&p.ty) {
        return;
    }
    // The field's own name refers to it, not to a value, so it never counts as a quoted value.
    let mut ignore: Vec<&str> = cx.names.to_vec();
    ignore.push("next_cursor");
    let hint = name_hint(name);
    // A string that holds JSON is structured, whatever its name says.
    let holds_json = cx.doc.is_some_and(|d| d.to_ascii_lowercase().contains("json"));
    // The name alone is evidence only for the author's own field: another server's
    // `provider` may be as open as its integrations, and the model reads its description.
    let by_name = hint == NameHint::Closed && !holds_json && cx.args.origin == Origin::Code;
    let by_doc = cx.doc.and_then(|d| {
        enumerated_values(d, &ignore, hint != NameHint::Open)
            .or_else(|| scattered_values(d, &ignore).filter(|_| hint == NameHint::Maybe))
            .or_else(|| {
                // The author's own doc that names a few one-word values joined by "or" is
                // the plainest closed set; another server's is read more cautiously.
                (cx.args.origin == Origin::Code)
                    .then(|| or_values(d, hint != NameHint::Open))
                    .flatten()
            })
    });
    if !by_name && by_doc.is_none() {
        return;
    }
    let ty = type_name(name);
    let variants = match &by_doc {
        Some(list) => list
            .values
            .iter()
            .map(|v| variant_name(v))
            .collect::<Vec<_>>()
            .join(", "),
        None => "..".to_string(),
    };
    let why = match &by_doc {
        Some(list) => format!(
            "its description enumerates values ({})",
            quote_list(&list.values)
        ),
        None => "its name says it takes one of a fixed set of values".to_string(),
    };
    let wrap = if p.required {
        ty.clone()
    } else {
        format!("Option<{ty}>")
    };
    let wrap = if matches!(p.ty, TypeClass::Array(_)) {
        format!("Vec<{ty}>")
    } else {
        wrap
    };
    out.push(Finding::new(
        Lint::ClosedDomainString,
        cx.target,
        format!("`{name}` lists a closed set of values but is a `String`: {why}"),
        format!(
            "declare the values as an enum so the schema lists them: `#[tool_args] pub enum {ty} {{ {variants} }}` and `{name}: {wrap}`"
        ),
    ).with_schema_fix(format!(
        "list the values in the schema: `\"enum\": [...]` on `{name}` (or on its items), each value described"
    )));
}

/// How much a parameter's name says about its values.
#[derive(Debug, Clone, Copy, PartialEq)]
enum NameHint {
    /// The name cannot mean anything open (`sort_direction`, `visibility`): it fires alone.
    Closed,
    /// The name often takes a closed set but also open values in real tools (`type`,
    /// `format`, `status`, `language`, `model`): only the doc can tell.
    Maybe,
    /// Nothing in the name.
    Open,
}

/// Names (whole, or as the last `_`-segment) whose values are one of a few fixed words in
/// every tool seen: the order of a sort, who may see something, how much to say, and the
/// provider, which can only be one the tool has an integration for.
const CLOSED_NAMES: &[&str] = &[
    "provider",
    "direction",
    "sort_direction",
    "sort_order",
    "order",
    "visibility",
    "verbosity",
    "granularity",
    "severity",
    "priority",
    "log_level",
];

/// Last `_`-segments that often name a closed set but take open values in real tools (an
/// issue `type` defined per organisation, a pandoc `format`, a model id, a Slack `channel`).
const MAYBE_CLOSED_WORDS: &[&str] = &[
    "type", "kind", "status", "state", "mode", "format", "level", "sort", "role",
    "category", "strategy", "stage", "phase", "tier", "unit", "units", "platform", "channel",
    "method", "encoding", "flavor", "flavour", "variant", "style", "language", "model", "scale",
    "by",
];

/// A few one-word values joined by "or" in the author's doc: a clause that is only the list
/// (`How much to return, summary or full.`, `metric or imperial`), or, when the name already
/// sounds closed, a sentence that ends with one (`Sort by date or size.`). Not in parentheses
/// (`owner (username or organization)` says what kind of value), not after an example cue,
/// and every item one identifier-like word.
fn or_values(doc: &str, name_sounds_closed: bool) -> Option<ValueList> {
    let word = |w: &str| {
        !w.is_empty()
            && w.len() <= 24
            && w.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && w.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    for sentence in crate::text::sentences::sentences(doc) {
        let lower = sentence
            .trim_end_matches(['.', '!', '?'])
            .to_ascii_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        if words.iter().any(|w| is_example_word(w.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '.'))) {
            continue;
        }
        // The clauses of the sentence, outside parentheses.
        let mut depth = 0usize;
        let mut clauses = vec![String::new()];
        for c in lower.chars() {
            match c {
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                ':' | ',' if depth == 0 => clauses.push(String::new()),
                _ if depth == 0 => clauses.last_mut().expect("one clause").push(c),
                _ => {}
            }
        }
        // "a, b or c": the items before the last clause join the list.
        let last = clauses.last().map(|c| c.trim().to_string()).unwrap_or_default();
        let Some((before, after)) = last.rsplit_once(" or ") else {
            continue;
        };
        let after = after.trim();
        let before_words: Vec<&str> = before.split_whitespace().collect();
        let mut values: Vec<String> = Vec::new();
        if before_words.len() == 1 {
            // The clause is only the list; earlier one-word clauses belong to it.
            let earlier: Vec<&str> = clauses[..clauses.len() - 1]
                .iter()
                .rev()
                .map(|c| c.trim())
                .take_while(|c| word(c))
                .collect();
            values.extend(earlier.into_iter().rev().map(str::to_string));
            values.push(before_words[0].to_string());
        } else if name_sounds_closed && before_words.len() > 1 {
            values.push(before_words.last().copied().unwrap_or_default().to_string());
        } else {
            continue;
        }
        values.push(after.to_string());
        if values.len() >= 2
            && values.len() <= 5
            && values.iter().all(|v| word(v) && !is_stop_word(v))
        {
            return Some(ValueList { values });
        }
    }
    None
}

/// Names ending in a closed-sounding word whose values are open (registries of thousands of
/// values, or free text).
const OPEN_DESPITE_SUFFIX: &[&str] = &["mime_type", "content_type", "media_type", "state_dir"];

fn name_hint(name: &str) -> NameHint {
    let lower = name.to_ascii_lowercase();
    if OPEN_DESPITE_SUFFIX.contains(&lower.as_str()) {
        return NameHint::Open;
    }
    let segs = segments(&lower);
    let Some(last) = segs.last() else {
        return NameHint::Open;
    };
    // Plurals (`statuses`, `kinds`) name a set of values from the same domain.
    let ies = last.strip_suffix("ies").map(|s| format!("{s}y"));
    let singular = ies.as_deref().unwrap_or_else(|| {
        last.strip_suffix("es")
            .filter(|s| s.ends_with("us"))
            .or_else(|| last.strip_suffix('s'))
            .unwrap_or(last)
    });
    let tail2 = segs[segs.len().saturating_sub(2)..].join("_");
    if CLOSED_NAMES.contains(&lower.as_str())
        || CLOSED_NAMES.contains(&tail2.as_str())
        || CLOSED_NAMES.contains(&last.as_str())
        || CLOSED_NAMES.contains(&singular)
    {
        NameHint::Closed
    } else if MAYBE_CLOSED_WORDS.contains(&last.as_str())
        || MAYBE_CLOSED_WORDS.contains(&singular)
    {
        NameHint::Maybe
    } else {
        NameHint::Open
    }
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

/// `ToolCall, ToolResult, Message`, `INBOX, SPAM`: every value capitalised and one at least
/// spelled like an enum variant rather than an English word.
fn spelled_as_variants(values: &[String]) -> bool {
    let capitalised = |v: &String| v.chars().next().is_some_and(|c| c.is_ascii_uppercase());
    values.iter().all(capitalised) && values.iter().any(|v| looks_like_variant(v))
}

/// `ToolCall`, `TOOL_CALL`: spelled like an enum variant rather than an English word.
fn looks_like_variant(s: &str) -> bool {
    let mut chars = s.chars();
    let first_upper = chars.next().is_some_and(|c| c.is_ascii_uppercase());
    let rest_upper = s.chars().skip(1).any(|c| c.is_ascii_uppercase());
    first_upper && rest_upper
}

#[derive(Debug, Clone, PartialEq)]
struct ValueList {
    /// The values found, as written.
    values: Vec<String>,
}

#[derive(Clone, Copy, PartialEq)]
enum Cue {
    None,
    /// "one of", "either", "can be", "must be", "allowed values", a colon: announces the
    /// whole set.
    Strong,
    /// "e.g.", "such as", "for example", "like", "including": announces examples of a set
    /// that may be open.
    Example,
}

fn lower_word(t: Option<&Tok>) -> Option<String> {
    match t {
        Some(Tok::Word(w)) => Some(w.to_ascii_lowercase()),
        _ => None,
    }
}

fn is_example_word(w: &str) -> bool {
    matches!(
        w,
        "e.g." | "eg." | "e.g" | "example" | "examples" | "instance" | "like" | "including"
            | "include" | "includes" | "such" | "say" | "i.e." | "ie."
    )
}

/// The cue that introduces a list starting at `start`. An example cue anywhere earlier in the
/// sentence wins ("Only snippets in this language, e.g. rust, python"); a strong cue must be
/// right before the list ("Allowed values are viewer, ..."), as must a colon.
fn cue_before(toks: &[Tok], start: usize) -> Cue {
    let word = |k: usize| lower_word(toks.get(k));
    let mut k = start;
    while k > 0 {
        k -= 1;
        match &toks[k] {
            Tok::Stop => break,
            Tok::Word(w) if is_example_word(&w.to_ascii_lowercase()) => return Cue::Example,
            _ => {}
        }
    }
    if start > 0 && toks[start - 1] == Tok::Colon {
        return Cue::Strong;
    }
    // "Allowed values are a, b": the cue, then at most a few filler words, then the list.
    let mut k = start;
    while k > 0 && matches!(word(k - 1).as_deref(), Some("are" | "is" | "the" | "following")) {
        k -= 1;
    }
    let Some(w) = k.checked_sub(1).and_then(word) else {
        return Cue::None;
    };
    let before = k.checked_sub(2).and_then(word);
    let strong = match w.as_str() {
        "either" | "values" | "accepts" | "accepted" | "allowed" | "supported" | "options"
        | "choices" => true,
        "of" => before.as_deref() == Some("one"),
        "from" => matches!(before.as_deref(), Some("pick" | "choose" | "select")),
        "be" => matches!(before.as_deref(), Some("can" | "must" | "may" | "should")),
        _ => false,
    };
    if strong {
        return Cue::Strong;
    }
    Cue::None
}

/// Finds a doc's enumeration of the whole set of values: quoted alternatives (`'a', 'b'`,
/// `` `a`|`b` ``, `'x' (default) or 'y'`), a pipe list (`a|b`), a parenthesised list
/// (`(asc, desc)`), a list after a strong cue ("one of a, b", "Allowed values are a, b and
/// c", "Pick from: a, b") or a doc that is only a list ("metric or imperial").
///
/// Examples are not a closed set: after "e.g.", "such as", "for example", "like" or
/// "including", values count only when `name_says_closed` and they are spelled like enum
/// variants (`e.g. ToolCall, ToolResult`). `ignore` holds names that, quoted, refer to other
/// parameters rather than to values.
fn enumerated_values(doc: &str, ignore: &[&str], name_says_closed: bool) -> Option<ValueList> {
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
            // "viewer, commenter and editor": `and` ends a comma list.
            if (sep == [Tok::Comma] || sep.is_empty())
                && let Some(Tok::Word(w)) = toks.get(j)
                && w.eq_ignore_ascii_case("and")
                && (!sep.is_empty() || seps.contains(&Tok::Comma))
            {
                sep.push(Tok::Comma);
                j += 1;
            }
            if sep.is_empty() || sep.len() > 2 {
                j = sep_start;
                break;
            }
            // In a pipe list every word is a value, `on` and `off` included.
            let next = match toks.get(j) {
                Some(Tok::Word(w)) if sep.contains(&Tok::Pipe) && is_identifier(w) => {
                    Some(w.clone())
                }
                t => t.and_then(item),
            };
            let Some(next) = next else {
                j = sep_start;
                break;
            };
            let next_quoted = matches!(toks[j], Tok::Quoted(_));
            seps.extend(sep);
            items.push((next, next_quoted));
            j += 1;
        }
        let end = skip_annotation(&toks, j);
        items.retain(|(v, _)| !ignore.contains(&v.as_str()));
        let quoted = items.iter().filter(|(_, q)| *q).count();
        let values: Vec<String> = items.into_iter().map(|(v, _)| v).collect();
        let n = values.len();
        let has_pipe = seps.contains(&Tok::Pipe);
        let listy = seps.iter().any(|s| *s != Tok::Or);
        let in_parens = i > 0 && toks[i - 1] == Tok::LParen && toks.get(end) == Some(&Tok::RParen);
        let all_identifiers = values.iter().all(|v| is_identifier(v));
        // A slash between bare words is a separator only in a longer list ("low / normal /
        // high"): two are "read/write", a ratio, a path.
        let slash_ok = !seps.contains(&Tok::Slash) || quoted >= 2 || n >= 3;
        // The doc is the list: "metric or imperial", "low / normal / high / critical".
        // "1h, 24h, 7d, etc.": the list says itself that it goes on.
        let open_ended = toks[end..]
            .iter()
            .take(2)
            .any(|t| matches!(t, Tok::Word(w) if matches!(w.to_ascii_lowercase().as_str(), "etc." | "etc" | "...")));
        let whole_doc = i == 0 && matches!(toks.get(end), None | Some(Tok::Stop | Tok::LParen));
        // "Email, display name, or account ID": the last word runs on into a phrase, so the
        // items are phrases, not values.
        let runs_on = !items_last_quoted(&toks, j) && matches!(toks.get(end), Some(Tok::Word(_)));
        let closed = n >= 2
            && slash_ok
            && !runs_on
            && !open_ended
            && match cue_before(&toks, i) {
                Cue::Example => name_says_closed && all_identifiers && spelled_as_variants(&values),
                Cue::Strong => all_identifiers || quoted >= 2,
                // Quoted words without a cue are a set when they are alternatives ("'newest'
                // or 'oldest'"), not when prose lists syntax ("supports `OR`, `NOT`").
                Cue::None => {
                    (quoted >= 2 && seps.iter().any(|s| *s != Tok::Comma))
                        || (has_pipe && all_identifiers)
                        || (in_parens && all_identifiers && (listy || n >= 3))
                        || (whole_doc && all_identifiers)
                }
            };
        if closed {
            return Some(ValueList { values });
        }
        i = j.max(i + 1);
    }
    None
}

/// Whether the last item of a list ending before `j` was quoted.
fn items_last_quoted(toks: &[Tok], j: usize) -> bool {
    j.checked_sub(1)
        .and_then(|k| toks.get(k))
        .is_some_and(|t| matches!(t, Tok::Quoted(_)))
}

/// Quoted values spread through a doc rather than listed: "local branches ('local'), remote
/// branches ('remote') or all branches ('all')", "Sort field ('indexed' only)". Only next to
/// a name that sounds closed: three or more distinct values outside examples, or one value
/// said to be the only one.
fn scattered_values(doc: &str, ignore: &[&str]) -> Option<ValueList> {
    let toks = tokenize(doc);
    let mut values: Vec<String> = Vec::new();
    for (k, t) in toks.iter().enumerate() {
        let Tok::Quoted(q) = t else { continue };
        if !is_identifier(q) || ignore.contains(&q.as_str()) || cue_before(&toks, k) == Cue::Example
        {
            continue;
        }
        let only = matches!(toks.get(k + 1), Some(Tok::Word(w)) if w.eq_ignore_ascii_case("only"));
        if only {
            return Some(ValueList {
                values: vec![q.clone()],
            });
        }
        if !values.contains(q) {
            values.push(q.clone());
        }
    }
    (values.len() >= 3).then_some(ValueList { values })
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


#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enumerated_values_are_returned_as_written() {
        let v = enumerated_values(
            "Filter by event type (e.g. ToolCall, ToolResult, Message)",
            &[],
            true,
        )
        .unwrap();
        assert_eq!(v.values, ["ToolCall", "ToolResult", "Message"]);
        let v = enumerated_values("'newest' (default) or 'oldest'.", &[], false).unwrap();
        assert_eq!(v.values, ["newest", "oldest"]);
        assert_eq!(
            enumerated_values("Use `query` or `cursor`.", &["query", "cursor"], false),
            None
        );
    }
}
