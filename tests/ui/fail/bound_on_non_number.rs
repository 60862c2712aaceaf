// `min`/`max` become `minimum`/`maximum` in the schema, which only numbers have.
use mcp_tool::prelude::*;

#[tool_args]
pub struct SearchArgs {
    /// Text to look for.
    #[arg(min = 1, max = 200)]
    pub query: String,
    /// Only events of sessions since this time (RFC 3339).
    #[arg(max = 10)]
    pub since: Option<String>,
}

fn main() {}
