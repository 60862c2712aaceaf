// A name some clients reject, and a valid one that names an object but no action.
use mcp_tool::prelude::*;

#[tool_output]
pub struct SessionSummary {
    /// Full session id.
    pub session_id: String,
}

/// The newest session.
#[mcp_tool(name = "session.summary", family = "trace", size_hint = "5KB", read_only)]
pub async fn session_summary_camel() -> ToolResult<SessionSummary> {
    Ok(SessionSummary { session_id: String::new() })
}

/// The newest session.
#[mcp_tool(name = "session", family = "trace", size_hint = "5KB", read_only)]
pub async fn session_summary() -> ToolResult<SessionSummary> {
    Ok(SessionSummary { session_id: String::new() })
}

fn main() {}
