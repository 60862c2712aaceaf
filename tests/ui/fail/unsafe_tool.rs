// The server calls a tool with no way to uphold an `unsafe fn`'s conditions: one error at
// `unsafe`, and no registration whose call would add "requires unsafe block".
use mcp_tool::prelude::*;

/// Count the notes.
#[mcp_tool(family = "notes", size_hint = "1KB", read_only)]
pub async unsafe fn count_notes() -> ToolResult<u32> {
    Ok(0)
}

fn main() {}
