//! The issue tracker of `mcp_tool_twin` on plain rmcp: list with paging and a status filter,
//! get one, create with validation. Same tools, same answers, written the way rmcp's own
//! examples write them.

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{ErrorData, ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, ServiceExt, schemars, tool, tool_handler, tool_router};
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Mutex};

/// Where an issue stands.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum IssueStatus {
    /// Not yet worked on.
    Open,
    /// Done with.
    Closed,
}

/// One issue.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Issue {
    /// Stable id, used by `get_issue`.
    pub issue_id: u32,
    /// One-line summary.
    pub title: String,
    /// Where it stands.
    pub status: IssueStatus,
}

/// A page of issues.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct IssuePage {
    /// The issues on this page.
    pub items: Vec<Issue>,
    /// Pass as `cursor` for the next page; absent on the last one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ListIssuesArgs {
    /// Only issues in this status; omit for all.
    pub status: Option<IssueStatus>,
    /// Issues per page, 1 to 100 (default 20).
    #[schemars(range(min = 1, max = 100))]
    pub limit: Option<u32>,
    /// `next_cursor` from the previous page; omit for the first page.
    pub cursor: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct GetIssueArgs {
    /// The issue's id, from `list_issues`.
    pub issue_id: u32,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct CreateIssueArgs {
    /// One-line summary, 3 to 120 characters.
    pub title: String,
}

#[derive(Clone)]
pub struct Tracker {
    issues: Arc<Mutex<Vec<Issue>>>,
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Tracker {
    fn new() -> Self {
        Self {
            issues: Arc::default(),
            tool_router: Self::tool_router(),
        }
    }

    /// List issues, oldest first. Use `get_issue` for one issue.
    #[tool(annotations(read_only_hint = true))]
    fn list_issues(
        &self,
        Parameters(args): Parameters<ListIssuesArgs>,
    ) -> Result<Json<IssuePage>, ErrorData> {
        let limit = args.limit.unwrap_or(20);
        if !(1..=100).contains(&limit) {
            return Err(ErrorData::invalid_params("`limit` must be 1 to 100", None));
        }
        let offset = match args.cursor.as_deref().filter(|c| !c.is_empty()) {
            Some(cursor) => cursor
                .parse::<usize>()
                .map_err(|_| ErrorData::invalid_params("`cursor` is not one of ours", None))?,
            None => 0,
        };
        let issues = self.issues.lock().expect("never poisoned");
        let matching: Vec<Issue> = issues
            .iter()
            .filter(|i| args.status.is_none_or(|s| i.status == s))
            .cloned()
            .collect();
        let end = (offset + limit as usize).min(matching.len());
        let items = matching.get(offset..end).unwrap_or_default().to_vec();
        let next_cursor = (end < matching.len()).then(|| end.to_string());
        Ok(Json(IssuePage { items, next_cursor }))
    }

    /// Get one issue by id.
    #[tool(annotations(read_only_hint = true))]
    fn get_issue(&self, Parameters(args): Parameters<GetIssueArgs>) -> Result<Json<Issue>, ErrorData> {
        let issues = self.issues.lock().expect("never poisoned");
        issues
            .iter()
            .find(|i| i.issue_id == args.issue_id)
            .cloned()
            .map(Json)
            .ok_or_else(|| {
                ErrorData::invalid_params(
                    format!("No issue {}.", args.issue_id),
                    Some(serde_json::json!({"code": "issue_not_found", "issue_id": args.issue_id})),
                )
            })
    }

    /// Create an open issue and return it.
    #[tool]
    fn create_issue(
        &self,
        Parameters(args): Parameters<CreateIssueArgs>,
    ) -> Result<Json<Issue>, ErrorData> {
        let title = args.title.trim();
        if !(3..=120).contains(&title.chars().count()) {
            return Err(ErrorData::invalid_params("`title` must be 3 to 120 characters.", None));
        }
        let mut issues = self.issues.lock().expect("never poisoned");
        let issue = Issue {
            issue_id: issues.len() as u32 + 1,
            title: title.to_owned(),
            status: IssueStatus::Open,
        };
        issues.push(issue.clone());
        Ok(Json(issue))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Tracker {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

#[tokio::main]
async fn main() {
    let service = match Tracker::new().serve(rmcp::transport::stdio()).await {
        Ok(service) => service,
        Err(e) => {
            eprintln!("tracker: {e}");
            return;
        }
    };
    if let Err(e) = service.waiting().await {
        eprintln!("tracker: {e}");
    }
}
