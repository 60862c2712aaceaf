// A name taken from the fn is linted like a written one, and the error points at the fn.
use mcp_tool::prelude::*;

#[tool_output]
pub struct SessionSummary {
    /// Full session id.
    pub session_id: String,
}

/// The newest session.
#[mcp_tool(family = "trace", size_hint = "5KB", read_only)]
pub async fn session() -> ToolResult<SessionSummary> {
    Ok(SessionSummary { session_id: String::new() })
}

fn main() {}
