//! Doc comments: descriptions for tools, parameters and variants.

use crate::diagnostics::Errors;
use proc_macro2::Span;
use syn::spanned::Spanned;
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

/// The first `#[doc = ..]` whose value is an expression rather than a string
/// (`#[doc = include_str!("..")]`): the macros see it before it is expanded, so they cannot
/// read it. Reported as an error by `macro_name`, by its span.
pub fn unread_doc(attrs: &[Attribute], macro_name: &str, errors: &mut Errors) -> Option<Span> {
    let span = attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .find_map(|a| match &a.meta {
            Meta::NameValue(nv) if !matches!(&nv.value, Expr::Lit(_)) => Some(nv.value.span()),
            _ => None,
        })?;
    errors.error(
        span,
        format!(
            "{macro_name} cannot read a doc given by an expression: it runs before `include_str!` and other macros in `#[doc = ..]` are expanded, so the description would be missing"
        ),
        "write the description as `///` lines",
    );
    Some(span)
}
