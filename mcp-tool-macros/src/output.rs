//! `#[tool_output]`: Serialize + JsonSchema for answer types, through `::mcp_tool::__private`.

use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;

/// `#[tool_args]` not yet expanded, or what it left: its `#[schemars(crate = ..)]`.
fn from_tool_args(attr: &syn::Attribute) -> bool {
    let path = attr.path();
    path.segments.last().is_some_and(|s| s.ident == "tool_args") || path.is_ident("schemars")
}

pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = crate::diagnostics::Errors::default();
    if !attr.is_empty() {
        errors.error(
            attr.span(),
            "#[tool_output] takes no arguments",
            "write `#[tool_output]`",
        );
    }
    let (attrs, is_enum) = match syn::parse2::<syn::Item>(item.clone()) {
        Ok(syn::Item::Struct(s)) => (s.attrs, false),
        Ok(syn::Item::Enum(e)) => (e.attrs, true),
        _ => {
            errors.error(
                item.span(),
                "#[tool_output] goes on a struct or an enum",
                "move it to the answer type",
            );
            (Vec::new(), false)
        }
    };
    let errs = errors.to_compile_errors();
    // A type that is both an argument and an answer (`#[tool_args]` too, before or after this
    // attribute) gets its schema and the crate paths from `#[tool_args]`, or serde and
    // schemars would see their `crate` twice: here only `Serialize` for a struct, and nothing
    // for an enum, which `#[tool_args]` already serializes.
    let derives = if attrs.iter().any(from_tool_args) {
        let p = crate::private::private();
        if is_enum {
            TokenStream::new()
        } else {
            quote!(#[derive(#p::serde::Serialize)])
        }
    } else {
        crate::private::derives(&["Serialize"])
    };
    quote! {
        #derives
        #item
        #errs
    }
}
