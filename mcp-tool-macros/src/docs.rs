//! Doc comments: descriptions for tools, parameters and variants.

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// The text of the `///` lines, joined the way rustdoc shows them: lines within a paragraph
/// are joined by newlines, the common leading space is removed.
pub fn doc_text(attrs: &[Attribute]) -> Option<String> {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .filter_map(|a| match &a.meta {
            Meta::NameValue(nv) => match &nv.value {
                Expr::Lit(ExprLit {
                    lit: Lit::Str(s), ..
                }) => Some(s.value()),
                _ => None,
            },
            _ => None,
        })
        .collect();
    let text = lines
        .iter()
        .map(|l| l.strip_prefix(' ').unwrap_or(l).trim_end())
        .collect::<Vec<_>>()
        .join("\n");
    let text = text.trim().to_owned();
    (!text.is_empty()).then_some(text)
}
