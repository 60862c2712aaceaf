// Defaults that live in code or prose, invisible to a client reading the schema.
use mcp_tool::prelude::*;

#[tool_args]
pub struct ListSessionsArgs {
    /// Results per page.
    #[serde(default)]
    #[arg(max = 100)]
    pub limit: u32,
    /// Newest first, or oldest first when false (defaults to true).
    pub newest_first: Option<bool>,
    /// Maximum characters of the first prompt to show (default: 200).
    pub snippet_chars: Option<u32>,
}

fn main() {}
