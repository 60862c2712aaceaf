// Hints that agree with each other and with the verb.
use mcp_tool::prelude::*;

#[tool_output]
pub struct Done {
    /// How many sessions were affected.
    pub sessions: u32,
}

/// Delete every session older than a month.
#[mcp_tool(name = "delete_old_sessions", family = "trace", size_hint = "1KB", destructive, idempotent)]
pub async fn delete_old_sessions() -> ToolResult<Done> {
    Ok(Done { sessions: 0 })
}

/// Count the sessions in the index.
#[mcp_tool(name = "count_sessions", family = "trace", size_hint = "1KB", read_only, idempotent)]
pub async fn count_sessions() -> ToolResult<Done> {
    Ok(Done { sessions: 0 })
}

/// Run the project's tests; they may write build artifacts.
#[mcp_tool(name = "run_tests", family = "dev", size_hint = "8KB", read_only)]
pub async fn run_tests() -> ToolResult<Done> {
    Ok(Done { sessions: 0 })
}

fn main() {}
