//! Code for a checked `#[tool_args]` item: the derives, the `#[arg]` defaults and range
//! checks, and the facts `#[mcp_tool]` needs.

use crate::model::{Bound, CheckedArgs, CheckedField, CheckedShape, CheckedVariant};
use crate::private::{derives, exception, private};
use proc_macro2::{Literal, Span, TokenStream};
use quote::{format_ident, quote};
use syn::ext::IdentExt;
use syn::{Expr, Ident, ItemEnum, ItemStruct, Lit, LitStr};

pub fn expand(args: &CheckedArgs) -> TokenStream {
    match &args.shape {
        CheckedShape::Struct {
            item,
            fields,
            has_cursor,
        } => expand_struct(args, item.clone(), fields, *has_cursor),
        CheckedShape::Names { item } => expand_names(item),
        CheckedShape::Tagged {
            item,
            tag,
            variants,
        } => expand_tagged(args, item.clone(), tag.as_ref(), variants),
    }
}

fn expand_names(item: &ItemEnum) -> TokenStream {
    let derives = derives(&["Deserialize", "Serialize"]);
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

/// `owner` is the type the default function is defined on, `fn_ident` its name, `value` an
/// expression of type `&T` for the field, `path` an expression of type `&str`.
fn field_code(
    owner: &Ident,
    fn_ident: Ident,
    field: &CheckedField,
    syn_field: &mut syn::Field,
    value: TokenStream,
    path: TokenStream,
) -> FieldCode {
    let p = private();
    let name = &field.name;
    let ty = &field.ty;
    let default_fn = field.default.as_ref().map(|expr| {
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
    let (min, max) = (&field.min, &field.max);
    let mut check = None;
    if min.is_some() || max.is_some() {
        // A bound is finite (checked when it is read), as `f64_suffixed` requires.
        let as_f64 = |b: &Option<Bound>| match b {
            Some(b) => {
                let lit = Literal::f64_suffixed(b.value.abs());
                if b.value.is_sign_negative() {
                    quote!(#p::Some(-#lit))
                } else {
                    quote!(#p::Some(#lit))
                }
            }
            None => quote!(#p::None),
        };
        let (lo, hi) = (as_f64(min), as_f64(max));
        check = Some(quote! {
            #p::check_range(#value, #path, #lo, #hi)?;
        });
    }
    let mut keywords = None;
    if default_fn.is_some() || min.is_some() || max.is_some() {
        let default = match &default_fn {
            Some(_) => quote! {
                #p::Some(|| {
                    #p::serde_json::to_value(#owner::#fn_ident())
                        .unwrap_or(#p::serde_json::Value::Null)
                })
            },
            None => quote!(#p::None),
        };
        let opt = |b: &Option<Bound>| match b.as_ref().map(|b| &b.text) {
            Some(t) => quote!(#p::Some(#t)),
            None => quote!(#p::None),
        };
        let (lo, hi) = (opt(min), opt(max));
        keywords = Some(quote! {
            #p::ArgKeywords { field: #name, default: #default, minimum: #lo, maximum: #hi }
        });
    }
    FieldCode {
        default_fn,
        check,
        keywords,
    }
}

fn expand_tagged(
    args: &CheckedArgs,
    mut item: ItemEnum,
    tag: Option<&LitStr>,
    variants: &[CheckedVariant],
) -> TokenStream {
    let p = private();
    let ident = &args.ident;
    let mut default_fns = Vec::new();
    let mut arms = Vec::new();

    for (i, (variant, syn_variant)) in variants.iter().zip(item.variants.iter_mut()).enumerate() {
        let mut checks = Vec::new();
        let mut bound = Vec::new();
        let mut keywords = Vec::new();
        for (field, syn_field) in variant.fields.iter().zip(syn_variant.fields.iter_mut()) {
            let f = &field.ident;
            let name = &field.name;
            let path = quote!(&#p::format!("{}.{}", __path, #name));
            let code = field_code(
                ident,
                format_ident!("__mcp_default_{}_{}", i, f, span = Span::call_site()),
                field,
                syn_field,
                quote!(#f),
                path.clone(),
            );
            default_fns.extend(code.default_fn);
            keywords.extend(code.keywords);
            let nested = field
                .may_nest
                .then(|| quote!((&#p::Nested(#f, #path)).check_nested()?;));
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
                fn #fn_ident(schema: &mut #p::schemars::Schema) {
                    static KEYWORDS: [#p::ArgKeywords; #n] = [#(#keywords),*];
                    #p::variant_keywords(schema, &KEYWORDS);
                }
            });
            let path: syn::ExprPath = syn::parse_quote!(#ident::#fn_ident);
            syn_variant
                .attrs
                .push(syn::parse_quote!(#[schemars(transform = #path)]));
        }
    }
    let mut exceptions: Vec<TokenStream> = args
        .allows
        .iter()
        .map(|a| exception(&ident.unraw().to_string(), a))
        .collect();
    for v in variants {
        for f in &v.fields {
            let target = format!("{}::{}.{}", ident.unraw(), v.ident.unraw(), f.name);
            exceptions.extend(f.allows.iter().map(|a| exception(&target, a)));
        }
    }
    let n_exceptions = exceptions.len();
    let derives = derives(&["Deserialize", "Serialize"]);
    let tag = tag.map(|tag| quote!(tag = #tag,));
    quote! {
        #derives
        #[serde(#tag rename_all = "snake_case")]
        #item

        impl #ident {
            #(#default_fns)*
        }

        impl #p::NestedArgs for #ident {
            fn validate_at(&self, __path: &str) -> #p::Result<(), #p::ToolError> {
                #[allow(unused_imports)]
                use #p::{NestedChecks as _, NoNestedChecks as _};
                match self {
                    #(#arms)*
                }
                #p::Ok(())
            }

            fn exceptions() -> &'static [#p::Exception] {
                static EXCEPTIONS: [#p::Exception; #n_exceptions] = [#(#exceptions),*];
                &EXCEPTIONS
            }
        }
    }
}

fn expand_struct(
    args: &CheckedArgs,
    mut item: ItemStruct,
    fields: &[CheckedField],
    has_cursor: bool,
) -> TokenStream {
    let p = private();
    let ident = &args.ident;
    let mut default_fns = Vec::new();
    let mut checks = Vec::new();
    let mut keywords = Vec::new();
    let mut nested_exceptions = Vec::new();

    for (field, syn_field) in fields.iter().zip(item.fields.iter_mut()) {
        let f = &field.ident;
        let name = &field.name;
        let code = field_code(
            ident,
            format_ident!("__mcp_default_{}", f, span = Span::call_site()),
            field,
            syn_field,
            quote!(&self.#f),
            quote!(#name),
        );
        default_fns.extend(code.default_fn);
        checks.extend(code.check);
        keywords.extend(code.keywords);
        if field.may_nest {
            checks.push(quote!((&#p::Nested(&self.#f, #name)).check_nested()?;));
            let ty = &field.ty;
            nested_exceptions.push(quote! {
                (&#p::NestedType::<#ty>::new()).nested_exceptions(__out);
            });
        }
    }

    let mut exceptions: Vec<TokenStream> =
        args.allows.iter().map(|a| exception("args", a)).collect();
    for f in fields {
        let target = f.name.clone();
        exceptions.extend(f.allows.iter().map(|a| exception(&target, a)));
    }
    let n_keywords = keywords.len();
    let n_exceptions = exceptions.len();
    let derives = derives(&["Deserialize"]);

    quote! {
        #derives
        #item

        impl #ident {
            #(#default_fns)*
        }

        impl #p::ToolArgs for #ident {
            const HAS_CURSOR: bool = #has_cursor;

            fn validate(&self) -> #p::Result<(), #p::ToolError> {
                #[allow(unused_imports)]
                use #p::{NestedChecks as _, NoNestedChecks as _};
                #(#checks)*
                #p::Ok(())
            }

            fn keywords() -> &'static [#p::ArgKeywords] {
                static KEYWORDS: [#p::ArgKeywords; #n_keywords] = [#(#keywords),*];
                &KEYWORDS
            }

            fn exceptions() -> &'static [#p::Exception] {
                static EXCEPTIONS: [#p::Exception; #n_exceptions] = [#(#exceptions),*];
                &EXCEPTIONS
            }

            fn nested_exceptions(__out: &mut #p::Vec<#p::Exception>) {
                #[allow(unused_imports)]
                use #p::{NestedExceptions as _, NoNestedExceptions as _};
                #(#nested_exceptions)*
            }
        }
    }
}
