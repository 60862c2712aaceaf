// The arguments are one struct, so that their schema is one object.
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
pub async fn get_summary(args: GetSummaryArgs, verbose: bool) -> ToolResult<Summary> {
    let _ = verbose;
    Ok(Summary { session_id: args.session_id })
}

fn main() {}
