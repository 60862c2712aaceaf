// The macros see `#[doc = include_str!(..)]` before it is expanded, so they cannot read it:
// one error at it, not "the tool has no description".
use mcp_tool::prelude::*;

#[doc = include_str!("doc_include_str.rs")]
#[mcp_tool(family = "notes", size_hint = "1KB", read_only)]
pub async fn count_notes() -> ToolResult<u32> {
    Ok(0)
}

fn main() {}
