//! `#[mcp_tool]`: parse -> validate -> expand.

mod expand;
mod parse;
mod validate;

pub use parse::ToolItem as ToolItemRef;

use crate::diagnostics::Errors;
use proc_macro2::TokenStream;

pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let Some(parsed) = parse::parse(attr, item.clone(), &mut errors) else {
        let errs = errors.to_compile_errors();
        return quote::quote!(#item #errs);
    };
    let checked = validate::validate(&parsed, &mut errors);
    let errs = errors.to_compile_errors();
    let func = &parsed.func;
    match checked {
        // Registration only for a tool with no problems; the fn itself is always emitted so
        // that code calling it keeps compiling while the design is being fixed.
        Some(tool) if errors.is_empty() => {
            let registration = expand::expand(&parsed, &tool);
            quote::quote!(#func #registration)
        }
        _ => quote::quote!(#func #errs),
    }
}
