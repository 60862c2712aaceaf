//! `implicit_default`: a default that the schema does not show (`#[serde(default)]`, or a
//! default stated only in the doc).

use super::{ParamCx, Rule};
use crate::text::sentences::sentences;
use crate::{Finding, Lint, Origin};

pub(crate) const RULE: Rule = Rule {
    param: Some(check),
    ..Rule::NONE
};

fn check(cx: &ParamCx<'_>, out: &mut Vec<Finding>) {
    let p = cx.param;
    let name = &p.name;
    if p.default.is_some() {
        return;
    }
    let stated = if p.required {
        None
    } else {
        cx.doc.and_then(stated_default)
    };
    if !p.serde_default && stated.is_none() {
        return;
    }
    // In another server's schema a default stated in the description is documented: the
    // model reads it. In code, the author declares it where the schema and the checks see it.
    if cx.args.origin == Origin::Schema {
        return;
    }
    let why = if p.serde_default {
        "`#[serde(default)]` supplies it".to_string()
    } else {
        "its description states it".to_string()
    };
    let value = stated
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "..".to_string());
    let value = if value.parse::<f64>().is_ok()
        || value == ".."
        || matches!(value.as_str(), "true" | "false")
    {
        value
    } else {
        format!("\"{value}\"")
    };
    // The help must lead to code that compiles: `#[arg(default)]` next to
    // `#[serde(default)]` is a duplicate serde attribute, and on an `Option` it is a
    // contradiction the macro refuses.
    let help = if p.serde_default {
        format!(
            "replace `#[serde(default)]` with `#[arg(default = {value})]` so the default is in the schema and checked"
        )
    } else {
        format!(
            "declare it with `#[arg(default = {value})]` and drop the `Option` (a field with a default always has a value), so it is in the schema and checked"
        )
    };
    out.push(Finding::new(
        Lint::ImplicitDefault,
        cx.target,
        format!("`{name}` has a default the schema does not show: {why}"),
        help,
    ).with_schema_fix(format!(
        "declare it in the schema: `\"default\": {value}` on `{name}`, so clients and validators see the value the server applies"
    )));
}

/// Finds a default stated in prose and returns its value. Two kinds of statement count:
///
/// - the word "default": "defaults to 20", "(default: 20)", "default 20", "Default is X",
///   "Default false", "'x' (default)";
/// - what happens when the parameter is left out: "falls back to USD when omitted", "800
///   unless specified", "Omitting it means 30", "If you leave it out, you get 3", "6 is used
///   when absent", "Initial value: us-east-1", "Off unless you turn it on".
///
/// Only a value a schema could declare counts: a number, a boolean, a quoted value or a
/// single word that ends the clause. "defaults to best match", "the repository's default
/// branch", "Defaults to 24 hours before the end" and "Default null" name no such value.
fn stated_default(doc: &str) -> Option<String> {
    sentences(doc)
        .iter()
        .find_map(|s| by_default_word(s).or_else(|| by_absence(s)))
}

/// Words that end the clause a value is read from.
const CLAUSE_ENDS: &[&str] = &[
    "when", "if", "unless", "otherwise", "for", "and", "but", "so", "which", "in", "on",
];

/// A value read at the start of `text`, if it is one a schema could declare.
fn value_at(text: &str) -> Option<String> {
    let text = text.trim_start();
    let quote = text.chars().next().filter(|c| matches!(c, '\'' | '"' | '`'));
    if let Some(q) = quote {
        let inner = &text[1..];
        let end = inner.find(q)?;
        let value = &inner[..end];
        return (!value.trim().is_empty() && value.len() <= 40).then(|| value.to_string());
    }
    let token: String = text
        .chars()
        .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '+'))
        .collect();
    let token = token.trim_end_matches('.').to_string();
    let rest = &text[token.len()..];
    let clause = rest.split(['.', ',', ';', ':', '(', ')']).next().unwrap_or("");
    let words: Vec<&str> = clause
        .split_whitespace()
        .take_while(|w| !CLAUSE_ENDS.contains(&w.to_ascii_lowercase().as_str()))
        .collect();
    let lower = token.to_ascii_lowercase();
    let number = token.parse::<f64>().is_ok();
    let boolean = matches!(lower.as_str(), "true" | "false" | "on" | "off" | "yes" | "no");
    let names_nothing = matches!(
        lower.as_str(),
        "" | "null" | "none" | "nil" | "empty" | "unset" | "nothing" | "the" | "a" | "an" | "to"
            | "all" | "any" | "every" | "no" | "not" | "its" | "their" | "your" | "this" | "that"
    );
    let concrete = if number {
        // "20", "10 seconds"; not "24 hours before the end".
        words.len() <= 1
    } else if boolean {
        true
    } else {
        !names_nothing && words.is_empty()
    };
    concrete.then(|| if boolean { bool_value(&lower) } else { token })
}

fn bool_value(word: &str) -> String {
    match word {
        "on" | "yes" | "true" => "true".into(),
        _ => "false".into(),
    }
}

