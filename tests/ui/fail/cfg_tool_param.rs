// Compiled out, the arguments would still be passed by the registration: one error at the
// `cfg`, not "this function takes 0 arguments but 1 argument was supplied".
use mcp_tool::prelude::*;

#[tool_args]
pub struct CountNotesArgs {
    /// Text the notes must contain.
    pub text: String,
}

/// Count the notes that contain a text.
#[mcp_tool(family = "notes", size_hint = "1KB", read_only)]
pub async fn count_notes(#[cfg(test)] args: CountNotesArgs) -> ToolResult<usize> {
    Ok(0)
}

fn main() {}
