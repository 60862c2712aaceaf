// The document typed as the struct it is; strings that only mention JSON are not documents.
use mcp_tool::prelude::*;

#[tool_args]
pub struct IssueMetadata {
    /// Labels to put on the issue.
    pub labels: Vec<String>,
    /// Logins of the people to assign.
    pub assignees: Vec<String>,
}

#[tool_args]
pub struct CreateIssueArgs {
    /// Title of the issue.
    pub title: String,
    /// Labels and assignees.
    pub metadata: Option<IssueMetadata>,
    /// Path to a JSON file with the issue body.
    pub body_path: Option<String>,
    /// A JSONPath expression picking the fields to return, e.g. `$.labels`.
    pub selection: Option<String>,
}

fn main() {}
