// A `#[tool_args]` enum is a closed set of names; data belongs in a struct or another tool.
use mcp_tool::prelude::*;

/// How much of the session to return.
#[tool_args]
pub enum Detail {
    /// Ids, times and model.
    Summary,
    /// One entry per turn.
    Turns { include_reasoning: bool },
    /// One turn's steps.
    Steps(u32),
}

fn main() {}
