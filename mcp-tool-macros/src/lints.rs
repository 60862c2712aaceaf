//! Bridge to `mcp-tool-lint`: builds its neutral model from syntax, and turns its findings into
//! errors spanned at the field or attribute at fault.

use crate::args::validate_helpers::{generic_arg, last_ident, option_inner};
use crate::args::{Allow, ArgsItemRef, Field, Shape, Variant};
use crate::diagnostics::Errors;
use crate::tool::ToolItemRef;
use mcp_tool_lint as lint;
use proc_macro2::Span;
use syn::Type;
use syn::spanned::Spanned;

fn model_allows(allows: &[Allow]) -> Vec<lint::Allow> {
    allows
        .iter()
        .map(|a| lint::Allow::new(a.lint.to_string(), a.reason.value()))
        .collect()
}

/// What the model sees of a Rust type.
fn type_class(ty: &Type) -> lint::TypeClass {
    use lint::TypeClass as C;
    if let Type::Reference(r) = ty {
        return type_class(&r.elem);
    }
    if let Some(inner) = option_inner(ty) {
        return type_class(inner);
    }
    for list in ["Vec", "HashSet", "BTreeSet"] {
        if let Some(inner) = generic_arg(ty, list) {
            return C::Array(Box::new(type_class(inner)));
        }
    }
    match last_ident(ty).as_deref() {
        Some("String" | "str" | "Cow") => C::String,
        Some("bool") => C::Bool,
        Some("u8" | "u16" | "u32" | "u64" | "usize" | "i8" | "i16" | "i32" | "i64" | "isize") => {
            C::Integer
        }
        Some("f32" | "f64") => C::Number,
        Some("Cursor") => C::Cursor,
        Some("HashMap" | "BTreeMap" | "Map" | "Value") => C::Object,
        Some(other) => C::Other(other.to_owned()),
        None => C::Other(String::new()),
    }
}

/// Whether a field is the pagination cursor, by the same rule as the lint (`Param::is_cursor`),
/// so that the const-evaluated check and the lint never disagree.
pub fn is_cursor(ident: &syn::Ident, ty: &Type) -> bool {
    lint::Param::new(ident.to_string(), type_class(ty)).is_cursor()
}

pub fn check_args(args: &ArgsItemRef, errors: &mut Errors) {
    // Without the `lints` feature the macros only expand (to measure what the lints cost).
    if cfg!(not(feature = "lints")) {
        return;
    }
    match &args.shape {
        Shape::Struct(fields) => check_fields(
            args,
            fields,
            args.deny_unknown_fields,
            true,
            args.ident.span(),
            errors,
        ),
        Shape::Tagged { tag, variants, .. } => {
            check_tag(args, tag, variants, errors);
            // Each variant is one set of parameters the model fills at once, so the rules
            // between parameters (`hidden_coupling`, `too_many_params`) run per variant. The
            // item's allows were validated with the tag; here they only silence.
            for v in variants.iter().filter(|v| !v.fields.is_empty()) {
                check_fields(args, &v.fields, None, false, v.ident.span(), errors);
            }
        }
        Shape::Enum => {}
    }
}

