//! Accumulating spanned errors, rendered with a `help:` line.

use proc_macro2::{Span, TokenStream};
use std::fmt::Display;

#[derive(Default)]
pub struct Errors {
    combined: Option<syn::Error>,
    /// Advice: findings of a rule whose evidence is not strong enough for an error.
    warnings: Vec<(Span, String)>,
}

impl Errors {
    pub fn push(&mut self, error: syn::Error) {
        match &mut self.combined {
            Some(all) => all.combine(error),
            None => self.combined = Some(error),
        }
    }

    /// An error whose message is `message`, then a blank line and `help: <help>`.
    pub fn error(&mut self, span: Span, message: impl Display, help: impl Display) {
        self.push(syn::Error::new(span, format!("{message}\n\nhelp: {help}")));
    }

    /// darling's errors about an attribute's keys, one by one, each with `help` (darling's own
    /// have none).
    pub fn darling(&mut self, error: darling::Error, help: impl Display) {
        for single in error.flatten() {
            let single = syn::Error::from(single);
            self.error(single.span(), &single, &help);
        }
    }

    /// A compile-time warning at `span`. Stable Rust has no API for a proc macro's warnings,
    /// so it is the deprecation note of a unit struct used at that span: the compiler prints
    /// `warning: use of deprecated unit struct ...: <message>` pointing there, and `-D
    /// warnings` (or `#[deny(deprecated)]`) turns it into an error for who wants that.
    pub fn warn(&mut self, span: Span, message: String) {
        self.warnings.push((span, message));
    }

    /// Whether no error was pushed (warnings do not count).
    pub fn is_empty(&self) -> bool {
        self.combined.is_none()
    }

    /// The errors, then one item per warning.
    pub fn to_compile_errors(&self) -> TokenStream {
        let mut out = self
            .combined
            .as_ref()
            .map(syn::Error::to_compile_error)
            .unwrap_or_default();
        for (span, message) in &self.warnings {
            let ident = syn::Ident::new("mcp_tool_design_advice", *span);
            out.extend(quote::quote_spanned! {*span=>
                const _: () = {
                    #[deprecated(note = #message)]
                    #[allow(non_camel_case_types)]
                    struct mcp_tool_design_advice;
                    let _ = #ident;
                };
            });
        }
        out
    }
}
