// `impl Trait` in a parameter is a generic parameter: one error at it, and no registration
// that would name an `impl Trait` type.
use mcp_tool::prelude::*;

/// Count the notes that contain a text.
#[mcp_tool(family = "notes", size_hint = "1KB", read_only)]
pub async fn count_notes(text: impl Into<String>) -> ToolResult<usize> {
    Ok(text.into().len())
}

fn main() {}
