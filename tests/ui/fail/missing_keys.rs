// `family` and `size_hint` are required, and all missing ones are reported together (`name`
// defaults to the fn's name).
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
#[mcp_tool(read_only)]
pub async fn get_summary(args: GetSummaryArgs) -> ToolResult<Summary> {
    Ok(Summary { session_id: args.session_id })
}

fn main() {}
