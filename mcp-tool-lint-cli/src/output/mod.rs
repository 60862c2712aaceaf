//! The three output formats, one file each.

mod json;
mod sarif;
mod text;

use crate::catalog::Catalog;
use crate::check::Outcome;
use crate::cli::Format;

/// The findings (and, for JSON, the counts) in `format`, ending with a newline.
pub fn render(format: Format, catalog: &Catalog, outcome: &Outcome) -> String {
    match format {
        Format::Text => text::render(catalog, outcome),
        Format::Json => pretty(&json::render(catalog, outcome)),
        Format::Sarif => pretty(&sarif::render(outcome)),
    }
}

fn pretty(value: &serde_json::Value) -> String {
    serde_json::to_string_pretty(value).expect("a serde_json::Value always serializes") + "\n"
}
