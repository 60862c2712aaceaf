// A size hint is a budget in whole bytes, KB or MB, written without spaces.
use mcp_tool::prelude::*;

#[tool_output]
pub struct Summary {
    /// Full session id.
    pub session_id: String,
}

#[tool_args]
pub struct GetSummaryArgs {
    /// Session id or a unique prefix of one.
    pub session_id: String,
}

/// Ids, times and model of one session.
#[mcp_tool(name = "get_summary", family = "trace", size_hint = "10 KB", read_only)]
pub async fn get_summary(args: GetSummaryArgs) -> ToolResult<Summary> {
    Ok(Summary { session_id: args.session_id })
}

/// Ids, times and model of the newest session.
#[mcp_tool(name = "get_newest_summary", family = "trace", size_hint = "1.5MB", read_only)]
pub async fn get_newest_summary() -> ToolResult<Summary> {
    Ok(Summary { session_id: String::new() })
}

fn main() {}
