//! Checks of a `#[mcp_tool]` fn's shape and attribute, then the tool-level design lints.

use super::parse::ToolItem;
use crate::args::validate_helpers::{generic_arg, last_ident};
use crate::diagnostics::Errors;
use crate::lints;
use crate::size::parse_size_hint;
use syn::spanned::Spanned;
use syn::{FnArg, Pat, ReturnType, Type};

pub enum Param {
    /// `&ToolContext`.
    Context,
    /// `&T`: a server state.
    State(Type),
    /// The by-value `#[tool_args]` struct.
    Args(Type),
}

pub struct Checked {
    pub name: String,
    pub family: String,
    pub size_hint: usize,
    pub params: Vec<Param>,
    /// `T` of `ToolResult<T>`.
    pub output: Type,
    /// `U` when `T` is `Page<U>`.
    pub page_item: Option<Type>,
}

pub fn validate(tool: &ToolItem, errors: &mut Errors) -> Option<Checked> {
    let sig = &tool.func.sig;
    let attr = &tool.attr;
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
    if !sig.generics.params.is_empty() {
        errors.error(
            sig.generics.span(),
            "an #[mcp_tool] fn cannot be generic: its schema is fixed at registration",
            "use concrete types",
        );
    }
    let required = |v: &Option<syn::LitStr>,
                    key: &str,
                    example: &str,
                    errors: &mut Errors|
     -> Option<String> {
        match v {
            Some(s) => Some(s.value()),
            None => {
                errors.error(
                    sig.ident.span(),
                    format!("#[mcp_tool] on `{}` has no `{key}`", sig.ident),
                    format!("add `{key} = {example}` to the attribute"),
                );
                None
            }
        }
    };
    let name = required(&attr.name, "name", "\"verb_object\"", errors);
    let family = required(&attr.family, "family", "\"my_family\"", errors);
    let size_text = required(&attr.size_hint, "size_hint", "\"10KB\"", errors);
    let size_hint = match (size_text, &attr.size_hint) {
        (Some(text), Some(lit)) => match parse_size_hint(&text) {
            Ok(n) => Some(n),
            Err(why) => {
                errors.error(
                    lit.span(),
                    format!("invalid size_hint: {why}"),
                    "write a budget such as \"5KB\", \"32KB\" or \"1MB\"",
                );
                None
            }
        },
        _ => None,
    };

    let mut params = Vec::new();
    let mut by_value = 0;
    for input in &sig.inputs {
        match input {
            FnArg::Receiver(r) => errors.error(
                r.span(),
                "an #[mcp_tool] fn is a free function, not a method",
                "move it out of the impl block and take the state as `&State`",
            ),
            FnArg::Typed(pt) => {
                if !matches!(&*pt.pat, Pat::Ident(_) | Pat::Wild(_)) {
                    errors.error(
                        pt.pat.span(),
                        "use a plain name for tool parameters",
                        "bind the parameter to a name and destructure inside the fn",
                    );
                }
                match &*pt.ty {
                    Type::Reference(r) if r.mutability.is_some() => errors.error(
                        r.mutability.span(),
                        "injected parameters are shared (`&T`), never `&mut T`: many calls run at once",
                        "take `&T` and use interior mutability (a Mutex, an atomic) inside the state",
                    ),
                    Type::Reference(r) => {
                        if last_ident(&r.elem).as_deref() == Some("ToolContext") {
                            params.push(Param::Context);
                        } else {
                            params.push(Param::State((*r.elem).clone()));
                        }
                    }
                    ty => {
                        by_value += 1;
                        if by_value > 1 {
                            errors.error(
                                ty.span(),
                                "an #[mcp_tool] fn takes at most one by-value parameter: the #[tool_args] struct",
                                "put every argument in one #[tool_args] struct; take server state as `&State`",
                            );
                        } else {
                            params.push(Param::Args(ty.clone()));
                        }
                    }
                }
            }
        }
    }

    let output = match &sig.output {
        ReturnType::Type(_, ty) => tool_result_inner(ty),
        ReturnType::Default => None,
    };
    if output.is_none() {
        let span = match &sig.output {
            ReturnType::Type(_, ty) => ty.span(),
            ReturnType::Default => sig.ident.span(),
        };
        errors.error(span, format!("`{}` must return `ToolResult<T>`", sig.ident), "return `ToolResult<T>` (errors are `ToolError`s the model can read), or `ToolResult<Page<T>>` for a list");
    }
    let page_item = output
        .as_ref()
        .and_then(|t| generic_arg(t, "Page"))
        .cloned();
    let has_args = params.iter().any(|p| matches!(p, Param::Args(_)));
    if let (Some(out), Some(name)) = (&output, &name) {
        lints::check_tool(tool, name, page_item.is_some(), has_args, out, errors);
    }
    Some(Checked {
        name: name?,
        family: family?,
        size_hint: size_hint?,
        params,
        output: output?,
        page_item,
    })
}

/// `T` of `ToolResult<T>` or `Result<T, ToolError>`.
fn tool_result_inner(ty: &Type) -> Option<Type> {
    let Type::Path(p) = ty else { return None };
    let seg = p.path.segments.last()?;
    let syn::PathArguments::AngleBracketed(a) = &seg.arguments else {
        return None;
    };
    let mut types = a.args.iter().filter_map(|g| match g {
        syn::GenericArgument::Type(t) => Some(t.clone()),
        _ => None,
    });
    match seg.ident.to_string().as_str() {
        "ToolResult" if a.args.len() == 1 => types.next(),
        "Result" if a.args.len() == 2 => {
            let ok = types.next()?;
            let err = types.next()?;
            (last_ident(&err).as_deref() == Some("ToolError")).then_some(ok)
        }
        _ => None,
    }
}
