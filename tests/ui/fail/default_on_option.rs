// A field with a default always has a value: `Option` would tell the model it may be absent.
use mcp_tool::prelude::*;

#[tool_args]
pub struct ListSessionsArgs {
    /// Results per page.
    #[arg(default = 20, max = 100)]
    pub limit: Option<u32>,
}

fn main() {}
