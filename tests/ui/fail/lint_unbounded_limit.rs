// A page size with no maximum: sooner or later a model asks for 10000.
use mcp_tool::prelude::*;

#[tool_args]
pub struct ListSessionsArgs {
    /// Results per page.
    #[arg(default = 20)]
    pub limit: u32,
    /// Sessions returned per project.
    #[arg(min = 1)]
    pub per_project_limit: Option<u32>,
}

fn main() {}
