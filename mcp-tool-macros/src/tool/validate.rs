//! Whether a `#[mcp_tool]` fn makes a tool: its shape and keys, then the tool-level design
//! lints. Returns the checked model that `expand` generates the registration from.

use crate::classify::{OutputKind, impl_trait};
use crate::diagnostics::Errors;
use crate::lints;
use crate::model::{Annotations, CheckedTool, ParamKind, ToolItem, ToolParam};
use crate::size::parse_size_hint;
use syn::ext::IdentExt;
use syn::spanned::Spanned;

/// `None` when the tool cannot be registered; the errors say why.
pub fn validate(tool: &ToolItem, errors: &mut Errors) -> Option<CheckedTool> {
    let sig = &tool.func.sig;
    let keys = &tool.keys;
    if sig.asyncness.is_none() {
        errors.error(
            sig.fn_token.span(),
            format!(
                "#[mcp_tool] needs an `async fn`, and `{}` is not async",
                sig.ident
            ),
            "write `pub async fn`",
        );
    }
    if let syn::Safety::Unsafe(unsafety) = &sig.safety {
        errors.error(
            unsafety.span(),
            format!(
                "#[mcp_tool] on `{}`: a tool cannot be `unsafe`, the server calls it and cannot uphold its safety conditions",
                sig.ident
            ),
            "remove `unsafe`, and keep the unsafe code in an `unsafe` block inside the fn",
        );
    }
    // `impl Trait` in a parameter is a generic parameter too, and one the generated code
    // could not name.
    let impl_params = tool.params.iter().filter_map(|p| match &p.kind {
        ParamKind::State(ty) | ParamKind::ByValue(ty) => impl_trait(ty).map(Spanned::span),
        _ => None,
    });
    let generics = (!sig.generics.params.is_empty()).then(|| sig.generics.span());
    for span in generics.into_iter().chain(impl_params) {
        errors.error(
            span,
            "an #[mcp_tool] fn cannot be generic: its schema is fixed at registration",
            "use concrete types",
        );
    }
    let required = |v: &Option<syn::LitStr>, key: &str, example: &str, errors: &mut Errors| {
        if v.is_none() {
            errors.error(
                sig.ident.span(),
                format!("#[mcp_tool] on `{}` has no `{key}`", sig.ident),
                format!("add `{key} = {example}` to the attribute"),
            );
        }
    };
    // Without `name`, the fn's own name is the tool's (`r#type` is called `type`).
    let name = match &keys.name {
        Some(name) => name.value(),
        None => sig.ident.unraw().to_string(),
    };
    required(&keys.family, "family", "\"my_family\"", errors);
    required(&keys.size_hint, "size_hint", "\"10KB\"", errors);
    let size_hint = keys
        .size_hint
        .as_ref()
        .and_then(|lit| match parse_size_hint(&lit.value()) {
            Ok(n) => Some(n),
            Err(why) => {
                errors.error(
                    lit.span(),
                    format!("invalid size_hint: {why}"),
                    "write a budget such as \"5KB\", \"32KB\" or \"1MB\"",
                );
                None
            }
        });

    let mut params = Vec::new();
    let mut by_value = 0;
    for param in &tool.params {
        if let ParamKind::Receiver(span) = param.kind {
            errors.error(
                span,
                "an #[mcp_tool] fn is a free function, not a method",
                "move it out of the impl block and take the state as `&State`",
            );
            continue;
        }
        if let Some(span) = param.cfg {
            errors.error(
                span,
                "a tool's parameters cannot depend on a cfg: the registration passes every one of them",
                "keep the parameter, and put the cfg on the code inside the fn that uses it",
            );
        }
        if let Some(span) = param.complex_pattern {
            errors.error(
                span,
                "use a plain name for tool parameters",
                "bind the parameter to a name and destructure inside the fn",
            );
        }
        match &param.kind {
            ParamKind::Receiver(_) => {}
            ParamKind::MutRef(span) => errors.error(
                *span,
                "injected parameters are shared (`&T`), never `&mut T`: many calls run at once",
                "take `&T` and use interior mutability (a Mutex, an atomic) inside the state",
            ),
            ParamKind::Context => params.push(ToolParam::Context),
            ParamKind::State(ty) => params.push(ToolParam::State(ty.clone())),
            ParamKind::ByValue(ty) => {
                by_value += 1;
                if by_value > 1 {
                    errors.error(
                        ty.span(),
                        "an #[mcp_tool] fn takes at most one by-value parameter: the #[tool_args] struct",
                        "put every argument in one #[tool_args] struct; take server state as `&State`",
                    );
                } else {
                    params.push(ToolParam::Args(ty.clone()));
                }
            }
        }
    }

    if tool.output.is_none() {
        errors.error(
            tool.return_span,
            format!("`{}` must return `ToolResult<T>`", sig.ident),
            "return `ToolResult<T>` (errors are `ToolError`s the model can read), or `ToolResult<Page<T>>` for a list",
        );
    }
    if let Some(opaque) = tool.output.as_ref().and_then(|o| impl_trait(&o.ty)) {
        errors.error(
            opaque.span(),
            format!("`{}` returns an `impl Trait`: the answer's schema is generated from its type, which must have a name", sig.ident),
            "return `ToolResult<T>` with a concrete `T`, e.g. a #[tool_output] struct",
        );
    }
    let has_args = params.iter().any(|p| matches!(p, ToolParam::Args(_)));
    if let Some(output) = &tool.output {
        lints::check_tool(tool, &name, output, has_args, errors);
    }
    let paginated = matches!(&tool.output, Some(o) if matches!(o.kind, OutputKind::Page(_)));
    let pagination_message = has_args
        .then(|| lints::pagination_message(tool, &name, paginated))
        .flatten();
    let a = &keys.annotations;
    Some(CheckedTool {
        fn_ident: sig.ident.clone(),
        family: keys.family.as_ref()?.value(),
        size_hint: size_hint?,
        title: keys.title.clone(),
        description: tool.docs.clone().unwrap_or_default(),
        annotations: Annotations {
            read_only: a.read_only.is_some(),
            destructive: a.destructive.is_some(),
            idempotent: a.idempotent.is_some(),
            open_world: a.open_world.is_some(),
        },
        params,
        output: tool.output.clone()?,
        return_span: tool.return_span,
        allows: keys.allows.clone(),
        pagination_message,
        name,
    })
}
