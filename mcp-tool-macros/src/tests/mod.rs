//! In-process tests of the macro entry points, over `proc_macro2` token streams.

mod fragments;
mod generate;
mod harness;
mod never_panic;
mod raw_idents;
