// The tag and a variant field would share one key of the JSON object.
use mcp_tool::prelude::*;

/// How much of the session to return.
#[tool_args(tag = "detail_level")]
pub enum Detail {
    /// Ids, times and model only.
    Summary,
    /// One entry per turn.
    Turns {
        /// How much of each turn to show.
        detail_level: u32,
    },
}

fn main() {}