/// "defaults to 20", "(default: 20)", "default 20", "Default is X", "'x' (default)".
fn by_default_word(sentence: &str) -> Option<String> {
    let lower = sentence.to_ascii_lowercase();
    let mut from = 0;
    while let Some(pos) = lower[from..].find("default") {
        let at = from + pos;
        from = at + "default".len();
        let before = lower[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let mut rest = &sentence[from..];
        if let Some(r) = rest.strip_prefix('s') {
            rest = r;
        }
        if rest.starts_with(')') && before == Some('(') {
            // "'x' (default) or 'y'": the value is the word before the note.
            let head = sentence[..at - 1].trim_end();
            let value = head.trim_end_matches(['\'', '"', '`']);
            let value = value.rsplit(['\'', '"', '`', ' ']).next().unwrap_or("");
            if !value.is_empty() {
                return Some(value.to_string());
            }
            continue;
        }
        let trimmed = rest.trim_start();
        let marker = ["to ", "is ", "value is ", ":", "=", "of ", "value: "]
            .iter()
            .find(|m| trimmed.to_ascii_lowercase().starts_with(**m));
        let value = match marker {
            Some(m) => value_at(&trimmed[m.len()..]),
            // "by default the last 100": a number within a few words of "by default".
            None if lower[..at].ends_with("by ") => trimmed
                .split_whitespace()
                .take(3)
                .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '.'))
                .map(|w| w.trim_end_matches('.'))
                .find(|w| w.parse::<f64>().is_ok())
                .map(str::to_string),
            // "default 20", "Default false": a value right after the word.
            None => value_at(trimmed).filter(|v| {
                v.parse::<f64>().is_ok()
                    || matches!(v.as_str(), "true" | "false")
                    || trimmed.starts_with(['\'', '"', '`'])
            }),
        };
        if value.is_some() {
            return value;
        }
    }
    None
}

/// Phrases that say the parameter was left out.
const ABSENCE_CUES: &[&str] = &[
    "omitted",
    "omitting",
    "omit it",
    "not given",
    "not provided",
    "not specified",
    "not set",
    "not passed",
    "unless specified",
    "unless set",
    "unless given",
    "unless provided",
    "when absent",
    "if absent",
    "is absent",
    "unset",
    "leave it out",
    "left out",
    "leave it empty",
    "left empty",
    "leave it blank",
    "left blank",
];

/// Phrases after which the value used in that case comes.
const VALUE_AFTER: &[&str] = &[
    "falls back to ",
    "fall back to ",
    "falling back to ",
    "initial value: ",
    "initial value is ",
    "means ",
    "you get ",
    "assumes ",
    "uses ",
    "is treated as ",
    "is taken as ",
    "is set to ",
    "becomes ",
];

/// A default said by what happens when the parameter is left out.
fn by_absence(sentence: &str) -> Option<String> {
    let lower = sentence.to_ascii_lowercase();
    let absent = ABSENCE_CUES.iter().find_map(|c| lower.find(c));
    // "Falls back to USD" and "Initial value: X" say it without an absence cue.
    let unconditional = ["falls back to ", "fall back to ", "initial value"];
    if absent.is_none() && !unconditional.iter().any(|c| lower.contains(c)) {
        // "Off unless you turn it on", "On by default": a bool's state when left alone.
        let first = lower.split_whitespace().next().unwrap_or("");
        let then = lower.split_whitespace().nth(1).unwrap_or("");
        if matches!(first, "off" | "on" | "disabled" | "enabled")
            && matches!(then, "unless" | "by" | "until")
        {
            return Some(bool_value(if first == "enabled" { "on" } else { first }));
        }
        return None;
    }
    for cue in VALUE_AFTER {
        if let Some(p) = lower.find(cue)
            && let Some(v) = value_at(&sentence[p + cue.len()..])
        {
            return Some(v);
        }
    }
    // "800 unless specified", "6 is used when absent": a number, boolean or quoted value
    // right before the cue or before "is used".
    let at = absent.into_iter().chain(lower.find(" is used")).min()?;
    let head = sentence[..at].trim_end();
    let head = ["unless", "if", "when", "is used"]
        .iter()
        .find_map(|w| {
            head.to_ascii_lowercase()
                .strip_suffix(w)
                .map(|h| &head[..h.len()])
        })
        .unwrap_or(head)
        .trim_end();
    let last = head.rsplit([' ', '(', ';', ',']).next().unwrap_or("");
    let start = head.len() - last.len();
    value_at(&head[start..]).filter(|v| {
        v.parse::<f64>().is_ok() || matches!(v.as_str(), "true" | "false") || last.starts_with(['\'', '"', '`'])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(stated_default("Default false.").as_deref(), Some("false"));
    }

    #[test]
    fn defaults_said_other_ways() {
        for (doc, value) in [
            ("ISO 4217 code. Falls back to USD when omitted.", "USD"),
            ("Chart width in pixels; 800 unless specified.", "800"),
            ("Register of the translation. Assumes informal if not given.", "informal"),
            ("How many days. If you leave it out, you get 3.", "3"),
            ("1 (fastest) to 9 (smallest); 6 is used when absent.", "6"),
            ("Seconds before the query is cancelled. Omitting it means 30.", "30"),
            ("Sort order; when not provided the server uses desc.", "desc"),
            ("Region, for example eu-west-1. Initial value: us-east-1.", "us-east-1"),
            ("Constant rate factor. Unset means 23.", "23"),
            ("Also list finished tasks. Off unless you turn it on.", "false"),
            ("Width in pixels (default: 800)", "800"),
            ("Trailing lines to show; by default the last 100.", "100"),
        ] {
            assert_eq!(stated_default(doc).as_deref(), Some(value), "{doc}");
        }
    }

    #[test]
    fn values_no_schema_could_declare_are_not_defaults() {
        for doc in [
            "Sort field by number of matches, defaults to best match",
            "Source branch (defaults to repo default)",
            "Start of the window. Defaults to 24 hours before the end of the window.",
            "End of the window. Defaults to the current time.",
            "PuppeteerJS LaunchOptions. Default null.",
            "Hidden by default.",
            "If omitted, all sessions are listed.",
            "When omitted, uses the repository's default branch.",
            "The default is to list everything.",
        ] {
            assert_eq!(stated_default(doc), None, "{doc}");
        }
    }
}
