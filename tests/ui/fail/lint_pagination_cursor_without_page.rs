// The cursor is in one item (the args struct) and the output in another (the fn): the check is
// made in const evaluation, and its message must still name the lint and the fix.
use mcp_tool::prelude::*;

#[tool_args]
pub struct GetSessionSummaryArgs {
    /// Session id or a unique prefix of one.
    pub session_id: String,
    /// `next_cursor` from the previous page; omit for the first page.
    pub cursor: Option<Cursor>,
}

#[tool_output]
pub struct SessionSummary {
    /// Full session id.
    pub session_id: String,
}

/// Ids, times, model and token counts of one session.
#[mcp_tool(name = "get_session_summary", family = "trace", size_hint = "5KB", read_only)]
pub async fn get_session_summary(args: GetSessionSummaryArgs) -> ToolResult<SessionSummary> {
    Ok(SessionSummary { session_id: args.session_id })
}

fn main() {}
