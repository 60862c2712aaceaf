//! `get_project_info`: the projects the logs cover, with session counts per provider.

use mcp_tool::prelude::*;

use crate::index::{ProjectInfo, SkipSummary};
use crate::model::Provider;
use crate::store::TraceStore;
use crate::tools::support::text::byte_at_char;
use crate::tools::support::{blocking, fit_items, json_len, page_budget, timestamp};

const HINT: &str = "Pass a project's `root` or `hash` as `project` to `list_sessions` for its sessions.";

/// Skipped files the answer names; the rest are counted.
const SKIP_EXAMPLES: usize = 3;
/// Characters of an example's path kept.
const EXAMPLE_CHARS: usize = 120;

/// The arguments of [`get_project_info()`].
#[tool_args]
// Rust docs only: the tool's own description already says what it takes.
#[schemars(description = "")]
pub struct GetProjectInfoArgs {
    /// Most projects per page.
    #[arg(default = 30, min = 1, max = 100)]
    pub limit: u32,
    /// `next_cursor` of the previous page.
    pub cursor: Option<Cursor>,
}

// One field per provider, from the provider table.
macro_rules! session_counts {
    ($( $(#[doc = $doc:tt])* $variant:ident = $module:ident, $counts:tt; )*) => {
        /// Session counts of one project, per provider.
        #[tool_output]
        #[derive(Debug, Clone, Copy)]
        pub struct SessionCounts {
            $( #[doc = $counts] pub $module: u64, )*
            /// All sessions, sub-agent sessions included.
            pub total: u64,
        }

        impl SessionCounts {
            fn of(p: &ProjectInfo) -> Self {
                SessionCounts {
                    $( $module: p.sessions.get(Provider::$variant), )*
                    total: p.total_sessions,
                }
            }
        }
    };
}
crate::providers::provider_table!(session_counts);

/// One project.
#[tool_output]
#[derive(Debug, Clone)]
pub struct ProjectRow {
    /// Root path of the project, when known (a project only Gemini has seen has just its hash).
    pub root: Option<String>,
    /// sha256 of the root path: the project's id across providers.
    pub hash: String,
    /// Sessions of the project, per provider.
    pub sessions: SessionCounts,
    /// Time of the latest session activity (RFC 3339).
    pub last_activity: Option<String>,
}

impl From<&ProjectInfo> for ProjectRow {
    fn from(p: &ProjectInfo) -> Self {
        ProjectRow {
            root: p.root.clone(),
            hash: p.hash.clone(),
            sessions: SessionCounts::of(p),
            last_activity: timestamp(p.last_activity),
        }
    }
}

/// The warning telling how many log files the index leaves out, per reason, with examples.
fn skip_warning(s: &SkipSummary) -> Option<String> {
    if s.total() == 0 {
        return None;
    }
    let examples: Vec<String> = s
        .examples
        .iter()
        .map(|e| {
            let cut = byte_at_char(&e.path, EXAMPLE_CHARS);
            let more = if cut < e.path.len() { "…" } else { "" };
            format!("{}{more} ({})", &e.path[..cut], e.reason)
        })
        .collect();
    Some(format!(
        "{} log files or folders are not indexed: {}. E.g. {}. `agtrace index` lists them all.",
        s.total(),
        s.counts_text(),
        examples.join("; ")
    ))
}

/// List projects by last activity: root path, hash, sessions per provider. Gives the `project`
/// filter of `list_sessions`.
// Log files the index skipped come as a warning (counts per reason, a few examples): the
// warning speaks for itself, so the description, sent in every catalog, does not announce it.
#[mcp_tool(family = "trace", size_hint = "10KB", read_only)]
pub async fn get_project_info(store: &TraceStore, ctx: &ToolContext, args: GetProjectInfoArgs) -> ToolResult<Page<ProjectRow>> {
    let offset: usize = args.cursor.as_ref().map(Cursor::position).transpose()?.unwrap_or(0);
    let projects = blocking(store, ctx, |store| Ok(store.projects()?)).await?;
    // What was skipped is a side note: failing to read it does not fail the answer.
    let skips = blocking(store, ctx, |store| Ok(crate::index::ingest::last_skips(store.config(), SKIP_EXAMPLES).ok())).await?;
    let warning = skips.as_ref().and_then(skip_warning);
    let total = projects.len();
    let end = offset.saturating_add(args.limit as usize).min(total);
    let mut rows: Vec<ProjectRow> = projects.get(offset..end).unwrap_or_default().iter().map(ProjectRow::from).collect();
    let reserve = warning.as_ref().map_or(0, |w| json_len(w) + 16);
    rows.truncate(fit_items(&rows, page_budget(ctx.size_hint(), HINT).saturating_sub(reserve)));
    if let Some(w) = warning {
        ctx.add_warning(w);
    }
    let next = offset + rows.len();
    let page = Page::new(rows).with_total(total as u64).with_hint(HINT);
    Ok(if next < total { page.with_next(next) } else { page })
}
