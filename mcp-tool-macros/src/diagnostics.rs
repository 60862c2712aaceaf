//! Accumulating spanned errors, rendered with a `help:` line.

use proc_macro2::{Span, TokenStream};
use std::fmt::Display;

#[derive(Default)]
pub struct Errors {
    combined: Option<syn::Error>,
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

    pub fn is_empty(&self) -> bool {
        self.combined.is_none()
    }

    pub fn to_compile_errors(&self) -> TokenStream {
        self.combined
            .as_ref()
            .map(syn::Error::to_compile_error)
            .unwrap_or_default()
    }
}
