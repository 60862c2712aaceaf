// In a tagged enum each field is a parameter, and a parameter needs a name.
use mcp_tool::prelude::*;

/// How much of the session to return.
#[tool_args(tag = "detail_level")]
pub enum Detail {
    /// Ids, times and model only.
    Summary,
    /// The steps of one turn.
    Steps(u32),
}

fn main() {}
