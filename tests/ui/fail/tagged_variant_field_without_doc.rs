// Variant fields are parameters and variants are the values of the tag: the design lints run
// on them as on struct fields and enum values.
use mcp_tool::prelude::*;

/// How much of the session to return.
#[tool_args(tag = "detail_level")]
pub enum Detail {
    /// Ids, times and model only.
    Summary,
    /// One entry per turn.
    Turns {
        /// Most turns to return.
        #[arg(default = 20, min = 1, max = 50)]
        max_turns: u32,
        until: Option<String>,
    },
    Steps {
        /// Index of the turn, from 0.
        turn_index: u32,
    },
}

fn main() {}
