//! Reading a `#[tool_args]` item and its `#[arg(...)]` field attributes.

use crate::diagnostics::Errors;
use crate::docs::doc_text;
use darling::FromMeta;
use darling::ast::NestedMeta;
use proc_macro2::{Span, TokenStream};
use std::collections::HashMap;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, Fields, Ident, Item, LitStr, Type};

/// `allow(lint_name = "reason")`, as written.
#[derive(Clone)]
pub struct Allow {
    pub lint: Ident,
    pub reason: LitStr,
}

pub fn allows_from(map: HashMap<Ident, LitStr>) -> Vec<Allow> {
    let mut allows: Vec<Allow> = map
        .into_iter()
        .map(|(lint, reason)| Allow { lint, reason })
        .collect();
    allows.sort_by_key(|a| a.lint.to_string());
    allows
}

#[derive(Default, FromMeta)]
struct ItemAttr {
    #[darling(default)]
    allow: HashMap<Ident, LitStr>,
    /// The field that names the variant of an internally tagged enum.
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

pub struct Field {
    pub ident: Ident,
    pub ty: Type,
    pub docs: Option<String>,
    pub default: Option<Expr>,
    /// Bounds as JSON number text (`"1"`, `"-0.5"`), with the span to blame.
    pub min: Option<(String, Span)>,
    pub max: Option<(String, Span)>,
    pub allows: Vec<Allow>,
    pub serde_default: bool,
}

pub enum Shape {
    Struct(Vec<Field>),
    /// A fieldless enum: a closed set of values, checked for shape only.
    Enum,
    /// `#[tool_args(tag = "..")]`: an internally tagged enum whose variants are unit or have
    /// named fields, each such field a parameter like a struct field.
    Tagged {
        tag: LitStr,
        variants: Vec<Variant>,
        /// False after an error in the tag or a variant's shape: the enum is then emitted
        /// without `tag`, so that serde adds no second error about the same mistake.
        sound: bool,
    },
}

pub struct Variant {
    pub ident: Ident,
    pub docs: Option<String>,
    /// Empty for a unit variant.
    pub fields: Vec<Field>,
}

pub struct ArgsItem {
    /// The item with `#[arg]` attributes removed, ready to re-emit.
    pub item: Item,
    pub ident: Ident,
    pub shape: Shape,
    pub allows: Vec<Allow>,
    pub deny_unknown_fields: Option<Span>,
}

pub fn parse(attr: TokenStream, item: TokenStream, errors: &mut Errors) -> Option<ArgsItem> {
    let item: Item = match syn::parse2(item) {
        Ok(i) => i,
        Err(e) => {
            errors.push(e);
            return None;
        }
    };
    let (allows, tag) = match NestedMeta::parse_meta_list(attr)
        .map_err(darling::Error::from)
        .and_then(|m| ItemAttr::from_list(&m))
    {
        Ok(a) => (allows_from(a.allow), a.tag),
        Err(e) => {
            errors.push(e.into());
            (Vec::new(), None)
        }
    };
    match item {
        Item::Struct(mut s) => {
            let deny_unknown_fields = serde_flag(&s.attrs, "deny_unknown_fields");
            let Fields::Named(named) = &mut s.fields else {
                errors.error(
                    s.ident.span(),
                    "#[tool_args] needs a struct with named fields: each field is a parameter",
                    "write `struct Args { /// what it is\n    name: Type }`",
                );
                return None;
            };
            if let Some(tag) = &tag {
                errors.error(
                    tag.span(),
                    "`tag` applies to enums: it names the field that says which variant is sent",
                    "remove `tag = ..` from the struct; put it on an enum whose variants carry the fields: `#[tool_args(tag = \"..\")] pub enum ..`",
                );
            }
            let fields = named_fields(named, errors);
            let ident = s.ident.clone();
            Some(ArgsItem {
                item: Item::Struct(s),
                ident,
                shape: Shape::Struct(fields),
                allows,
                deny_unknown_fields,
            })
        }
        Item::Enum(mut e) => {
            let ident = e.ident.clone();
            let Some(tag) = tag else {
                for v in e
                    .variants
                    .iter()
                    .filter(|v| !matches!(v.fields, Fields::Unit))
                {
                    errors.error(
                        v.fields.span(),
                        format!("variant `{}` has fields, and an enum without `tag` is a closed set of names", v.ident),
                        "to carry data, name the field that says which variant is sent: `#[tool_args(tag = \"..\")]`, and give the variants named fields; otherwise keep the variants fieldless",
                    );
                }
                return Some(ArgsItem {
                    item: Item::Enum(e),
                    ident,
                    shape: Shape::Enum,
                    allows,
                    deny_unknown_fields: None,
                });
            };
            let tag_name = tag.value();
            let mut sound = !tag_name.trim().is_empty();
            if !sound {
                errors.error(
                    tag.span(),
                    "the `tag` is empty: it is the name of the field that says which variant is sent",
                    "name the choice the variants make, e.g. `tag = \"detail_level\"`",
                );
            }
            let mut variants = Vec::new();
            for v in e.variants.iter_mut() {
                let fields = match &mut v.fields {
                    Fields::Unit => Vec::new(),
                    Fields::Named(named) => named_fields(named, errors),
                    Fields::Unnamed(unnamed) => {
                        sound = false;
                        // Still take `#[arg]` off, or the compiler adds "cannot find attribute".
                        for f in unnamed.unnamed.iter_mut() {
                            take_arg_attr(&mut f.attrs, errors);
                        }
                        errors.error(
                            unnamed.span(),
                            format!("variant `{}` has unnamed fields: in a tagged enum each field is a parameter, and a parameter needs a name", v.ident),
                            format!("give the variant named fields, each with a doc comment: `{} {{ name: Type }}`", v.ident),
                        );
                        Vec::new()
                    }
                };
                for f in fields.iter().filter(|f| f.ident == tag_name) {
                    sound = false;
                    errors.error(
                        f.ident.span(),
                        format!("`{}` is both the tag of `{ident}` and a field of its variant `{}`: the two would share one key", f.ident, v.ident),
                        "rename the field, or choose another `tag`",
                    );
                }
                variants.push(Variant {
                    ident: v.ident.clone(),
                    docs: doc_text(&v.attrs),
                    fields,
                });
            }
            let deny_unknown_fields = serde_flag(&e.attrs, "deny_unknown_fields");
            Some(ArgsItem {
                item: Item::Enum(e),
                ident,
                shape: Shape::Tagged {
                    tag,
                    variants,
                    sound,
                },
                allows,
                deny_unknown_fields,
            })
        }
        other => {
            errors.error(
                other.span(),
                "#[tool_args] goes on a struct (the arguments) or a fieldless enum (a closed set of values)",
                "move the attribute to the argument struct",
            );
            None
        }
    }
}

/// The named fields of a struct or a variant, with their `#[arg(...)]` removed and parsed.
fn named_fields(named: &mut syn::FieldsNamed, errors: &mut Errors) -> Vec<Field> {
    let mut fields = Vec::new();
    for f in named.named.iter_mut() {
        let attr = take_arg_attr(&mut f.attrs, errors);
        let ident = f.ident.clone().expect("named field");
        fields.push(Field {
            docs: doc_text(&f.attrs),
            serde_default: serde_flag(&f.attrs, "default").is_some(),
            min: attr.min.as_ref().and_then(|e| number_text(e, errors)),
            max: attr.max.as_ref().and_then(|e| number_text(e, errors)),
            default: attr.default.map(|v| v.0),
            allows: allows_from(attr.allow),
            ty: f.ty.clone(),
            ident,
        });
    }
    fields
}

/// Removes `#[arg(...)]` from a field and parses it.
fn take_arg_attr(attrs: &mut Vec<Attribute>, errors: &mut Errors) -> FieldAttr {
    let mut result = FieldAttr::default();
    let mut kept = Vec::with_capacity(attrs.len());
    for a in attrs.drain(..) {
        if !a.path().is_ident("arg") {
            kept.push(a);
            continue;
        }
        match FieldAttr::from_meta(&a.meta) {
            Ok(parsed) => result = parsed,
            Err(e) => errors.push(e.into()),
        }
    }
    *attrs = kept;
    result
}

/// Whether a `#[serde(...)]` attribute contains `word` (e.g. `default`, `deny_unknown_fields`).
fn serde_flag(attrs: &[Attribute], word: &str) -> Option<Span> {
    let mut found = None;
    for a in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let _ = a.parse_nested_meta(|meta| {
            if meta.path.is_ident(word) {
                found = Some(meta.path.span());
            }
            // Skip values such as `default = "path"` so parsing goes on.
            if meta.input.peek(syn::Token![=]) {
                let _: Expr = meta.value()?.parse()?;
            }
            Ok(())
        });
    }
    found
}

/// `min = 1`, `max = 0.5`, `min = -3` as JSON number text.
fn number_text(expr: &Expr, errors: &mut Errors) -> Option<(String, Span)> {
    let (negative, inner) = match expr {
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => (true, &*u.expr),
        e => (false, e),
    };
    let text = match inner {
        Expr::Lit(l) => match &l.lit {
            syn::Lit::Int(i) => Some(i.base10_digits().to_owned()),
            syn::Lit::Float(f) => Some(f.base10_digits().to_owned()),
            _ => None,
        },
        _ => None,
    };
    match text {
        Some(t) => Some((if negative { format!("-{t}") } else { t }, expr.span())),
        None => {
            errors.error(
                expr.span(),
                "a bound must be a number literal",
                "write e.g. `max = 50` or `min = 0.5`",
            );
            None
        }
    }
}
