//! `#[mcp_tool]` and `#[tool_args]`: the macros of mcp-tool.
//!
//! Each macro runs parse -> validate -> expand. Problems are collected, not returned at the
//! first one, so a person sees everything wrong with an item in one compile; on error the
//! macros still emit the item itself so that its users do not fail in cascade.

mod args;
mod attrs;
mod classify;
mod diagnostics;
mod docs;
mod lints;
mod model;
mod output;
mod private;
mod size;
mod tool;

use proc_macro::TokenStream;

/// Turns an `async fn` into a registered MCP tool. See the crate `mcp_tool_core` for the keys.
#[proc_macro_attribute]
pub fn mcp_tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    tool::expand(attr.into(), item.into()).into()
}

/// Derives what a tool's argument struct needs, or an enum used in one: fieldless (a closed set
/// of names) or, with `tag = ".."`, internally tagged with unit and named-field variants.
#[proc_macro_attribute]
pub fn tool_args(attr: TokenStream, item: TokenStream) -> TokenStream {
    args::expand(attr.into(), item.into()).into()
}

/// Derives what a tool's answer type needs (Serialize + JsonSchema), so the author's crate
/// needs neither serde nor schemars. Field docs become descriptions in the output schema.
#[proc_macro_attribute]
pub fn tool_output(attr: TokenStream, item: TokenStream) -> TokenStream {
    output::expand(attr.into(), item.into()).into()
}
