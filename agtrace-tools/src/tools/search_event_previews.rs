//! `search_event_previews`: full-text hits with short previews and event coordinates.

use mcp_tool::prelude::*;

use crate::index::search_syntax;
use crate::index::{SearchCursor, SearchHit, SearchQuery};
use crate::store::TraceStore;
use crate::tools::support::text::fold_whitespace;
use crate::model::Provider;
use crate::tools::support::{EventType, blocking, fit_items, page_budget, timestamp};

const HINT: &str = "Previews are ~300 characters of the event text: `get_event_details` with `session_id` and `event_index` returns it whole.";

/// The arguments of [`search_event_previews()`].
#[tool_args]
// Rust docs only: the tool's own description already says what it takes.
#[schemars(description = "")]
pub struct SearchEventPreviewsArgs {
    /// Words that must all occur (case-insensitive); also `a OR b`, `-word`, `pre*`, `"exact phrase"`.
    pub query: String,
    /// Only events of this agent.
    pub provider: Option<Provider>,
    /// Only events of this type.
    pub event_type: Option<EventType>,
    /// Only events of this session (id or unique 8+ character prefix).
    pub session_id: Option<String>,
    /// Most hits per page.
    #[arg(default = 10, min = 1, max = 50)]
    pub limit: u32,
    /// `next_cursor` of the previous page.
    pub cursor: Option<Cursor>,
}

/// One event whose text matches, with a preview around the match.
#[tool_output]
#[derive(Debug, Clone)]
pub struct EventPreview {
    /// The provider's full session id.
    pub session_id: String,
    /// The agent that wrote the session.
    pub provider: Provider,
    /// Index of the event in the session; `get_event_details` takes it.
    pub event_index: u32,
    /// Turn the event belongs to; `get_turn_steps` takes it.
    pub turn_index: u32,
    /// Step within the turn, for events of a model generation.
    pub step_index: Option<u32>,
    /// What the event is.
    pub kind: EventType,
    /// When it happened (RFC 3339).
    pub timestamp: Option<String>,
    /// Tool name, for tool calls and results.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// True for a tool result that reports a failure.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
    /// About 300 characters of the text around the first match, whitespace folded.
    pub preview: String,
    /// Character offset in the whole text where the preview starts.
    pub preview_offset: usize,
    /// Length of the whole text, in characters.
    pub text_chars: usize,
    /// True when the preview is not the whole text.
    pub truncated: bool,
}

impl From<&SearchHit> for EventPreview {
    fn from(h: &SearchHit) -> Self {
        let window_chars = h.preview.chars().count();
        EventPreview {
            session_id: h.session_id.clone(),
            provider: h.provider,
            event_index: h.event_index,
            turn_index: h.turn_index,
            step_index: h.step_index,
            kind: h.kind.into(),
            timestamp: timestamp(h.timestamp),
            tool_name: h.tool_name.clone(),
            is_error: h.is_error,
            preview: fold_whitespace(&h.preview, usize::MAX),
            preview_offset: h.preview_start,
            text_chars: h.text_chars,
            truncated: h.preview_start > 0 || window_chars < h.text_chars,
        }
    }
}

/// Search event text across sessions: ~300-character previews with session, turn and event
/// index, newest first: the session whose log was written last first, its latest event first.
/// Then `get_event_details` for a hit whole, `get_turn_steps` for context.
#[mcp_tool(family = "trace", size_hint = "10KB", read_only)]
pub async fn search_event_previews(store: &TraceStore, ctx: &ToolContext, args: SearchEventPreviewsArgs) -> ToolResult<Page<EventPreview>> {
    let size_hint = ctx.size_hint();
    if let Err(e) = search_syntax::parse(&args.query) {
        return Err(ToolError::invalid_parameter("query", e.0));
    }
    let after: Option<SearchCursor> = args.cursor.as_ref().map(Cursor::position).transpose()?;
    let mut query = SearchQuery {
        text: args.query,
        provider: args.provider,
        kind: args.event_type.map(Into::into),
        session: args.session_id.filter(|s| !s.is_empty()),
        after,
        limit: args.limit,
    };
    blocking(store, ctx, move |store| {
        let found = store.search(&query)?;
        let mut hits: Vec<EventPreview> = found.hits.iter().map(EventPreview::from).collect();
        let fit = fit_items(&hits, page_budget(size_hint, HINT));
        // Cut short by size: the position after the last hit kept comes from the same query.
        let next = if fit < hits.len() {
            query.limit = fit as u32;
            store.search(&query)?.next
        } else {
            found.next
        };
        hits.truncate(fit);
        let page = Page::new(hits).with_hint(HINT);
        Ok(match next {
            Some(n) => page.with_next(n),
            None => page,
        })
    })
    .await
}
