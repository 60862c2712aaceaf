// A field name that is a word with its vowels cut out, though one is left (`usr`).
use mcp_tool::prelude::*;

#[tool_args]
pub struct GetProfileArgs {
    /// The account whose profile to return.
    pub usr: String,
}

fn main() {}
