//! What `#[serde(..)]` says about the names and defaults of an argument struct's fields: the
//! macros must name a parameter as serde reads it.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, Lit, Token};

/// Whether a `#[serde(...)]` attribute contains `word` (e.g. `default`, `deny_unknown_fields`).
pub fn serde_flag(attrs: &[Attribute], word: &str) -> Option<Span> {
    serde_keys(attrs)
        .into_iter()
        .find(|(key, _)| key.is_ident(word))
        .map(|(key, _)| key.span())
}

/// The name serde reads a field by when it is renamed: `rename = ".."`, or the
/// `deserialize = ".."` of `rename(..)`.
pub fn serde_rename(attrs: &[Attribute]) -> Option<String> {
    serde_keys(attrs)
        .into_iter()
        .filter(|(key, _)| key.is_ident("rename"))
        .find_map(|(_, value)| match value {
            SerdeValue::Expr(e) => string(&e),
            SerdeValue::List(pairs) => pairs
                .iter()
                .find(|(k, _)| k.is_ident("deserialize"))
                .and_then(|(_, e)| string(e)),
            SerdeValue::Flag => None,
        })
}

enum SerdeValue {
    /// `key`
    Flag,
    /// `key = value`
    Expr(Expr),
    /// `key(a = x, b = y)`, its `key = value` pairs
    List(Vec<(syn::Path, Expr)>),
}

/// The keys of the `#[serde(..)]` attributes with their values, as far as they can be read.
fn serde_keys(attrs: &[Attribute]) -> Vec<(syn::Path, SerdeValue)> {
    let mut keys = Vec::new();
    for a in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = a.parse_nested_meta(|meta| {
            let value = if meta.input.peek(Token![=]) {
                SerdeValue::Expr(meta.value()?.parse()?)
            } else if meta.input.peek(syn::token::Paren) {
                let mut pairs = Vec::new();
                meta.parse_nested_meta(|inner| {
                    if inner.input.peek(Token![=]) {
                        pairs.push((inner.path.clone(), inner.value()?.parse()?));
                    }
                    Ok(())
                })?;
                SerdeValue::List(pairs)
            } else {
                SerdeValue::Flag
            };
            keys.push((meta.path.clone(), value));
            Ok(())
        });
    }
    keys
}

/// The `rename_all = ".."` rule of an item (or the `deserialize` one of `rename_all(..)`).
pub fn rename_all(attrs: &[Attribute]) -> Option<String> {
    serde_keys(attrs)
        .into_iter()
        .filter(|(key, _)| key.is_ident("rename_all"))
        .find_map(|(_, value)| match value {
            SerdeValue::Expr(e) => string(&e),
            SerdeValue::List(pairs) => pairs
                .iter()
                .find(|(k, _)| k.is_ident("deserialize"))
                .and_then(|(_, e)| string(e)),
            SerdeValue::Flag => None,
        })
}

/// A snake_case field name under a `rename_all` rule, as serde renames fields; `None` for a
/// rule serde does not know (serde reports it).
pub fn apply_rename_all(rule: &str, field: &str) -> Option<String> {
    // Each `_`-separated word capitalized, the `_`s dropped.
    let pascal = || {
        field
            .split('_')
            .flat_map(|word| {
                let mut chars = word.chars();
                let first = chars.next().map(|c| c.to_ascii_uppercase());
                first.into_iter().chain(chars)
            })
            .collect::<String>()
    };
    Some(match rule {
        "lowercase" | "snake_case" => field.to_owned(),
        "UPPERCASE" | "SCREAMING_SNAKE_CASE" => field.to_ascii_uppercase(),
        "PascalCase" => pascal(),
        "camelCase" => {
            let pascal = pascal();
            let mut chars = pascal.chars();
            chars
                .next()
                .map(|c| c.to_ascii_lowercase().to_string() + chars.as_str())
                .unwrap_or_default()
        }
        "kebab-case" => field.replace('_', "-"),
        "SCREAMING-KEBAB-CASE" => field.to_ascii_uppercase().replace('_', "-"),
        _ => return None,
    })
}

fn string(e: &Expr) -> Option<String> {
    match e {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => Some(s.value()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::apply_rename_all;

    /// The names serde gives fields under each rule.
    #[test]
    fn fields_are_renamed_as_serde_renames_them() {
        let cases = [
            ("camelCase", "max_turns", "maxTurns"),
            ("PascalCase", "max_turns", "MaxTurns"),
            ("SCREAMING_SNAKE_CASE", "max_turns", "MAX_TURNS"),
            ("UPPERCASE", "max_turns", "MAX_TURNS"),
            ("kebab-case", "max_turns", "max-turns"),
            ("SCREAMING-KEBAB-CASE", "max_turns", "MAX-TURNS"),
            ("snake_case", "max_turns", "max_turns"),
            ("lowercase", "max_turns", "max_turns"),
            ("camelCase", "größe_x", "größeX"),
        ];
        for (rule, field, renamed) in cases {
            assert_eq!(
                apply_rename_all(rule, field).as_deref(),
                Some(renamed),
                "{rule}"
            );
        }
        assert_eq!(apply_rename_all("Title Case", "a"), None);
    }
}
