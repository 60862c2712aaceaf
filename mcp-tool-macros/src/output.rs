//! `#[tool_output]`: Serialize + JsonSchema for answer types, through `::mcp_tool_core::__private`.

use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;

pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = crate::diagnostics::Errors::default();
    if !attr.is_empty() {
        errors.error(
            attr.span(),
            "#[tool_output] takes no arguments",
            "write `#[tool_output]`",
        );
    }
    match syn::parse2::<syn::Item>(item.clone()) {
        Ok(syn::Item::Struct(_) | syn::Item::Enum(_)) => {}
        _ => errors.error(
            item.span(),
            "#[tool_output] goes on a struct or an enum",
            "move it to the answer type",
        ),
    }
    let errs = errors.to_compile_errors();
    let derives = crate::private::derives(&["Serialize"]);
    quote! {
        #derives
        #item
        #errs
    }
}
