//! `list_file_history`: the sessions and turns whose tool calls touched a path, from the index.

use mcp_tool::prelude::*;

use crate::index::touches::{Action, FileHistoryCursor, FileHistoryQuery, FileTouch, PathQuery};
use crate::model::Provider;
use crate::store::TraceStore;
use crate::tools::support::{Excerpt, blocking, fit_items, page_budget, parse_time, timestamp};

const PROMPT_CHARS: usize = 160;
const MAX_EVENTS: usize = 10;
const HINT: &str = "`get_turn_steps` with `session_id` and `turn_index` shows what the turn did; `get_event_details` with an `event_index` shows one call whole.";
const NOTHING: &str = "No tool call in the index touched this path. Paths match by whole components (`src/lib` finds `src/lib/a.rs`, not `src/lib.rs`): use a glob such as `src/lib*` for part of a name, or `**/lib.rs` for any directory.";

/// The arguments of [`list_file_history()`].
#[tool_args]
// Rust docs only: the tool's own description already says what it takes.
#[schemars(description = "")]
pub struct ListFileHistoryArgs {
    /// A file, a directory, or a glob (`src/**/*.rs`), relative to the project root or absolute.
    pub path: String,
    /// Only sessions of this project: root path or 64-hex hash.
    pub project: Option<String>,
    /// Only sessions active at or after this RFC 3339 time.
    pub since: Option<String>,
    /// Most rows per page.
    #[arg(default = 20, min = 1, max = 50)]
    pub limit: u32,
    /// `next_cursor` of the previous page.
    pub cursor: Option<Cursor>,
}

/// One turn of one session that touched a path.
#[tool_output]
#[derive(Debug, Clone)]
pub struct FileTouchRow {
    /// The provider's full session id.
    pub session_id: String,
    /// The agent that wrote the session.
    pub provider: Provider,
    /// Session start (RFC 3339).
    pub session_start: Option<String>,
    /// The turn; `get_turn_steps` takes it.
    pub turn_index: u32,
    /// The turn's prompt, shortened to one line: why the file was touched.
    pub prompt: Option<Excerpt>,
    /// The path touched: absolute when the session's project root is known, else as the log wrote it.
    pub path: String,
    /// What the turn's tool calls did to it.
    pub actions: Vec<Action>,
    /// The tools that did it.
    pub tools: Vec<String>,
    /// Event indexes of the first (at most 10) of those calls; `get_event_details` takes them.
    pub event_indexes: Vec<u32>,
    /// Number of those calls.
    pub calls: usize,
    /// Time of the first of those calls (RFC 3339).
    pub time: Option<String>,
}

impl From<&FileTouch> for FileTouchRow {
    fn from(t: &FileTouch) -> Self {
        FileTouchRow {
            session_id: t.session_id.clone(),
            provider: t.provider,
            session_start: timestamp(t.session_start),
            turn_index: t.turn,
            prompt: t.prompt.as_deref().map(|p| Excerpt::line(p, PROMPT_CHARS)),
            path: t.path.clone(),
            actions: t.actions.clone(),
            tools: t.tools.clone(),
            event_indexes: t.events.iter().take(MAX_EVENTS).copied().collect(),
            calls: t.events.len(),
            time: timestamp(t.first_time),
        }
    }
}

/// Which sessions touched a file, and why: turns whose tool calls read, edited, wrote, ran or
/// searched it, newest first, with the turn's prompt.
#[mcp_tool(family = "trace", size_hint = "10KB", read_only)]
pub async fn list_file_history(
    store: &TraceStore,
    ctx: &ToolContext,
    args: ListFileHistoryArgs,
) -> ToolResult<Page<FileTouchRow>> {
    let size_hint = ctx.size_hint();
    let path = PathQuery::parse(&args.path).map_err(|e| {
        ToolError::invalid_parameter("path", e.0).with_detail("value", args.path.clone())
    })?;
    let query = FileHistoryQuery {
        path,
        project: args.project.filter(|p| !p.trim().is_empty()),
        provider: None,
        since: parse_time("since", args.since.as_deref())?,
        until: None,
        after: args
            .cursor
            .as_ref()
            .map(Cursor::position::<FileHistoryCursor>)
            .transpose()?,
        limit: args.limit,
    };
    blocking(store, ctx, move |store| {
        let page = store.file_history(&query)?;
        let mut rows: Vec<FileTouchRow> = page.touches.iter().map(FileTouchRow::from).collect();
        let fit = fit_items(&rows, page_budget(size_hint, HINT));
        // Cut short by size: the next page starts after the last row kept.
        let next = if fit < rows.len() {
            page.touches.get(fit - 1).map(|t| t.position.clone())
        } else {
            page.next
        };
        rows.truncate(fit);
        let hint = if rows.is_empty() && query.after.is_none() {
            NOTHING
        } else {
            HINT
        };
        let out = Page::new(rows).with_hint(hint);
        Ok(match next {
            Some(n) => out.with_next(n),
            None => out,
        })
    })
    .await
}
