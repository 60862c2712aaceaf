//! `implicit_default`: a default that the schema does not show (`#[serde(default)]`, or a
//! default stated only in the doc).

use super::{ParamCx, Rule};
use crate::{Finding, Lint};

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
    ));
}

/// Finds a default stated in prose ("defaults to 20", "(default: 20)", "default 20",
/// "Default is X", "'x' (default)"). Returns the stated value when it can be read.
fn stated_default(doc: &str) -> Option<String> {
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
    }
}
