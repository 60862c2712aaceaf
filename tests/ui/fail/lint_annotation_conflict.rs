// Hints that contradict each other or the verb: the wrong one decides whether a client asks first.
use mcp_tool::prelude::*;

#[tool_output]
pub struct Done {
    /// How many sessions were affected.
    pub sessions: u32,
}

/// Delete every session older than a month.
#[mcp_tool(name = "delete_old_sessions", family = "trace", size_hint = "1KB", read_only)]
pub async fn delete_old_sessions() -> ToolResult<Done> {
    Ok(Done { sessions: 0 })
}

/// Count the sessions in the index.
#[mcp_tool(name = "count_sessions", family = "trace", size_hint = "1KB", read_only, destructive)]
pub async fn count_sessions() -> ToolResult<Done> {
    Ok(Done { sessions: 0 })
}

/// Get the number of indexed sessions.
#[mcp_tool(name = "get_session_count", family = "trace", size_hint = "1KB", destructive)]
pub async fn get_session_count() -> ToolResult<Done> {
    Ok(Done { sessions: 0 })
}

fn main() {}
