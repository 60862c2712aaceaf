// A one-syllable abbreviation as a field name.
use mcp_tool::prelude::*;

#[tool_args]
pub struct ListMessagesArgs {
    /// How many messages to return.
    #[arg(default = 10, max = 50)]
    pub cnt: u32,
}

fn main() {}
