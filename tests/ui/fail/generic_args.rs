// A tool's schema is fixed when it is registered, so its arguments are not generic: one error
// at the parameters, and no impls that would add "missing generics for struct".
use mcp_tool::prelude::*;

#[tool_args]
pub struct ListNotesArgs<T> {
    /// Notes per page.
    #[arg(default = 10, min = 1, max = 50)]
    pub limit: u32,
    /// Text the notes must contain; omit for every note.
    pub text: Option<T>,
}

fn main() {}
