//! Registration code for a checked `#[mcp_tool]` fn.

use super::parse::ToolItem;
use super::validate::{Checked, Param};
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

pub fn expand(tool: &ToolItem, checked: &Checked) -> TokenStream {
    let p = quote!(::mcp_tool_core::__private);
    let fn_ident = &tool.func.sig.ident;
    let call_ident = format_ident!("__mcp_tool_call_{}", fn_ident);
    let Checked {
        name,
        family,
        size_hint,
        ..
    } = checked;
    let description = tool.docs.clone().unwrap_or_default();
    let title = match &tool.attr.title {
        Some(t) => quote!(#p::Some(#t)),
        None => quote!(#p::None),
    };
    let flag = |f: &darling::util::Flag| f.is_present();
    let (read_only, destructive, idempotent, open_world) = (
        flag(&tool.attr.read_only),
        flag(&tool.attr.destructive),
        flag(&tool.attr.idempotent),
        flag(&tool.attr.open_world),
    );
    let paginated = checked.page_item.is_some();

    let args_ty = checked.params.iter().find_map(|p| match p {
        Param::Args(t) => Some(t),
        _ => None,
    });
    let mut bindings = Vec::new();
    let mut call_args = Vec::new();
    let mut injected = Vec::new();
    if let Some(ty) = args_ty {
        bindings.push(quote!(let __args = __inv.args::<#ty>()?;));
    }
    bindings.push(quote!(let __inv = &__inv;));
    for (i, param) in checked.params.iter().enumerate() {
        let var = format_ident!("__p{}", i);
        match param {
            Param::Context => {
                bindings.push(quote!(let #var = __inv.context();));
                call_args.push(quote!(#var));
            }
            Param::State(ty) => {
                bindings.push(quote!(let #var = __inv.state::<#ty>()?;));
                call_args.push(quote!(#var));
                let type_name = quote!(#ty).to_string().replace(' ', "");
                injected.push(quote! {
                    #p::Injected { type_id: || #p::TypeId::of::<#ty>(), type_name: #type_name }
                });
            }
            Param::Args(_) => call_args.push(quote!(__args)),
        }
    }
    let output = &checked.output;
    let rich = crate::args::validate_helpers::last_ident(output).as_deref() == Some("Content");
    let (to_output, data_schema) = match &checked.page_item {
        Some(item) => (
            quote!(#p::Output::page(__answer)),
            quote!(#p::Some(|| #p::schema_of::<#p::Vec<#item>>())),
        ),
        None if rich => (quote!(#p::Output::content(__answer)), quote!(#p::None)),
        None => (
            quote!(#p::Output::value(__answer)),
            quote!(#p::Some(|| #p::schema_of::<#output>())),
        ),
    };
    let input_schema = match args_ty {
        Some(ty) => quote!(#p::input_schema::<#ty>()),
        None => quote!(#p::empty_input_schema()),
    };

    let tool_exceptions: Vec<TokenStream> = tool
        .allows
        .iter()
        .map(|a| {
            let (lint, reason) = (a.lint.to_string(), &a.reason);
            quote!(#p::Exception { target: "tool", lint: #lint, reason: #reason })
        })
        .collect();
    let args_exceptions = args_ty.map(|ty| {
        quote! {
            __all.extend_from_slice(<#ty as #p::ToolArgs>::exceptions());
            <#ty as #p::ToolArgs>::nested_exceptions(&mut __all);
        }
    });

    // The cross-item rule: a `cursor` argument and a `Page` output go together. The args struct
    // is another item, so its fact arrives as an associated const and is checked in const eval.
    let pagination_check = args_ty
        .filter(|_| !crate::lints::allows_pagination_mismatch(tool))
        .map(|ty| {
            let (cursor_no_page, page_no_cursor) = crate::lints::pagination_messages(name);
            let span = match &tool.func.sig.output {
                syn::ReturnType::Type(_, t) => t.span(),
                syn::ReturnType::Default => fn_ident.span(),
            };
            // The panic is written here rather than called through a helper in mcp-tool-core: the
            // error then points at the return type, with no note leading into the framework.
            let has_cursor =
                quote_spanned!(span=> <#ty as ::mcp_tool_core::__private::ToolArgs>::HAS_CURSOR);
            let (broken, message) = if paginated {
                (quote_spanned!(span=> !#has_cursor), page_no_cursor)
            } else {
                (has_cursor, cursor_no_page)
            };
            quote_spanned! {span=>
                const _: () = if #broken { ::core::panic!("{}", #message) };
            }
        });

    quote! {
        #[doc(hidden)]
        #[allow(non_snake_case)]
        fn #call_ident(mut __inv: #p::Invocation) -> #p::BoxFuture<#p::Result<#p::Output, #p::ToolError>> {
            #p::Box::pin(async move {
                #(#bindings)*
                let __answer = #fn_ident(#(#call_args),*).await?;
                #to_output
            })
        }

        #pagination_check

        #p::inventory::submit! {
            #p::ToolDef {
                name: #name,
                family: #family,
                title: #title,
                description: #description,
                size_hint: #size_hint,
                read_only: #read_only,
                destructive: #destructive,
                idempotent: #idempotent,
                open_world: #open_world,
                paginated: #paginated,
                input_schema: || #input_schema,
                output_schema: #data_schema,
                injected: &[#(#injected),*],
                exceptions: || {
                    let mut __all: #p::Vec<#p::Exception> = #p::Vec::new();
                    __all.extend_from_slice(&[#(#tool_exceptions),*]);
                    #args_exceptions
                    __all
                },
                call: #call_ident,
                file: ::core::file!(),
                line: ::core::line!(),
            }
        }
    }
}
