//! Reading `#[mcp_tool(...)]` and the fn it is on.

use crate::args::Allow;
use crate::args::parse_allows;
use crate::diagnostics::Errors;
use crate::docs::doc_text;
use darling::FromMeta;
use darling::ast::NestedMeta;
use darling::util::Flag;
use proc_macro2::TokenStream;
use std::collections::HashMap;
use syn::{Ident, ItemFn, LitStr};

#[derive(FromMeta)]
pub struct ToolAttr {
    pub name: Option<LitStr>,
    pub family: Option<LitStr>,
    pub size_hint: Option<LitStr>,
    pub title: Option<LitStr>,
    #[darling(default)]
    pub read_only: Flag,
    #[darling(default)]
    pub destructive: Flag,
    #[darling(default)]
    pub idempotent: Flag,
    #[darling(default)]
    pub open_world: Flag,
    #[darling(default)]
    allow: HashMap<Ident, LitStr>,
}

pub struct ToolItem {
    pub attr: ToolAttr,
    pub allows: Vec<Allow>,
    pub func: ItemFn,
    pub docs: Option<String>,
}

pub fn parse(attr: TokenStream, item: TokenStream, errors: &mut Errors) -> Option<ToolItem> {
    let func: ItemFn = match syn::parse2(item) {
        Ok(f) => f,
        Err(e) => {
            errors.push(syn::Error::new(
                e.span(),
                "#[mcp_tool] goes on an `async fn`",
            ));
            return None;
        }
    };
    let attr = match NestedMeta::parse_meta_list(attr)
        .map_err(darling::Error::from)
        .and_then(|m| ToolAttr::from_list(&m))
    {
        Ok(a) => a,
        Err(e) => {
            errors.push(e.into());
            return None;
        }
    };
    let allows = parse_allows(attr.allow.clone());
    let docs = doc_text(&func.attrs);
    Some(ToolItem {
        attr,
        allows,
        func,
        docs,
    })
}
