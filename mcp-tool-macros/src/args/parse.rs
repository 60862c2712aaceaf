//! Reading a `#[tool_args]` item and its `#[arg(...)]` field attributes into the model.
//!
//! Only what cannot be read is reported here: unknown keys, values of the wrong kind. What the
//! item means (a tag on a struct, a tuple variant) is for `validate`.

use super::serde_attrs::{apply_rename_all, rename_all, serde_flag, serde_rename};
use crate::classify::field_type;
use crate::diagnostics::Errors;
use crate::docs::{doc_text, unread_doc};
use crate::model::{ArgsBody, ArgsItem, Bound, Field, Variant, VariantFields};
use darling::FromMeta;
use darling::ast::NestedMeta;
use proc_macro2::TokenStream;
use std::collections::HashMap;
use syn::ext::IdentExt;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, Fields, Ident, Item, LitStr, Meta, Token};

/// The help of an error in `#[tool_args(..)]`.
const ITEM_KEYS: &str = "the keys are `tag = \"..\"` (on an enum whose variants carry fields) and `allow(lint_name = \"reason\")`";

/// The help of an error in `#[arg(..)]`.
const FIELD_KEYS: &str = "the keys are `default = <expression>`, `min = <number>`, `max = <number>` and `allow(lint_name = \"reason\")`";

#[derive(Default, FromMeta)]
struct ItemAttr {
    #[darling(default)]
    allow: HashMap<Ident, LitStr>,
    tag: Option<LitStr>,
}

/// An attribute value kept as written: darling would read `default = "text"` as the
/// expression inside the string, but a default string is just a string.
struct Verbatim(Expr);

impl FromMeta for Verbatim {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        Ok(Verbatim(expr.clone()))
    }
}

#[derive(Default, FromMeta)]
struct FieldAttr {
    default: Option<Verbatim>,
    min: Option<Expr>,
    max: Option<Expr>,
    #[darling(default)]
    allow: HashMap<Ident, LitStr>,
}

/// `None` when the item is not a struct or an enum: there is nothing to model.
pub fn parse(attr: TokenStream, item: TokenStream, errors: &mut Errors) -> Option<ArgsItem> {
    let item: Item = match syn::parse2(item) {
        Ok(i) => i,
        Err(e) => {
            errors.error(e.span(), e, "move the attribute to the argument struct");
            return None;
        }
    };
    let attr = match NestedMeta::parse_meta_list(attr)
        .map_err(darling::Error::from)
        .and_then(|m| ItemAttr::from_list(&m))
    {
        Ok(a) => a,
        Err(e) => {
            errors.darling(e, ITEM_KEYS);
            ItemAttr::default()
        }
    };
    // The item's name, generics and `deny_unknown_fields` are read before `#[arg]` is taken
    // off its fields.
    let (ident, generics, deny_unknown_fields, body) = match item {
        Item::Struct(mut s) => {
            misplaced_arg(&mut s.attrs, errors);
            let fields = match &mut s.fields {
                Fields::Named(named) => {
                    let rule = rename_all(&s.attrs);
                    Some(named_fields(named, rule.as_deref(), errors))
                }
                Fields::Unnamed(unnamed) => {
                    unnamed_fields(unnamed, errors);
                    None
                }
                Fields::Unit => None,
            };
            let deny = serde_flag(&s.attrs, "deny_unknown_fields");
            let (ident, generics) = (s.ident.clone(), s.generics.clone());
            (ident, generics, deny, ArgsBody::Struct { item: s, fields })
        }
        Item::Enum(mut e) => {
            misplaced_arg(&mut e.attrs, errors);
            let variants = e.variants.iter_mut().map(|v| variant(v, errors)).collect();
            let deny = serde_flag(&e.attrs, "deny_unknown_fields");
            let (ident, generics) = (e.ident.clone(), e.generics.clone());
            (ident, generics, deny, ArgsBody::Enum { item: e, variants })
        }
        other => {
            errors.error(
                other.span(),
                "#[tool_args] goes on a struct (the arguments) or a fieldless enum (a closed set of values)",
                "move the attribute to the argument struct",
            );
            return None;
        }
    };
    Some(ArgsItem {
        ident,
        generics,
        deny_unknown_fields,
        tag: attr.tag,
        allows: crate::attrs::allows(attr.allow),
        body,
    })
}

