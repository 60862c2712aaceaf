//! Reading `#[mcp_tool(...)]` and the fn it is on into the model.
//!
//! Only what cannot be read is reported here: an item that is not a fn, unknown keys, values
//! of the wrong kind. Whether the fn makes a tool is for `validate`.

use crate::classify::{is_context, output_kind, tool_result_inner};
use crate::diagnostics::Errors;
use crate::docs::{doc_text, unread_doc};
use crate::model::{Annotations, FnParam, Output, ParamKind, ToolItem, ToolKeys};
use darling::FromMeta;
use darling::ast::NestedMeta;
use darling::util::Flag;
use proc_macro2::TokenStream;
use std::collections::HashMap;
use syn::spanned::Spanned;
use syn::{FnArg, Ident, ItemFn, LitStr, Pat, ReturnType, Type};

/// The help of an error in `#[mcp_tool(..)]`.
const TOOL_KEYS: &str = "the keys are `family = \"..\"` and `size_hint = \"10KB\"` (required), `name = \"..\"`, `title = \"..\"`, the flags `read_only`, `destructive`, `idempotent`, `open_world`, and `allow(lint_name = \"reason\")`";

#[derive(FromMeta)]
struct ToolAttr {
    name: Option<LitStr>,
    family: Option<LitStr>,
    size_hint: Option<LitStr>,
    title: Option<LitStr>,
    #[darling(default)]
    read_only: Flag,
    #[darling(default)]
    destructive: Flag,
    #[darling(default)]
    idempotent: Flag,
    #[darling(default)]
    open_world: Flag,
    #[darling(default)]
    allow: HashMap<Ident, LitStr>,
}

pub fn parse(attr: TokenStream, item: TokenStream, errors: &mut Errors) -> Option<ToolItem> {
    let func: ItemFn = match syn::parse2(item) {
        Ok(f) => f,
        Err(e) => {
            errors.error(
                e.span(),
                "#[mcp_tool] goes on an `async fn`",
                "move the attribute to the `async fn` that does the tool's work",
            );
            return None;
        }
    };
    let attr = match NestedMeta::parse_meta_list(attr)
        .map_err(darling::Error::from)
        .and_then(|m| ToolAttr::from_list(&m))
    {
        Ok(a) => a,
        Err(e) => {
            errors.darling(e, TOOL_KEYS);
            return None;
        }
    };
    let flag = |f: &Flag| f.is_present().then(|| f.span());
    let keys = ToolKeys {
        annotations: Annotations {
            read_only: flag(&attr.read_only),
            destructive: flag(&attr.destructive),
            idempotent: flag(&attr.idempotent),
            open_world: flag(&attr.open_world),
        },
        allows: crate::attrs::allows(attr.allow),
        name: attr.name,
        family: attr.family,
        size_hint: attr.size_hint,
        title: attr.title,
    };
    let sig = &func.sig;
    let (return_span, output) = match &sig.output {
        ReturnType::Type(_, ty) => (
            ty.span(),
            tool_result_inner(ty).map(|ty| Output {
                kind: output_kind(&ty),
                ty,
            }),
        ),
        ReturnType::Default => (sig.ident.span(), None),
    };
    Some(ToolItem {
        docs: doc_text(&func.attrs),
        unread_doc: unread_doc(&func.attrs, "#[mcp_tool]", errors),
        params: sig.inputs.iter().map(param).collect(),
        return_span,
        output,
        keys,
        func,
    })
}

fn param(input: &FnArg) -> FnParam {
    let pt = match input {
        FnArg::Receiver(r) => {
            return FnParam {
                complex_pattern: None,
                cfg: None,
                kind: ParamKind::Receiver(r.span()),
            };
        }
        FnArg::Typed(pt) => pt,
    };
    let kind = match &*pt.ty {
        Type::Reference(r) => match r.mutability {
            Some(m) => ParamKind::MutRef(m.span()),
            None if is_context(&r.elem) => ParamKind::Context,
            None => ParamKind::State((*r.elem).clone()),
        },
        ty => ParamKind::ByValue(ty.clone()),
    };
    FnParam {
        complex_pattern: (!matches!(&*pt.pat, Pat::Ident(_) | Pat::Wild(_))).then(|| pt.pat.span()),
        cfg: pt
            .attrs
            .iter()
            .find(|a| a.path().is_ident("cfg"))
            .map(|a| a.path().span()),
        kind,
    }
}
