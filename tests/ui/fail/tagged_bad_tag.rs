// `tag` names the field that says which variant is sent: only enums have one, and it needs a name.
use mcp_tool::prelude::*;

#[tool_args(tag = "detail_level")]
pub struct GetSessionArgs {
    /// Id of the session.
    pub session_id: String,
}

/// How much of the session to return.
#[tool_args(tag = "")]
pub enum Detail {
    /// Ids, times and model only.
    Summary,
    /// The steps of one turn.
    Steps {
        /// Index of the turn, from 0.
        turn_index: u32,
    },
}

fn main() {}
