// Within one variant, a field that means something only for a value of another is still
// hidden coupling.
use mcp_tool::prelude::*;

/// What to order the turns by.
#[tool_args]
pub enum Order {
    /// Oldest first.
    Time,
    /// Most tokens first.
    Size,
}

/// How much of the session to return.
#[tool_args(tag = "detail_level")]
pub enum Detail {
    /// Ids, times and model only.
    Summary,
    /// One entry per turn.
    Turns {
        /// How to order the turns.
        order: Order,
        /// Smallest turn to list, in tokens. Ignored unless order is size.
        min_tokens: Option<u32>,
    },
}

fn main() {}
