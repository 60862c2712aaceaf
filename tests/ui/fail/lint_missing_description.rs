// Neither the tool nor its parameter says what it is; only a name and a type reach the model.
use mcp_tool::prelude::*;

#[tool_args]
pub struct GetSessionSummaryArgs {
    /// Session id or a unique prefix of one.
    pub session_id: String,
    pub since: Option<String>,
    ///   
    pub until: Option<String>,
}

#[tool_output]
pub struct SessionSummary {
    /// Full session id.
    pub session_id: String,
}

#[mcp_tool(name = "get_session_summary", family = "trace", size_hint = "5KB", read_only)]
pub async fn get_session_summary(args: GetSessionSummaryArgs) -> ToolResult<SessionSummary> {
    Ok(SessionSummary { session_id: args.session_id })
}

fn main() {}
