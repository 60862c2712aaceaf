//! `list_sessions`: sessions newest first, with filters, in pages cut by size.

use mcp_tool::prelude::*;

use crate::index::{SessionCursor, SessionFilter, SessionSummary};
use crate::store::TraceStore;
use crate::model::Provider;
use crate::tools::support::{Excerpt, blocking, fit_items, page_budget, parse_time, timestamp};

const PROMPT_CHARS: usize = 160;
const HINT: &str = "Pass a `session_id` to `get_session_summary` for one session, or to `get_session_turns` for its turns.";

/// The arguments of [`list_sessions()`].
#[tool_args]
// Rust docs only: the tool's own description already says what it takes.
#[schemars(description = "")]
pub struct ListSessionsArgs {
    /// Only sessions of this agent.
    pub provider: Option<Provider>,
    /// Only sessions of this project: root path or 64-hex hash.
    pub project: Option<String>,
    /// Only sessions active at or after this RFC 3339 time.
    pub since: Option<String>,
    /// Only sessions started at or before this RFC 3339 time.
    pub until: Option<String>,
    /// Also list sub-agent sessions, not only their parents.
    #[arg(default = false)]
    pub include_subagents: bool,
    /// Most sessions per page.
    #[arg(default = 20, min = 1, max = 50)]
    pub limit: u32,
    /// `next_cursor` of the previous page.
    pub cursor: Option<Cursor>,
}

/// One session in the list.
#[tool_output]
#[derive(Debug, Clone)]
pub struct SessionRow {
    /// The provider's session id; the other tools take it whole or as a unique prefix of 8+ characters.
    pub session_id: String,
    /// The agent that wrote the session.
    pub provider: Provider,
    /// Root path of the project the session ran in, when known (Gemini logs keep only the hash).
    pub project_root: Option<String>,
    /// sha256 of the project root, the project's id across providers.
    pub project_hash: Option<String>,
    /// The session that spawned this one (a sub-agent), or whose history this one copied and
    /// went on from (a fork, `is_subagent` false: Codex `forked_from_id`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_session_id: Option<String>,
    /// Whether a session spawned this one to do part of its work.
    pub is_subagent: bool,
    /// First event time (RFC 3339).
    pub start: Option<String>,
    /// Last event time (RFC 3339).
    pub end: Option<String>,
    /// Main model used.
    pub model: Option<String>,
    /// Number of turns (a person's prompt and all that follows it).
    pub turns: u32,
    /// Number of tool calls.
    pub tool_calls: u32,
    /// Number of tool calls that failed.
    pub failed_tool_calls: u32,
    /// All tokens used (input, cached input included, plus output).
    pub total_tokens: u64,
    /// The first prompt, shortened to one line.
    pub first_prompt: Option<Excerpt>,
    /// Present and true when the agent deleted the log and agtrace answers from its archived
    /// copy (`--archive`); absent otherwise.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub archived: bool,
}

impl From<&SessionSummary> for SessionRow {
    fn from(s: &SessionSummary) -> Self {
        SessionRow {
            session_id: s.id.clone(),
            provider: s.provider,
            project_root: s.project.root.clone(),
            project_hash: s.project.hash.clone(),
            parent_session_id: s.parent_id.clone(),
            is_subagent: s.is_subagent,
            start: timestamp(s.start),
            end: timestamp(s.end),
            model: s.model.clone(),
            turns: s.turn_count,
            tool_calls: s.tool_calls,
            failed_tool_calls: s.tool_errors,
            total_tokens: s.tokens.total,
            first_prompt: s.first_prompt.as_deref().map(|p| Excerpt::line(p, PROMPT_CHARS)),
            archived: s.archived,
        }
    }
}

/// List sessions newest first, by provider, project or time. Start here for a session id;
/// `search_event_previews` finds one by content.
#[mcp_tool(family = "trace", size_hint = "10KB", read_only)]
pub async fn list_sessions(store: &TraceStore, ctx: &ToolContext, args: ListSessionsArgs) -> ToolResult<Page<SessionRow>> {
    let size_hint = ctx.size_hint();
    let filter = SessionFilter {
        provider: args.provider,
        project: args.project.filter(|p| !p.trim().is_empty()),
        since: parse_time("since", args.since.as_deref())?,
        until: parse_time("until", args.until.as_deref())?,
        include_subagents: args.include_subagents,
    };
    let after: Option<SessionCursor> = args.cursor.as_ref().map(Cursor::position).transpose()?;
    let limit = args.limit;
    blocking(store, ctx, move |store| {
        let page = store.list_sessions(&filter, after.as_ref(), limit)?;
        let rows: Vec<SessionRow> = page.sessions.iter().map(SessionRow::from).collect();
        let fit = fit_items(&rows, page_budget(size_hint, HINT));
        // Cut short by size: ask the index for the position after the last row that fits.
        let next = if fit < rows.len() {
            store.list_sessions(&filter, after.as_ref(), fit as u32)?.next
        } else {
            page.next
        };
        let mut rows = rows;
        rows.truncate(fit);
        let hint = if rows.is_empty() {
            "No session matches these filters. `get_project_info` lists the projects and their session counts.".to_owned()
        } else {
            HINT.to_owned()
        };
        let out = Page::new(rows).with_hint(hint);
        Ok(match next {
            Some(n) => out.with_next(n),
            None => out,
        })
    })
    .await
}
