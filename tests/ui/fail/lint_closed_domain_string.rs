// A `String` where the model must guess a spelling: once by the name, once by the doc.
use mcp_tool::prelude::*;

#[tool_args]
pub struct ListSessionsArgs {
    /// Only sessions of this provider.
    pub provider: Option<String>,
    /// Order of the results: one of 'newest', 'oldest'.
    pub ordering: Option<String>,
    /// Only sessions whose project path starts with this, e.g. /home/me/src.
    pub project: Option<String>,
}

fn main() {}
