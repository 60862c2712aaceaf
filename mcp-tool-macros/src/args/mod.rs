//! `#[tool_args]`: parse -> validate -> expand.

mod expand;
mod parse;
mod validate;

use crate::diagnostics::Errors;
use proc_macro2::TokenStream;
use quote::quote;

pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let checked = parse::parse(attr, item.clone(), &mut errors)
        .and_then(|parsed| validate::validate(&parsed, &mut errors));
    let errs = errors.to_compile_errors();
    match checked {
        // The derives are emitted even next to errors: without them every use of the item
        // would fail too, and hide the errors that matter.
        Some(checked) => {
            let code = expand::expand(&checked);
            quote!(#code #errs)
        }
        // Not an item code can be generated for: give it back untouched next to the errors.
        None => quote!(#item #errs),
    }
}
