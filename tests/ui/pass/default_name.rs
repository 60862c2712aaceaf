// Without `name`, the fn's name is the tool's: here `get_newest_session_summary`, which the
// `tool_name` lint checks like any other.
use mcp_tool::prelude::*;

#[tool_output]
pub struct SessionSummary {
    /// Full session id.
    pub session_id: String,
}

/// Ids, times and model of the newest session.
#[mcp_tool(family = "trace", size_hint = "5KB", read_only)]
pub async fn get_newest_session_summary() -> ToolResult<SessionSummary> {
    Ok(SessionSummary { session_id: String::new() })
}

fn main() {}
