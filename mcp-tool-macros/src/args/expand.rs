//! Code for a `#[tool_args]` item: derives through `::mcp_tool_core::__private`, schema keywords,
//! range checks and the facts `#[mcp_tool]` needs.

use super::parse::{ArgsItem, Field, Shape};
use super::validate::{generic_arg, is_number, last_ident, option_inner};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{Expr, Ident, Item, Lit, Type};

pub fn expand(args: &ArgsItem) -> TokenStream {
    match &args.shape {
        Shape::Struct(_) => expand_struct(args),
        Shape::Enum => expand_enum(args),
        Shape::Tagged { .. } => expand_tagged(args),
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

/// The code `#[arg(...)]` asks for on one field: a default function, a range check and the
/// schema keywords, the same for a struct field and a variant field.
struct FieldCode {
    default_fn: Option<TokenStream>,
    check: Option<TokenStream>,
    keywords: Option<TokenStream>,
}

/// `owner` is the type the default function is defined on, `fn_name` its unique suffix,
/// `value` an expression of type `&T` for the field, `path` an expression of type `&str`.
fn field_code(
    owner: &Ident,
    fn_name: &str,
    field: &Field,
    syn_field: &mut syn::Field,
    value: TokenStream,
    path: TokenStream,
) -> FieldCode {
    let name = field.ident.to_string();
    let ty = &field.ty;
    // A default on an `Option` and a bound on a non-number are reported by validate; code
    // for them would only add type errors that contradict the help.
    let default = field
        .default
        .as_ref()
        .filter(|_| option_inner(ty).is_none());
    let numeric = is_number(option_inner(ty).unwrap_or(ty));
    let fn_ident = format_ident!("__mcp_default_{}", fn_name);
    let default_fn = default.map(|expr| {
        let value = match expr {
            Expr::Lit(l) if matches!(l.lit, Lit::Str(_)) => {
                quote!(::core::convert::Into::into(#expr))
            }
            _ => quote!(#expr),
        };
        let path = format!("{owner}::{fn_ident}");
        syn_field
            .attrs
            .push(syn::parse_quote!(#[serde(default = #path)]));
        quote! {
            #[doc(hidden)]
            fn #fn_ident() -> #ty { #value }
        }
    });
    let min = field
        .min
        .as_ref()
        .filter(|_| numeric)
        .map(|(t, _)| t.clone());
    let max = field
        .max
        .as_ref()
        .filter(|_| numeric)
        .map(|(t, _)| t.clone());
    let mut check = None;
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
        check = Some(quote! {
            ::mcp_tool_core::__private::check_range(#value, #path, #lo, #hi)?;
        });
    }
    let mut keywords = None;
    if default_fn.is_some() || min.is_some() || max.is_some() {
        let default = match &default_fn {
            Some(_) => quote! {
                ::mcp_tool_core::__private::Some(|| {
                    ::mcp_tool_core::__private::serde_json::to_value(#owner::#fn_ident())
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
        keywords = Some(quote! {
            ::mcp_tool_core::__private::ArgKeywords { field: #name, default: #default, minimum: #lo, maximum: #hi }
        });
    }
    FieldCode {
        default_fn,
        check,
        keywords,
    }
}

/// Whether a field's type may be a `#[tool_args(tag = ..)]` enum, whose checks the field's
/// owner must run: any type but the ones known to have none.
fn may_be_nested(ty: &Type) -> bool {
    let ty = option_inner(ty)
        .or_else(|| generic_arg(ty, "Vec"))
        .unwrap_or(ty);
    !is_number(ty)
        && !matches!(
            last_ident(ty).as_deref(),
            Some("String" | "bool" | "Cursor" | "Value" | "char")
        )
}

fn expand_tagged(args: &ArgsItem) -> TokenStream {
    let Shape::Tagged {
        tag,
        variants,
        sound,
    } = &args.shape
    else {
        unreachable!()
    };
    let Item::Enum(mut item) = args.item.clone() else {
        unreachable!()
    };
    let ident = &args.ident;
    let mut default_fns = Vec::new();
    let mut arms = Vec::new();

    for (i, (variant, syn_variant)) in variants.iter().zip(item.variants.iter_mut()).enumerate() {
        let mut checks = Vec::new();
        let mut bound = Vec::new();
        let mut keywords = Vec::new();
        for (field, syn_field) in variant.fields.iter().zip(syn_variant.fields.iter_mut()) {
            let f = &field.ident;
            let name = f.to_string();
            let path = quote!(&::mcp_tool_core::__private::format!("{}.{}", __path, #name));
            let code = field_code(
                ident,
                &format!("{i}_{f}"),
                field,
                syn_field,
                quote!(#f),
                path.clone(),
            );
            default_fns.extend(code.default_fn);
            keywords.extend(code.keywords);
            let nested = may_be_nested(&field.ty)
                .then(|| quote!((&::mcp_tool_core::__private::Nested(#f, #path)).check_nested()?;));
            if code.check.is_some() || nested.is_some() {
                bound.push(f.clone());
            }
            checks.extend(code.check);
            checks.extend(nested);
        }
        let v = &variant.ident;
        arms.push(quote!(Self::#v { #(#bound,)* .. } => { #(#checks)* }));
        if !keywords.is_empty() {
            let fn_ident = format_ident!("__mcp_keywords_{}", i);
            let n = keywords.len();
            default_fns.push(quote! {
                #[doc(hidden)]
                fn #fn_ident(schema: &mut ::mcp_tool_core::__private::schemars::Schema) {
                    static KEYWORDS: [::mcp_tool_core::__private::ArgKeywords; #n] = [#(#keywords),*];
                    ::mcp_tool_core::__private::variant_keywords(schema, &KEYWORDS);
                }
            });
            let path = format!("{ident}::{fn_ident}");
            let path: syn::ExprPath = syn::parse_str(&path).expect("a path");
            syn_variant
                .attrs
                .push(syn::parse_quote!(#[schemars(transform = #path)]));
        }
    }
    let exception = |target: &str, a: &super::parse::Allow| {
        let (lint, reason) = (a.lint.to_string(), &a.reason);
        quote!(::mcp_tool_core::__private::Exception { target: #target, lint: #lint, reason: #reason })
    };
    let mut exceptions: Vec<TokenStream> = args
        .allows
        .iter()
        .map(|a| exception(&ident.to_string(), a))
        .collect();
    for v in variants {
        for f in &v.fields {
            let target = format!("{ident}::{}.{}", v.ident, f.ident);
            exceptions.extend(f.allows.iter().map(|a| exception(&target, a)));
        }
    }
    let n_exceptions = exceptions.len();
    let derives = derives(true);
    let tag = sound.then(|| quote!(tag = #tag,));
    quote! {
        #derives
        #[serde(#tag rename_all = "snake_case")]
        #item

        impl #ident {
            #(#default_fns)*
        }

        impl ::mcp_tool_core::__private::NestedArgs for #ident {
            fn validate_at(&self, __path: &str) -> ::mcp_tool_core::__private::Result<(), ::mcp_tool_core::__private::ToolError> {
                #[allow(unused_imports)]
                use ::mcp_tool_core::__private::{NestedChecks as _, NoNestedChecks as _};
                match self {
                    #(#arms)*
                }
                ::mcp_tool_core::__private::Ok(())
            }

            fn exceptions() -> &'static [::mcp_tool_core::__private::Exception] {
                static EXCEPTIONS: [::mcp_tool_core::__private::Exception; #n_exceptions] = [#(#exceptions),*];
                &EXCEPTIONS
            }
        }
    }
}

fn expand_struct(args: &ArgsItem) -> TokenStream {
    let Shape::Struct(fields) = &args.shape else {
        unreachable!()
    };
    let Item::Struct(mut item) = args.item.clone() else {
        unreachable!()
    };
    let ident = &args.ident;
    let mut default_fns = Vec::new();
    let mut checks = Vec::new();
    let mut keywords = Vec::new();
    let mut nested_exceptions = Vec::new();

    for (field, syn_field) in fields.iter().zip(item.fields.iter_mut()) {
        let f = &field.ident;
        let name = f.to_string();
        let code = field_code(
            ident,
            &name,
            field,
            syn_field,
            quote!(&self.#f),
            quote!(#name),
        );
        default_fns.extend(code.default_fn);
        checks.extend(code.check);
        keywords.extend(code.keywords);
        if may_be_nested(&field.ty) {
            checks.push(
                quote!((&::mcp_tool_core::__private::Nested(&self.#f, #name)).check_nested()?;),
            );
            let ty = &field.ty;
            nested_exceptions.push(quote! {
                (&::mcp_tool_core::__private::NestedType::<#ty>::new()).nested_exceptions(__out);
            });
        }
    }

    let has_cursor = fields
        .iter()
        .any(|f| crate::lints::is_cursor(&f.ident, &f.ty));
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
                #[allow(unused_imports)]
                use ::mcp_tool_core::__private::{NestedChecks as _, NoNestedChecks as _};
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

            fn nested_exceptions(__out: &mut ::mcp_tool_core::__private::Vec<::mcp_tool_core::__private::Exception>) {
                #[allow(unused_imports)]
                use ::mcp_tool_core::__private::{NestedExceptions as _, NoNestedExceptions as _};
                #(#nested_exceptions)*
            }
        }
    }
}
