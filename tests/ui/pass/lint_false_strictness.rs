// Declared fields are validated; an extra key from a model is ignored, not fatal.
use mcp_tool::prelude::*;

#[tool_args]
pub struct GetSessionSummaryArgs {
    /// Session id or a unique prefix of one.
    pub session_id: String,
}

#[tool_args(allow(false_strictness = "the client is generated from the schema and never adds keys"))]
#[serde(deny_unknown_fields)]
pub struct GetTurnArgs {
    /// Session id or a unique prefix of one.
    pub session_id: String,
    /// Zero-based index of the turn.
    pub turn_index: u32,
}

fn main() {}
