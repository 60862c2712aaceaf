//! Code for a `#[tool_args]` item: derives through `::mcp_tool_core::__private`, schema keywords,
//! range checks and the facts `#[mcp_tool]` needs.

use super::parse::{ArgsItem, Shape};
use super::validate::{is_number, option_inner};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Expr, Item, Lit};

pub fn expand(args: &ArgsItem) -> TokenStream {
    match &args.shape {
        Shape::Struct(_) => expand_struct(args),
        Shape::Enum => expand_enum(args),
    }
}

fn derives(serialize: bool) -> TokenStream {
    let ser = serialize.then(|| quote!(::mcp_tool_core::__private::serde::Serialize,));
    quote! {
        #[derive(
            ::mcp_tool_core::__private::serde::Deserialize,
            #ser
            ::mcp_tool_core::__private::schemars::JsonSchema
        )]
        #[serde(crate = "::mcp_tool_core::__private::serde")]
        #[schemars(crate = "::mcp_tool_core::__private::schemars")]
    }
}

fn expand_enum(args: &ArgsItem) -> TokenStream {
    let item = &args.item;
    let derives = derives(true);
    quote! {
        #derives
        #[serde(rename_all = "snake_case")]
        #item
    }
}

fn expand_struct(args: &ArgsItem) -> TokenStream {
    let Shape::Struct(fields) = &args.shape else { unreachable!() };
    let Item::Struct(mut item) = args.item.clone() else { unreachable!() };
    let ident = &args.ident;
    let mut default_fns = Vec::new();
    let mut checks = Vec::new();
    let mut keywords = Vec::new();

    for (field, syn_field) in fields.iter().zip(item.fields.iter_mut()) {
        let name = field.ident.to_string();
        let ty = &field.ty;
        // A default on an `Option` and a bound on a non-number are reported by validate; code
        // for them would only add type errors that contradict the help.
        let default = field.default.as_ref().filter(|_| option_inner(ty).is_none());
        let numeric = is_number(option_inner(ty).unwrap_or(ty));
        let default_fn = default.map(|expr| {
            let fn_ident = format_ident!("__mcp_default_{}", field.ident);
            let value = match expr {
                Expr::Lit(l) if matches!(l.lit, Lit::Str(_)) => quote!(::core::convert::Into::into(#expr)),
                _ => quote!(#expr),
            };
            default_fns.push(quote! {
                #[doc(hidden)]
                fn #fn_ident() -> #ty { #value }
            });
            let path = format!("{ident}::{fn_ident}");
            syn_field.attrs.push(syn::parse_quote!(#[serde(default = #path)]));
            fn_ident
        });
        let min = field.min.as_ref().filter(|_| numeric).map(|(t, _)| t.clone());
        let max = field.max.as_ref().filter(|_| numeric).map(|(t, _)| t.clone());
        if min.is_some() || max.is_some() {
            let as_f64 = |b: &Option<String>| match b {
                Some(t) => {
                    let lit: TokenStream = format!("{}f64", t.trim_start_matches('-')).parse().unwrap();
                    if t.starts_with('-') {
                        quote!(::mcp_tool_core::__private::Some(-#lit))
                    } else {
                        quote!(::mcp_tool_core::__private::Some(#lit))
                    }
                }
                None => quote!(::mcp_tool_core::__private::None),
            };
            let (lo, hi) = (as_f64(&min), as_f64(&max));
            let f = &field.ident;
            checks.push(quote! {
                ::mcp_tool_core::__private::check_range(&self.#f, #name, #lo, #hi)?;
            });
        }
        if default_fn.is_some() || min.is_some() || max.is_some() {
            let default = match &default_fn {
                Some(f) => quote! {
                    ::mcp_tool_core::__private::Some(|| {
                        ::mcp_tool_core::__private::serde_json::to_value(#ident::#f())
                            .unwrap_or(::mcp_tool_core::__private::serde_json::Value::Null)
                    })
                },
                None => quote!(::mcp_tool_core::__private::None),
            };
            let opt = |b: &Option<String>| match b {
                Some(t) => quote!(::mcp_tool_core::__private::Some(#t)),
                None => quote!(::mcp_tool_core::__private::None),
            };
            let (lo, hi) = (opt(&min), opt(&max));
            keywords.push(quote! {
                ::mcp_tool_core::__private::ArgKeywords { field: #name, default: #default, minimum: #lo, maximum: #hi }
            });
        }
    }

    let has_cursor = fields.iter().any(|f| crate::lints::is_cursor(&f.ident, &f.ty));
    let mut exceptions: Vec<TokenStream> = args
        .allows
        .iter()
        .map(|a| {
            let (lint, reason) = (a.lint.to_string(), &a.reason);
            quote!(::mcp_tool_core::__private::Exception { target: "args", lint: #lint, reason: #reason })
        })
        .collect();
    for f in fields {
        let target = f.ident.to_string();
        for a in &f.allows {
            let (lint, reason) = (a.lint.to_string(), &a.reason);
            exceptions.push(quote!(::mcp_tool_core::__private::Exception { target: #target, lint: #lint, reason: #reason }));
        }
    }
    let n_keywords = keywords.len();
    let n_exceptions = exceptions.len();
    let derives = derives(false);

    quote! {
        #derives
        #item

        impl #ident {
            #(#default_fns)*
        }

        impl ::mcp_tool_core::__private::ToolArgs for #ident {
            const HAS_CURSOR: bool = #has_cursor;

            fn validate(&self) -> ::mcp_tool_core::__private::Result<(), ::mcp_tool_core::__private::ToolError> {
                #(#checks)*
                ::mcp_tool_core::__private::Ok(())
            }

            fn keywords() -> &'static [::mcp_tool_core::__private::ArgKeywords] {
                static KEYWORDS: [::mcp_tool_core::__private::ArgKeywords; #n_keywords] = [#(#keywords),*];
                &KEYWORDS
            }

            fn exceptions() -> &'static [::mcp_tool_core::__private::Exception] {
                static EXCEPTIONS: [::mcp_tool_core::__private::Exception; #n_exceptions] = [#(#exceptions),*];
                &EXCEPTIONS
            }
        }
    }
}
