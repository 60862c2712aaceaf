// A tool is registered at link time as a free fn: inside an `impl` block there is no path the
// registration could call, with or without `self`.
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

pub struct Tools;

impl Tools {
    /// Ids, times and model of one session.
    #[mcp_tool(name = "get_summary", family = "trace", size_hint = "5KB", read_only)]
    pub async fn get_summary(args: GetSummaryArgs) -> ToolResult<Summary> {
        Ok(Summary { session_id: args.session_id })
    }
}

fn main() {}
