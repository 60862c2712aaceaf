// A JSON document typed as a string: the model escapes it by hand, and the schema shows no key.
use mcp_tool::prelude::*;

#[tool_args]
pub struct CreateIssueArgs {
    /// Title of the issue.
    pub title: String,
    /// Labels and assignees, as a JSON string.
    pub metadata: String,
    /// Which fields to copy from the template.
    pub fields_json: Option<String>,
}

fn main() {}