fn variant(v: &mut syn::Variant, errors: &mut Errors) -> Variant {
    misplaced_arg(&mut v.attrs, errors);
    let fields = match &mut v.fields {
        Fields::Unit => VariantFields::Unit,
        // `rename_all` on a tagged enum renames the variants, not their fields.
        Fields::Named(named) => VariantFields::Named(named_fields(named, None, errors)),
        Fields::Unnamed(unnamed) => {
            unnamed_fields(unnamed, errors);
            VariantFields::Unnamed
        }
    };
    Variant {
        ident: v.ident.clone(),
        docs: doc_text(&v.attrs),
        unread_doc: unread_doc(&v.attrs, "#[tool_args]", errors),
        fields_span: v.fields.span(),
        fields,
    }
}

/// Unnamed fields are not parameters (an error of their own), but their `#[arg]` is still
/// taken off, or the compiler adds "cannot find attribute `arg`".
fn unnamed_fields(unnamed: &mut syn::FieldsUnnamed, errors: &mut Errors) {
    for f in unnamed.unnamed.iter_mut() {
        take_arg_attr(&mut f.attrs, errors);
    }
}

/// Takes off an `#[arg]` written where there is no parameter (on the item or on a variant),
/// with an error in place of the compiler's "cannot find attribute `arg`".
fn misplaced_arg(attrs: &mut Vec<Attribute>, errors: &mut Errors) {
    attrs.retain(|a| {
        let misplaced = a.path().is_ident("arg");
        if misplaced {
            errors.error(
                a.span(),
                "#[arg] goes on a field: it describes one parameter",
                "move it to the field it is about",
            );
        }
        !misplaced
    });
}

/// The named fields of a struct or a variant, with their `#[arg(...)]` removed and parsed.
/// `rename_all` is the item's rule for the names of fields without a `rename` of their own.
fn named_fields(
    named: &mut syn::FieldsNamed,
    rename_all: Option<&str>,
    errors: &mut Errors,
) -> Vec<Field> {
    let mut fields = Vec::new();
    for f in named.named.iter_mut() {
        let attr = take_arg_attr(&mut f.attrs, errors);
        // Named fields always have a name; nothing to model otherwise.
        let Some(ident) = f.ident.clone() else {
            continue;
        };
        fields.push(Field {
            name: serde_rename(&f.attrs)
                .or_else(|| {
                    rename_all.and_then(|r| apply_rename_all(r, &ident.unraw().to_string()))
                })
                .unwrap_or_else(|| ident.unraw().to_string()),
            docs: doc_text(&f.attrs),
            unread_doc: unread_doc(&f.attrs, "#[tool_args]", errors),
            serde_default: serde_flag(&f.attrs, "default").is_some(),
            min: attr.min.as_ref().and_then(|e| bound(e, errors)),
            max: attr.max.as_ref().and_then(|e| bound(e, errors)),
            default: attr.default.map(|v| v.0),
            allows: crate::attrs::allows(attr.allow),
            class: field_type(&f.ty),
            ty: f.ty.clone(),
            ident,
        });
    }
    fields
}

/// Removes `#[arg(...)]` from a field and parses it.
fn take_arg_attr(attrs: &mut Vec<Attribute>, errors: &mut Errors) -> FieldAttr {
    let mut result = FieldAttr::default();
    let mut seen = false;
    let mut kept = Vec::with_capacity(attrs.len());
    for a in attrs.drain(..) {
        if a.path().is_ident("cfg_attr") {
            kept.extend(without_arg_in_cfg_attr(a, errors));
            continue;
        }
        if !a.path().is_ident("arg") {
            kept.push(a);
            continue;
        }
        if std::mem::replace(&mut seen, true) {
            errors.error(
                a.span(),
                "a second #[arg(..)] on this field: only one is read",
                "write all the keys in one: `#[arg(default = 10, min = 1, max = 50)]`",
            );
            continue;
        }
        match FieldAttr::from_meta(&a.meta) {
            Ok(parsed) => result = parsed,
            Err(e) => errors.darling(e, FIELD_KEYS),
        }
    }
    *attrs = kept;
    result
}

