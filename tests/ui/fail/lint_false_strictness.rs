// A harmless extra key from a model would fail the whole call.
use mcp_tool::prelude::*;

#[tool_args]
#[serde(deny_unknown_fields)]
pub struct GetSessionSummaryArgs {
    /// Session id or a unique prefix of one.
    pub session_id: String,
}

fn main() {}
