//! `closed_domain_string`: a `String` (or `Vec<String>`) parameter that takes one of a fixed
//! set of values, as its name or its doc shows.

use super::{ParamCx, Rule, quote_list};
use crate::text::identifiers::{segments, type_name, variant_name};
use crate::text::tokens::{Tok, tokenize};
use crate::{Finding, Lint, TypeClass};

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
    let by_name = closed_domain_by_name(name);
    let by_doc = cx.doc.and_then(|d| enumerated_values(d, &ignore));
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
    ));
}

/// Words that, as a name's last `_`-segment (or its whole name), denote a closed set of values.
const CLOSED_DOMAIN_WORDS: &[&str] = &[
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

fn closed_domain_by_name(name: &str) -> bool {
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
struct ValueList {
    /// The values found, as written.
    values: Vec<String>,
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
fn enumerated_values(doc: &str, ignore: &[&str]) -> Option<ValueList> {
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


#[cfg(test)]
mod tests {
    use super::*;

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
}
