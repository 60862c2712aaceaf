//! `#[mcp_tool]`: parse -> validate -> expand.

mod expand;
mod parse;
mod validate;

use crate::diagnostics::Errors;
use proc_macro2::TokenStream;
use quote::quote;

pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let Some(parsed) = parse::parse(attr, item.clone(), &mut errors) else {
        let errs = errors.to_compile_errors();
        return quote!(#item #errs);
    };
    let checked = validate::validate(&parsed, &mut errors);
    let func = &parsed.func;
    match checked {
        // Registration only for a tool with no problems; the fn itself is always emitted so
        // that code calling it keeps compiling while the design is being fixed.
        Some(tool) if errors.is_empty() => {
            let registration = expand::expand(&tool);
            let warnings = errors.to_compile_errors();
            quote!(#func #registration #warnings)
        }
        _ => {
            let errs = errors.to_compile_errors();
            quote!(#func #errs)
        }
    }
}
