//! `#[tool_args]`: parse -> validate -> expand.

mod expand;
mod parse;
pub(crate) mod validate;
pub(crate) use validate as validate_helpers;

pub use parse::{
    Allow, ArgsItem as ArgsItemRef, Field, Shape, Variant, allows_from as parse_allows,
};

use crate::diagnostics::Errors;
use proc_macro2::TokenStream;

pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let Some(parsed) = parse::parse(attr, item.clone(), &mut errors) else {
        // Not even a struct or enum: give back the item untouched next to the errors.
        let errs = errors.to_compile_errors();
        return quote::quote!(#item #errs);
    };
    validate::validate(&parsed, &mut errors);
    let code = expand::expand(&parsed);
    let errs = errors.to_compile_errors();
    quote::quote!(#code #errs)
}
