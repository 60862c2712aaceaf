// Names that say what the tool does: verb first, a namespace then a verb, or a report; and a
// fixed name kept with a reason. (Object first and kebab case: ui/fail/lint_tool_name_style.rs.)
use mcp_tool::prelude::*;

#[tool_output]
pub struct SessionSummary {
    /// Full session id.
    pub session_id: String,
}

/// Ids, times and model of the newest session.
#[mcp_tool(name = "get_newest_session_summary", family = "trace", size_hint = "5KB", read_only)]
pub async fn get_newest_session_summary() -> ToolResult<SessionSummary> {
    Ok(SessionSummary { session_id: String::new() })
}

/// Ids, times and model of the newest session.
#[mcp_tool(name = "trace_get_newest_session", family = "trace", size_hint = "5KB", read_only)]
pub async fn trace_get_newest_session() -> ToolResult<SessionSummary> {
    Ok(SessionSummary { session_id: String::new() })
}

/// Ids, times and model of the newest session.
#[mcp_tool(name = "trace_status", family = "trace", size_hint = "5KB", read_only)]
pub async fn trace_status() -> ToolResult<SessionSummary> {
    Ok(SessionSummary { session_id: String::new() })
}

/// Ids, times and model of the newest session.
#[mcp_tool(
    name = "session",
    family = "trace",
    size_hint = "5KB",
    read_only,
    allow(tool_name = "name fixed by an external client")
)]
pub async fn session_info() -> ToolResult<SessionSummary> {
    Ok(SessionSummary { session_id: String::new() })
}

fn main() {}
