//! The one way generated code reaches the runtime: `::mcp_tool::__private`, and the token
//! builders that more than one macro needs.
//!
//! Generated code names nothing else of `mcp_tool`, so what the macros depend on is the
//! list of re-exports in that module, and users need no serde or schemars of their own.

use crate::model::Allow;
use proc_macro2::{Span, TokenStream};
use quote::quote_spanned;

/// `::mcp_tool::__private`, spanned at the call site.
pub fn private() -> TokenStream {
    private_at(Span::call_site())
}

/// `::mcp_tool::__private` with the given span, for code whose errors must point at the
/// user's tokens rather than at the attribute.
pub fn private_at(span: Span) -> TokenStream {
    quote_spanned!(span=> ::mcp_tool::__private)
}

/// The same path as text, for attribute arguments that take a string (`crate = ".."`).
fn private_text(item: &str) -> String {
    format!("{}::{item}", private().to_string().replace(' ', ""))
}

/// `#[derive(..)]` of serde and schemars traits (`traits` are names inside `serde`, then
/// `JsonSchema`), with both derives pointed at the re-exported crates.
pub fn derives(serde_traits: &[&str]) -> TokenStream {
    let p = private();
    let serde_traits = serde_traits
        .iter()
        .map(|t| syn::Ident::new(t, Span::call_site()));
    let (serde, schemars) = (private_text("serde"), private_text("schemars"));
    quote::quote! {
        #[derive(#(#p::serde::#serde_traits,)* #p::schemars::JsonSchema)]
        #[serde(crate = #serde)]
        #[schemars(crate = #schemars)]
    }
}

/// An `Exception` value: one `allow(lint = "reason")`, registered so that the runtime can list
/// every silenced lint with its reason. `target` says where the allow was written.
pub fn exception(target: &str, allow: &Allow) -> TokenStream {
    let p = private();
    let (lint, reason) = (allow.lint_name(), &allow.reason);
    quote::quote!(#p::Exception { target: #target, lint: #lint, reason: #reason })
}
