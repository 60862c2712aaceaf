//! `#[tool_args]`: parse -> validate -> expand.

mod expand;
mod parse;
mod serde_attrs;
mod validate;

use crate::diagnostics::Errors;
use proc_macro2::TokenStream;
use quote::quote;

pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let Some(parsed) = parse::parse(attr, item.clone(), &mut errors) else {
        // Not a struct or an enum: give it back untouched next to the errors.
        let errs = errors.to_compile_errors();
        return quote!(#item #errs);
    };
    let checked = validate::validate(&parsed, &mut errors);
    let errs = errors.to_compile_errors();
    match checked {
        // The derives are emitted even next to errors: without them every use of the item
        // would fail too, and hide the errors that matter.
        Some(checked) => {
            let code = expand::expand(&checked);
            quote!(#code #errs)
        }
        // No code can be generated for it: the item without its `#[arg]`s, which nothing
        // else would read ("cannot find attribute `arg`").
        None => {
            let item = &parsed.body;
            quote!(#item #errs)
        }
    }
}
