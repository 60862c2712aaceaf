//! In-process tests of the macro entry points, over `proc_macro2` token streams.

mod fragments;
mod generate;
mod harness;
mod never_panic;
mod no_cascade;
mod token_soup;
mod wire_names;
