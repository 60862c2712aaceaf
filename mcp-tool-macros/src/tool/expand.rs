//! Registration code for a checked `#[mcp_tool]` fn.

use crate::classify::OutputKind;
use crate::model::{CheckedTool, ToolParam};
use crate::private::{exception, private, private_at};
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

pub fn expand(tool: &CheckedTool) -> TokenStream {
    let p = private();
    let fn_ident = &tool.fn_ident;
    let call_ident = format_ident!("__mcp_tool_call_{}", fn_ident);
    let CheckedTool {
        name,
        family,
        size_hint,
        description,
        ..
    } = tool;
    let title = match &tool.title {
        Some(t) => quote!(#p::Some(#t)),
        None => quote!(#p::None),
    };
    let a = tool.annotations;
    let (read_only, destructive, idempotent, open_world) =
        (a.read_only, a.destructive, a.idempotent, a.open_world);
    let paginated = tool.paginated();

    let args_ty = tool.args_type();
    let mut bindings = Vec::new();
    let mut call_args = Vec::new();
    let mut injected = Vec::new();
    if let Some(ty) = args_ty {
        bindings.push(quote!(let __args = __inv.args::<#ty>()?;));
    }
    bindings.push(quote!(let __inv = &__inv;));
    for (i, param) in tool.params.iter().enumerate() {
        let var = format_ident!("__p{}", i);
        match param {
            ToolParam::Context => {
                bindings.push(quote!(let #var = __inv.context();));
                call_args.push(quote!(#var));
            }
            ToolParam::State(ty) => {
                bindings.push(quote!(let #var = __inv.state::<#ty>()?;));
                call_args.push(quote!(#var));
                let type_name = quote!(#ty).to_string().replace(' ', "");
                injected.push(quote! {
                    #p::Injected { type_id: || #p::TypeId::of::<#ty>(), type_name: #type_name }
                });
            }
            ToolParam::Args(_) => call_args.push(quote!(__args)),
        }
    }
    let output = &tool.output.ty;
    let (to_output, data_schema) = match &tool.output.kind {
        OutputKind::Page(item) => (
            quote!(#p::Output::page(__answer)),
            quote!(#p::Some(|| #p::output_schema_of::<#p::Vec<#item>>())),
        ),
        OutputKind::Content => (quote!(#p::Output::content(__answer)), quote!(#p::None)),
        OutputKind::Value => (
            quote!(#p::Output::value(__answer)),
            quote!(#p::Some(|| #p::output_schema_of::<#output>())),
        ),
    };
    let input_schema = match args_ty {
        Some(ty) => quote!(#p::input_schema::<#ty>()),
        None => quote!(#p::empty_input_schema()),
    };

    let tool_exceptions = tool.allows.iter().map(|a| exception("tool", a));
    let args_exceptions = args_ty.map(|ty| {
        quote! {
            __all.extend_from_slice(<#ty as #p::ToolArgs>::exceptions());
            <#ty as #p::ToolArgs>::nested_exceptions(&mut __all);
        }
    });

    // The cross-item rule: a `cursor` argument and a `Page` output go together. The args struct
    // is another item, so its fact arrives as an associated const and is checked in const eval.
    let pagination_check = args_ty
        .zip(tool.pagination_message.as_ref())
        .map(|(ty, message)| {
            let span = tool.return_span;
            // The panic is written here rather than called through a helper in mcp-tool-core: the
            // error then points at the return type, with no note leading into the framework.
            let p = private_at(span);
            let has_cursor = quote_spanned!(span=> <#ty as #p::ToolArgs>::HAS_CURSOR);
            let broken = if paginated {
                quote_spanned!(span=> !#has_cursor)
            } else {
                has_cursor
            };
            quote_spanned! {span=>
                const _: () = if #broken { ::core::panic!("{}", #message) };
            }
        });

    // Everything the registration needs lives in one anonymous const, so that the only items
    // the attribute adds are that const and a marker. A tool is registered as a free fn: inside
    // an `impl` block neither item is allowed, and rustc's complaint about the marker names
    // the fix instead of a cascade about unresolved paths.
    let marker = format_ident!(
        "{}_is_registered_as_a_free_fn_so_move_it_out_of_the_impl_block",
        fn_ident,
        span = fn_ident.span()
    );
    quote! {
        #[doc(hidden)]
        #[allow(non_camel_case_types, dead_code)]
        struct #marker;

        const _: () = {
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
        };
    }
}
