// The macro reads the fields before the compiler applies `cfg_attr`, so an `#[arg]` inside one
// would never be read: one error that says so, not "cannot find attribute `arg`".
use mcp_tool::prelude::*;

#[tool_args]
pub struct ListNotesArgs {
    /// Notes per page.
    #[cfg_attr(test, arg(default = 5))]
    #[arg(min = 1, max = 50)]
    pub limit: u32,
}

fn main() {}
