//! Structural checks of `#[tool_args]`, then the design lints.

use super::parse::{ArgsItem, Field, Shape};
use crate::diagnostics::Errors;
use crate::lints;
use syn::spanned::Spanned;
use syn::{Item, Type};

pub fn validate(args: &ArgsItem, errors: &mut Errors) {
    let generics = match &args.item {
        Item::Struct(s) => &s.generics,
        Item::Enum(e) => &e.generics,
        _ => return,
    };
    if !generics.params.is_empty() {
        errors.error(
            generics.span(),
            "#[tool_args] items cannot be generic: a tool's schema is fixed when it is registered",
            "use concrete types",
        );
    }
    match &args.shape {
        Shape::Struct(fields) => check_fields(fields, errors),
        Shape::Tagged { variants, .. } => variants
            .iter()
            .for_each(|v| check_fields(&v.fields, errors)),
        Shape::Enum => {}
    }
    lints::check_args(args, errors);
}

/// What `#[arg(...)]` cannot mean on a field, wherever the field is declared.
fn check_fields(fields: &[Field], errors: &mut Errors) {
    for f in fields {
        if f.default.is_some() && option_inner(&f.ty).is_some() {
            errors.error(
                f.ty.span(),
                format!(
                    "`{}` has a default, so it is never absent: `Option` says the opposite",
                    f.ident
                ),
                "drop the `Option`: with `#[arg(default = ..)]` the field always has a value",
            );
        }
        let numeric = is_number(option_inner(&f.ty).unwrap_or(&f.ty));
        for (bound, which) in [(&f.min, "min"), (&f.max, "max")] {
            if let (Some((_, span)), false) = (bound, numeric) {
                errors.error(
                    *span,
                    format!(
                        "`{which}` applies to numbers, and `{}` is not a number type",
                        f.ident
                    ),
                    "remove the bound, or make the field an integer or float",
                );
            }
        }
    }
}

/// `T` of `Option<T>`.
pub fn option_inner(ty: &Type) -> Option<&Type> {
    generic_arg(ty, "Option")
}

/// The single type argument of `Name<T>` (by last path segment).
pub fn generic_arg<'a>(ty: &'a Type, name: &str) -> Option<&'a Type> {
    let Type::Path(p) = ty else { return None };
    let seg = p.path.segments.last()?;
    if seg.ident != name {
        return None;
    }
    let syn::PathArguments::AngleBracketed(a) = &seg.arguments else {
        return None;
    };
    match a.args.first()? {
        syn::GenericArgument::Type(t) => Some(t),
        _ => None,
    }
}

pub fn last_ident(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        Type::Reference(r) => last_ident(&r.elem),
        _ => None,
    }
}

pub fn is_number(ty: &Type) -> bool {
    matches!(
        last_ident(ty).as_deref(),
        Some(
            "u8" | "u16"
                | "u32"
                | "u64"
                | "usize"
                | "i8"
                | "i16"
                | "i32"
                | "i64"
                | "isize"
                | "f32"
                | "f64"
        )
    )
}
