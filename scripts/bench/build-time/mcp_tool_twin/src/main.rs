//! An issue tracker: list with paging and a status filter, get one, create with validation.

use mcp_tool::prelude::*;
use mcp_tool::ToolServer;
use std::sync::Mutex;

/// Where an issue stands.
#[tool_args]
#[tool_output]
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum IssueStatus {
    /// Not yet worked on.
    Open,
    /// Done with.
    Closed,
}

/// One issue.
#[tool_output]
#[derive(Clone)]
pub struct Issue {
    /// Stable id, used by `get_issue`.
    pub issue_id: u32,
    /// One-line summary.
    pub title: String,
    /// Where it stands.
    pub status: IssueStatus,
}

/// The issues, in memory.
#[derive(Default)]
pub struct Tracker(Mutex<Vec<Issue>>);

#[tool_args]
pub struct ListIssuesArgs {
    /// Only issues in this status; omit for all.
    pub status: Option<IssueStatus>,
    /// Issues per page.
    #[arg(default = 20, min = 1, max = 100)]
    pub limit: u32,
    /// `next_cursor` from the previous page; omit for the first page.
    pub cursor: Option<Cursor>,
}

/// List issues, oldest first. Use `get_issue` for one issue.
#[mcp_tool(family = "tracker", size_hint = "4KB", read_only)]
pub async fn list_issues(tracker: &Tracker, args: ListIssuesArgs) -> ToolResult<Page<Issue>> {
    let offset = match &args.cursor {
        Some(c) => c.position()?,
        None => 0,
    };
    let issues: Vec<Issue> = tracker
        .0
        .lock()
        .expect("never poisoned")
        .iter()
        .filter(|i| args.status.is_none_or(|s| i.status == s))
        .cloned()
        .collect();
    Ok(Page::from_offset(issues, offset, args.limit as usize))
}

#[tool_args]
pub struct GetIssueArgs {
    /// The issue's id, from `list_issues`.
    pub issue_id: u32,
}

/// Get one issue by id.
#[mcp_tool(family = "tracker", size_hint = "1KB", read_only)]
pub async fn get_issue(tracker: &Tracker, args: GetIssueArgs) -> ToolResult<Issue> {
    let issues = tracker.0.lock().expect("never poisoned");
    issues
        .iter()
        .find(|i| i.issue_id == args.issue_id)
        .cloned()
        .ok_or_else(|| {
            ToolError::new("issue_not_found", format!("No issue {}.", args.issue_id))
                .with_detail("issue_id", args.issue_id)
        })
}

#[tool_args]
pub struct CreateIssueArgs {
    /// One-line summary, 3 to 120 characters.
    pub title: String,
}

/// Create an open issue and return it.
#[mcp_tool(family = "tracker", size_hint = "1KB")]
pub async fn create_issue(tracker: &Tracker, args: CreateIssueArgs) -> ToolResult<Issue> {
    let title = args.title.trim();
    if !(3..=120).contains(&title.chars().count()) {
        return Err(ToolError::invalid_parameter(
            "title",
            "`title` must be 3 to 120 characters.",
        ));
    }
    let mut issues = tracker.0.lock().expect("never poisoned");
    let issue = Issue {
        issue_id: issues.len() as u32 + 1,
        title: title.to_owned(),
        status: IssueStatus::Open,
    };
    issues.push(issue.clone());
    Ok(issue)
}

#[tokio::main]
async fn main() {
    let server = ToolServer::builder()
        .name("tracker")
        .version("0.0.0")
        .state(Tracker::default())
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    if let Err(e) = server.serve_stdio().await {
        eprintln!("tracker: {e}");
    }
}