/// `#[cfg_attr(pred, arg(..), ..)]` without its `arg(..)`: the macro reads the fields before
/// the compiler applies `cfg_attr`, so an `#[arg]` there would never be read, and would then
/// fail as an unknown attribute. `None` when nothing else is left in it.
fn without_arg_in_cfg_attr(a: Attribute, errors: &mut Errors) -> Option<Attribute> {
    type Metas = Punctuated<Meta, Token![,]>;
    let Ok(metas) = a.parse_args_with(Metas::parse_terminated) else {
        return Some(a);
    };
    let mut metas = metas.into_iter();
    let Some(predicate) = metas.next() else {
        return Some(a);
    };
    let (args, rest): (Vec<Meta>, Vec<Meta>) = metas.partition(|m| m.path().is_ident("arg"));
    for arg in &args {
        errors.error(
            arg.span(),
            "#[tool_args] cannot read an #[arg] inside #[cfg_attr]: it reads the fields before cfg_attr is applied",
            "write the #[arg(..)] on the field itself: a parameter's schema does not depend on the build",
        );
    }
    match (args.is_empty(), rest.is_empty()) {
        (true, _) => Some(a),
        (false, true) => None,
        (false, false) => Some(Attribute {
            meta: syn::parse_quote!(cfg_attr(#predicate, #(#rest),*)),
            ..a
        }),
    }
}

/// `min = 1`, `max = 0.5`, `min = -3`: a number literal, possibly negated.
fn bound(expr: &Expr, errors: &mut Errors) -> Option<Bound> {
    let (negative, inner) = match expr {
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => (true, &*u.expr),
        e => (false, e),
    };
    let Some(magnitude) = (match inner {
        Expr::Lit(l) => match &l.lit {
            syn::Lit::Int(i) => Some(number(i.base10_digits(), true)),
            syn::Lit::Float(f) => Some(number(f.base10_digits(), false)),
            _ => None,
        },
        _ => None,
    }) else {
        errors.error(
            expr.span(),
            "a bound must be a number literal",
            "write e.g. `max = 50` or `min = 0.5`",
        );
        return None;
    };
    let Some((text, value)) = magnitude else {
        errors.error(
            expr.span(),
            "this bound is too large to be a number in a JSON Schema (an f64)",
            "write a bound within the range of f64, e.g. `max = 1000000`",
        );
        return None;
    };
    Some(Bound {
        text: if negative { format!("-{text}") } else { text },
        value: if negative { -value } else { value },
        span: expr.span(),
    })
}

/// The digits of a number literal as JSON number text and as an `f64`; `None` when the value
/// is not a finite `f64`. An integer keeps its exact digits; a float is written the way Rust
/// prints it, which JSON also reads (`1.` is not JSON, `1.0` is).
fn number(digits: &str, integer: bool) -> Option<(String, f64)> {
    let value: f64 = digits.parse().ok().filter(|v: &f64| v.is_finite())?;
    let text = match digits.parse::<u128>() {
        Ok(n) if integer => n.to_string(),
        _ => format!("{value:?}"),
    };
    Some((text, value))
}

#[cfg(test)]
mod tests {
    use super::number;

    #[test]
    fn bounds_are_json_numbers() {
        assert_eq!(number("10", true), Some(("10".into(), 10.0)));
        assert_eq!(number("007", true), Some(("7".into(), 7.0)));
        assert_eq!(number("1.", false), Some(("1.0".into(), 1.0)));
        assert_eq!(number("2.5e3", false), Some(("2500.0".into(), 2500.0)));
        assert_eq!(number("1e-7", false), Some(("1e-7".into(), 1e-7)));
        let huge = "340282366920938463463374607431768211456";
        assert_eq!(
            number(huge, true).map(|(_, v)| v),
            Some(3.402823669209385e38)
        );
        assert_eq!(number("1e400", false), None);
        assert_eq!(number(&"9".repeat(400), true), None);
    }
}
