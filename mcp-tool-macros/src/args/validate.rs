//! What a `#[tool_args]` item means: its shape, its `#[arg]` keys, then the design lints.
//! Returns the checked model that `expand` generates from.

use crate::classify::is_cursor;
use crate::diagnostics::Errors;
use crate::lints;
use crate::model::{
    ArgsBody, ArgsItem, CheckedArgs, CheckedField, CheckedShape, CheckedVariant, Field, Variant,
    VariantFields,
};
use syn::spanned::Spanned;
use syn::{ItemEnum, LitStr};

/// `None` when no code can be generated: the item is then emitted without its `#[arg]`s.
pub fn validate(args: &ArgsItem, errors: &mut Errors) -> Option<CheckedArgs> {
    let shape = check_shape(args, errors);
    // Code for a generic item would name it without its parameters, and add errors about that.
    let generic = !args.generics.params.is_empty();
    if generic {
        errors.error(
            args.generics.span(),
            "#[tool_args] items cannot be generic: a tool's schema is fixed when it is registered",
            "use concrete types",
        );
    }
    match &args.body {
        ArgsBody::Struct { fields, .. } => {
            check_fields(fields.as_deref().unwrap_or_default(), errors)
        }
        ArgsBody::Enum { variants, .. } if args.tag.is_some() => variants
            .iter()
            .for_each(|v| check_fields(v.fields.named(), errors)),
        ArgsBody::Enum { .. } => {}
    }
    lints::check_args(args, errors);
    Some(CheckedArgs {
        ident: args.ident.clone(),
        allows: args.allows.clone(),
        shape: shape.filter(|_| !generic)?,
    })
}

fn check_shape(args: &ArgsItem, errors: &mut Errors) -> Option<CheckedShape> {
    match (&args.body, &args.tag) {
        (ArgsBody::Struct { fields: None, .. }, _) => {
            errors.error(
                args.ident.span(),
                "#[tool_args] needs a struct with named fields: each field is a parameter",
                "write `struct Args { /// what it is\n    name: Type }`",
            );
            None
        }
        (
            ArgsBody::Struct {
                item,
                fields: Some(fields),
            },
            tag,
        ) => {
            if let Some(tag) = tag {
                errors.error(
                    tag.span(),
                    "`tag` applies to enums: it names the field that says which variant is sent",
                    "remove `tag = ..` from the struct; put it on an enum whose variants carry the fields: `#[tool_args(tag = \"..\")] pub enum ..`",
                );
            }
            Some(CheckedShape::Struct {
                item: item.clone(),
                fields: fields.iter().map(checked_field).collect(),
                has_cursor: fields.iter().any(|f| is_cursor(&f.name, &f.class)),
            })
        }
        (ArgsBody::Enum { item, variants }, None) => {
            let with_fields = variants
                .iter()
                .filter(|v| !matches!(v.fields, VariantFields::Unit));
            for v in with_fields {
                errors.error(
                    v.fields_span,
                    format!("variant `{}` has fields, and an enum without `tag` is a closed set of names", v.ident),
                    "to carry data, name the field that says which variant is sent: `#[tool_args(tag = \"..\")]`, and give the variants named fields; otherwise keep the variants fieldless",
                );
            }
            Some(CheckedShape::Names { item: item.clone() })
        }
        (ArgsBody::Enum { item, variants }, Some(tag)) => {
            Some(check_tagged(args, item, tag, variants, errors))
        }
    }
}

fn check_tagged(
    args: &ArgsItem,
    item: &ItemEnum,
    tag: &LitStr,
    variants: &[Variant],
    errors: &mut Errors,
) -> CheckedShape {
    let tag_name = tag.value();
    let mut sound = !tag_name.trim().is_empty();
    if !sound {
        errors.error(
            tag.span(),
            "the `tag` is empty: it is the name of the field that says which variant is sent",
            "name the choice the variants make, e.g. `tag = \"detail_level\"`",
        );
    }
    for v in variants {
        if let VariantFields::Unnamed = v.fields {
            sound = false;
            errors.error(
                v.fields_span,
                format!("variant `{}` has unnamed fields: in a tagged enum each field is a parameter, and a parameter needs a name", v.ident),
                format!("give the variant named fields, each with a doc comment: `{} {{ name: Type }}`", v.ident),
            );
        }
        for f in v.fields.named().iter().filter(|f| f.name == tag_name) {
            sound = false;
            errors.error(
                f.ident.span(),
                format!("`{}` is both the tag of `{}` and a field of its variant `{}`: the two would share one key", f.ident, args.ident, v.ident),
                "rename the field, or choose another `tag`",
            );
        }
    }
    CheckedShape::Tagged {
        item: item.clone(),
        tag: sound.then(|| tag.clone()),
        variants: variants
            .iter()
            .map(|v| CheckedVariant {
                ident: v.ident.clone(),
                fields: v.fields.named().iter().map(checked_field).collect(),
            })
            .collect(),
    }
}

/// What `#[arg(...)]` cannot mean on a field, wherever the field is declared.
fn check_fields(fields: &[Field], errors: &mut Errors) {
    for f in fields {
        if f.default.is_some() && f.class.optional {
            errors.error(
                f.ty.span(),
                format!(
                    "`{}` has a default, so it is never absent: `Option` says the opposite",
                    f.ident
                ),
                "drop the `Option`: with `#[arg(default = ..)]` the field always has a value",
            );
        }
        for (bound, which) in [(&f.min, "min"), (&f.max, "max")] {
            if let (Some(bound), false) = (bound, f.class.numeric) {
                errors.error(
                    bound.span,
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

/// The field with only the keys that passed `check_fields`.
fn checked_field(f: &Field) -> CheckedField {
    let numeric = |b: &Option<crate::model::Bound>| b.clone().filter(|_| f.class.numeric);
    CheckedField {
        ident: f.ident.clone(),
        name: f.name.clone(),
        ty: f.ty.clone(),
        default: f.default.clone().filter(|_| !f.class.optional),
        min: numeric(&f.min),
        max: numeric(&f.max),
        may_nest: f.class.may_nest,
        allows: f.allows.clone(),
    }
}