fn param(f: &Field) -> lint::Param {
    lint::Param {
        name: f.ident.to_string(),
        ty: type_class(&f.ty),
        required: option_inner(&f.ty).is_none() && f.default.is_none() && !f.serde_default,
        default: f.default.as_ref().map(|d| quote::quote!(#d).to_string()),
        min: f.min.as_ref().and_then(|(t, _)| t.parse().ok()),
        max: f.max.as_ref().and_then(|(t, _)| t.parse().ok()),
        description: f.docs.clone(),
        serde_default: f.serde_default,
        allows: model_allows(&f.allows),
    }
}

/// The argument rules on one set of fields: a struct's, or one variant's (`owner` is what a
/// finding about the set as a whole points at).
fn check_fields(
    args: &ArgsItemRef,
    fields: &[Field],
    deny_unknown_fields: Option<Span>,
    item_allow_errors: bool,
    owner: Span,
    errors: &mut Errors,
) {
    let params = fields.iter().map(param).collect();
    let model = lint::Args {
        params,
        deny_unknown_fields: deny_unknown_fields.is_some(),
        allows: model_allows(&args.allows),
    };
    for finding in lint::check_args(&model).findings {
        let span = match finding.target {
            lint::Target::Param(i) => fields.get(i).map(|f| f.ident.span()),
            lint::Target::Allow {
                param: Some(p),
                index,
            } => fields
                .get(p)
                .and_then(|f| f.allows.get(index))
                .map(|a| a.lint.span()),
            lint::Target::Allow { param: None, .. } if !item_allow_errors => continue,
            lint::Target::Allow { param: None, index } => {
                args.allows.get(index).map(|a| a.lint.span())
            }
            lint::Target::Args if finding.lint == Some(lint::Lint::FalseStrictness) => {
                deny_unknown_fields
            }
            _ => None,
        };
        errors.push(syn::Error::new(span.unwrap_or(owner), finding.render()));
    }
}

/// The tag as the parameter the model sees: its name, and the variants it chooses between,
/// each of which needs a doc saying when to choose it.
fn check_tag(args: &ArgsItemRef, tag: &syn::LitStr, variants: &[Variant], errors: &mut Errors) {
    let undocumented = variants
        .iter()
        .find(|v| v.docs.is_none())
        .map(|v| v.ident.span());
    let variants = variants
        .iter()
        .map(|v| lint::Variant {
            name: snake_case(&v.ident.to_string()),
            description: v.docs.clone(),
        })
        .collect();
    // What the tag means is said by the field that holds the enum and by the variants' docs;
    // the tag itself has no doc of its own to check.
    let tag_param = lint::Param {
        description: Some("the variant".to_owned()),
        ..lint::Param::new(tag.value(), lint::TypeClass::Enum { variants })
    };
    // `deny_unknown_fields` on the enum applies to every variant: reported once, here.
    let deny_unknown_fields = args.deny_unknown_fields.is_some();
    let model = lint::Args {
        params: vec![tag_param],
        deny_unknown_fields,
        allows: model_allows(&args.allows),
    };
    for finding in lint::check_args(&model).findings {
        let span = match finding.target {
            lint::Target::Allow { param: None, index } => {
                args.allows.get(index).map(|a| a.lint.span())
            }
            lint::Target::Args if finding.lint == Some(lint::Lint::FalseStrictness) => {
                args.deny_unknown_fields
            }
            // An empty tag is already an error of its own.
            _ if tag.value().trim().is_empty() => continue,
            _ if finding.lint == Some(lint::Lint::MissingDescription) => undocumented,
            _ => Some(tag.span()),
        };
        errors.push(syn::Error::new(
            span.unwrap_or(args.ident.span()),
            finding.render(),
        ));
    }
}

/// A variant's name on the wire, as serde's `rename_all = "snake_case"` writes it.
fn snake_case(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.char_indices() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.extend(c.to_lowercase());
    }
    out
}

pub fn check_tool(
    tool: &ToolItemRef,
    name: &str,
    paginated: bool,
    has_args: bool,
    output: &Type,
    errors: &mut Errors,
) {
    if cfg!(not(feature = "lints")) {
        return;
    }
    let attr = &tool.attr;
    let model = lint::Tool {
        name: name.to_owned(),
        title: attr.title.as_ref().map(|t| t.value()),
        description: tool.docs.clone(),
        annotations: lint::Annotations {
            read_only: attr.read_only.is_present(),
            destructive: attr.destructive.is_present(),
            idempotent: attr.idempotent.is_present(),
            open_world: attr.open_world.is_present(),
        },
        output: if paginated {
            lint::OutputShape::Page
        } else {
            lint::OutputShape::Single
        },
        allows: model_allows(&tool.allows),
    };
    let fn_span = tool.func.sig.ident.span();
    let annotation_span = [
        &attr.destructive,
        &attr.read_only,
        &attr.idempotent,
        &attr.open_world,
    ]
    .into_iter()
    .find(|f| f.is_present())
    .map(|f| f.span());
    let mut findings = lint::check_tool(&model).findings;
    // Without an args struct there is no cursor at all, so the cross-item rule is decided here.
    if !has_args && lint::find_allow(&model.allows, lint::Lint::PaginationMismatch).is_none() {
        findings.extend(lint::check_pagination(false, model.output));
    }
    for finding in findings {
        let span: Option<Span> = match finding.target {
            lint::Target::ToolName => attr.name.as_ref().map(|n| n.span()),
            lint::Target::ToolAnnotations => annotation_span,
            lint::Target::ToolOutput => Some(output.span()),
            lint::Target::Allow { param: None, index } => {
                tool.allows.get(index).map(|a| a.lint.span())
            }
            _ => None,
        };
        errors.push(syn::Error::new(span.unwrap_or(fn_span), finding.render()));
    }
}

/// Whether the tool silenced `pagination_mismatch` (then no const check is emitted).
pub fn allows_pagination_mismatch(tool: &ToolItemRef) -> bool {
    cfg!(not(feature = "lints"))
        || lint::find_allow(&model_allows(&tool.allows), lint::Lint::PaginationMismatch).is_some()
}

/// The messages of the const-evaluated cross-item check: a cursor without a page, a page
/// without a cursor. The compiler prefixes them with "evaluation panicked: ", so the lint name
/// comes right after, as in every other lint error.
pub fn pagination_messages(name: &str) -> (String, String) {
    let render = |has_cursor, shape| {
        lint::check_pagination(has_cursor, shape)
            .map(|f| format!("[{}] `{name}`: {}\n\nhelp: {}", f.code(), f.message, f.help))
            .unwrap_or_default()
    };
    (
        render(true, lint::OutputShape::Single),
        render(false, lint::OutputShape::Page),
    )
}
