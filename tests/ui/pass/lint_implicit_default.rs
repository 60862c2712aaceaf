// Declared defaults are in the schema; prose that names no default value raises nothing.
use mcp_tool::prelude::*;

#[tool_args]
pub struct ListSessionsArgs {
    /// Results per page.
    #[arg(default = 20, max = 100)]
    pub limit: u32,
    /// Newest first, or oldest first when false.
    #[arg(default = true)]
    pub newest_first: bool,
    /// Settings profile to read; omit to use the default profile.
    pub profile: Option<String>,
    /// Also list archived sessions, which are hidden by default.
    pub include_archived: Option<bool>,
}

fn main() {}
