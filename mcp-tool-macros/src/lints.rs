//! Bridge to `mcp-tool-lint`: builds its neutral model from the macros' typed model, and turns
//! its findings into errors spanned at the field or attribute at fault.

use crate::classify::OutputKind;
use crate::diagnostics::Errors;
use crate::model::{Allow, ArgsBody, ArgsItem, Field, Output, ToolItem, Variant};
use mcp_tool_lint as lint;
use proc_macro2::Span;
use syn::LitStr;
use syn::ext::IdentExt;
use syn::spanned::Spanned;

fn model_allows(allows: &[Allow]) -> Vec<lint::Allow> {
    allows
        .iter()
        .map(|a| lint::Allow::new(a.lint_name(), a.reason.value()))
        .collect()
}

pub fn check_args(args: &ArgsItem, errors: &mut Errors) {
    // Without the `lints` feature the macros only expand (to measure what the lints cost).
    if cfg!(not(feature = "lints")) {
        return;
    }
    match (&args.body, &args.tag) {
        (
            ArgsBody::Struct {
                fields: Some(fields),
                ..
            },
            _,
        ) => check_fields(
            args,
            fields,
            args.deny_unknown_fields,
            true,
            args.ident.span(),
            errors,
        ),
        (ArgsBody::Enum { variants, .. }, Some(tag)) => {
            check_tag(args, tag, variants, errors);
            // Each variant is one set of parameters the model fills at once, so the rules
            // between parameters (`hidden_coupling`, `too_many_params`) run per variant. The
            // item's allows were validated with the tag; here they only silence.
            for v in variants.iter().filter(|v| !v.fields.named().is_empty()) {
                check_fields(args, v.fields.named(), None, false, v.ident.span(), errors);
            }
        }
        // A closed set of names has no parameters to check.
        (ArgsBody::Struct { fields: None, .. } | ArgsBody::Enum { .. }, _) => {}
    }
}

fn param(f: &Field) -> lint::Param {
    lint::Param {
        name: f.name.clone(),
        ty: f.class.lint.clone(),
        required: !f.class.optional && f.default.is_none() && !f.serde_default,
        default: f.default.as_ref().map(|d| quote::quote!(#d).to_string()),
        min: f.min.as_ref().and_then(|b| b.text.parse().ok()),
        max: f.max.as_ref().and_then(|b| b.text.parse().ok()),
        description: f.docs.clone(),
        serde_default: f.serde_default,
        allows: model_allows(&f.allows),
    }
}

/// The argument rules on one set of fields: a struct's, or one variant's (`owner` is what a
/// finding about the set as a whole points at).
fn check_fields(
    args: &ArgsItem,
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
        // `#[tool_args]` sees the struct alone, not the tool that takes it.
        tool_description: None,
        origin: lint::Origin::Code,
    };
    for finding in lint::check_args(&model).findings {
        // A doc the macro cannot read is an error of its own already.
        let unread = |i: usize| fields.get(i).is_some_and(|f| f.unread_doc.is_some());
        if finding.lint == Some(lint::Lint::MissingDescription)
            && matches!(finding.target, lint::Target::Param(i) if unread(i))
        {
            continue;
        }
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
        match finding.level {
            lint::Level::Error => {
                errors.push(syn::Error::new(span.unwrap_or(owner), finding.render()))
            }
            lint::Level::Advice => errors.warn(span.unwrap_or(owner), finding.render()),
        }
    }
}

/// The tag as the parameter the model sees: its name, and the variants it chooses between,
/// each of which needs a doc saying when to choose it.
fn check_tag(args: &ArgsItem, tag: &syn::LitStr, variants: &[Variant], errors: &mut Errors) {
    let undocumented = variants
        .iter()
        .find(|v| v.docs.is_none() && v.unread_doc.is_none())
        .map(|v| v.ident.span());
    let unread = variants.iter().any(|v| v.unread_doc.is_some());
    let variants = variants
        .iter()
        .map(|v| lint::Variant {
            name: snake_case(&v.ident.unraw().to_string()),
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
        tool_description: None,
        origin: lint::Origin::Code,
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
            // Variants whose doc the macro cannot read are errors of their own already.
            _ if finding.lint == Some(lint::Lint::MissingDescription)
                && undocumented.is_none()
                && unread =>
            {
                continue;
            }
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
    tool: &ToolItem,
    name: &str,
    output: &Output,
    has_args: bool,
    errors: &mut Errors,
) {
    if cfg!(not(feature = "lints")) {
        return;
    }
    let keys = &tool.keys;
    let a = &keys.annotations;
    let paginated = matches!(output.kind, OutputKind::Page(_));
    let model = lint::Tool {
        name: name.to_owned(),
        title: keys.title.as_ref().map(LitStr::value),
        description: tool.docs.clone(),
        annotations: lint::Annotations {
            read_only: a.read_only.is_some(),
            destructive: a.destructive.is_some(),
            idempotent: a.idempotent.is_some(),
            open_world: a.open_world.is_some(),
        },
        output: if paginated {
            lint::OutputShape::Page
        } else {
            lint::OutputShape::Single
        },
        allows: model_allows(&keys.allows),
        family: keys.family.as_ref().map(LitStr::value),
        origin: lint::Origin::Code,
    };
    let fn_span = tool.func.sig.ident.span();
    let annotation_span = [a.destructive, a.read_only, a.idempotent, a.open_world]
        .into_iter()
        .flatten()
        .next();
    let mut findings = lint::check_tool(&model).findings;
    // Without an args struct there is no cursor at all, so the cross-item rule is decided here.
    if !has_args && lint::find_allow(&model.allows, lint::Lint::PaginationMismatch).is_none() {
        findings.extend(lint::check_pagination(false, model.output));
    }
    for finding in findings {
        // A doc the macro cannot read is an error of its own already.
        if finding.lint == Some(lint::Lint::MissingDescription) && tool.unread_doc.is_some() {
            continue;
        }
        let span: Option<Span> = match finding.target {
            // A name taken from the fn is blamed on the fn, the fallback.
            lint::Target::ToolName => keys.name.as_ref().map(LitStr::span),
            lint::Target::ToolAnnotations => annotation_span,
            lint::Target::ToolOutput => Some(output.ty.span()),
            lint::Target::Allow { param: None, index } => {
                keys.allows.get(index).map(|a| a.lint.span())
            }
            _ => None,
        };
        match finding.level {
            lint::Level::Error => {
                errors.push(syn::Error::new(span.unwrap_or(fn_span), finding.render()))
            }
            lint::Level::Advice => errors.warn(span.unwrap_or(fn_span), finding.render()),
        }
    }
}

/// The message of the const-evaluated cross-item check for this tool: a cursor without a page,
/// or a page without a cursor. `None` when the tool silenced `pagination_mismatch` (or the
/// lints are off): then no check is emitted. The compiler prefixes the message with
/// "evaluation panicked: ", so the lint name comes right after, as in every other lint error.
pub fn pagination_message(tool: &ToolItem, name: &str, paginated: bool) -> Option<String> {
    let allows = model_allows(&tool.keys.allows);
    let allowed = lint::find_allow(&allows, lint::Lint::PaginationMismatch).is_some();
    if cfg!(not(feature = "lints")) || allowed {
        return None;
    }
    let (has_cursor, shape) = if paginated {
        (false, lint::OutputShape::Page)
    } else {
        (true, lint::OutputShape::Single)
    };
    Some(
        lint::check_pagination(has_cursor, shape)
            .map(|f| format!("[{}] `{name}`: {}\n\nhelp: {}", f.code(), f.message, f.help))
            .unwrap_or_default(),
    )
}
