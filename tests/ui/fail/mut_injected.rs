// Many calls run at once, so server state is shared, never borrowed mutably.
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

/// The server state.
pub struct Store;

/// Ids, times and model of one session.
#[mcp_tool(name = "get_summary", family = "trace", size_hint = "5KB", read_only)]
pub async fn get_summary(store: &mut Store, args: GetSummaryArgs) -> ToolResult<Summary> {
    let _ = store;
    Ok(Summary { session_id: args.session_id })
}

fn main() {}
