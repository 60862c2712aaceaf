// Every tool and parameter says what it is.
use mcp_tool::prelude::*;

#[tool_args]
pub struct GetSessionSummaryArgs {
    /// Session id or a unique prefix of one.
    pub session_id: String,
}

#[tool_output]
pub struct SessionSummary {
    /// Full session id.
    pub session_id: String,
}

/// Ids, times, model, turn count and tokens of one session.
/// Use `get_session_turns` for what happened in it.
#[mcp_tool(name = "get_session_summary", family = "trace", size_hint = "5KB", read_only)]
pub async fn get_session_summary(args: GetSessionSummaryArgs) -> ToolResult<SessionSummary> {
    Ok(SessionSummary { session_id: args.session_id })
}

fn main() {}
