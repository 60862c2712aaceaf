// What applies to one choice lives in that choice's variant: the framework's answer to
// `hidden_coupling`. Variant fields take docs, defaults and bounds like struct fields.
use mcp_tool::prelude::*;

/// How much of the session to return.
#[tool_args(tag = "detail_level")]
#[derive(Debug, Clone, PartialEq)]
pub enum Detail {
    /// Ids, times and model only.
    Summary,
    /// One entry per turn.
    Turns {
        /// Most turns to return.
        #[arg(default = 20, min = 1, max = 50)]
        max_turns: u32,
        /// Include the model's reasoning in each turn.
        with_reasoning: Option<bool>,
        /// Only turns whose prompt contains this text; omit for every turn.
        #[arg(allow(vague_name = "the word users of the log viewer know"))]
        pattern: Option<String>,
    },
    /// The steps of one turn.
    Steps {
        /// Index of the turn, from 0.
        #[arg(min = 0)]
        turn_index: u32,
    },
}

#[tool_args]
pub struct GetSessionArgs {
    /// Id of the session.
    pub session_id: String,
    /// How much of the session to return, and the options of that level.
    pub detail: Detail,
}

/// Return one session at the chosen level of detail.
#[mcp_tool(name = "get_session", family = "trace", size_hint = "8KB", read_only)]
pub async fn get_session(args: GetSessionArgs) -> ToolResult<String> {
    Ok(match args.detail {
        Detail::Summary => args.session_id,
        Detail::Turns { max_turns, .. } => format!("{} turns", max_turns),
        Detail::Steps { turn_index } => format!("turn {turn_index}"),
    })
}

fn main() {}
