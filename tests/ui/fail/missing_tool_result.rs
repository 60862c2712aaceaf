// Without `ToolResult` the tool has no way to give the model an error it can act on.
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
#[mcp_tool(name = "get_summary", family = "trace", size_hint = "5KB", read_only)]
pub async fn get_summary(args: GetSummaryArgs) -> Summary {
    Summary { session_id: args.session_id }
}

/// Ids, times and model of the newest session.
#[mcp_tool(name = "get_newest_summary", family = "trace", size_hint = "5KB", read_only)]
pub async fn get_newest_summary() -> Result<Summary, String> {
    Ok(Summary { session_id: String::new() })
}

/// Says nothing back.
#[mcp_tool(name = "get_nothing", family = "trace", size_hint = "5KB", read_only)]
pub async fn get_nothing() {}

fn main() {}
