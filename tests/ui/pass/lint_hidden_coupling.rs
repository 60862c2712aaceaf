// The coupled parameter lives in the tool it applies to, and plain "when"/"requires" prose that
// names no other parameter is fine.
use mcp_tool::prelude::*;

#[tool_args]
pub struct GetNodeArgs {
    /// Path of the node. When omitted, the root is returned.
    pub path: Option<String>,
}

#[tool_args]
pub struct GetSubtreeArgs {
    /// Path of the subtree's root. Requires no authentication.
    pub path: String,
    /// How many levels to descend.
    #[arg(default = 2, min = 1, max = 8)]
    pub max_depth: u32,
}

fn main() {}
