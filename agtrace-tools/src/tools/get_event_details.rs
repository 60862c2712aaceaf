//! `get_event_details`: one event, untruncated; a text over 32KB continues by cursor.

use mcp_tool::prelude::*;

use crate::store::{EventDetail, TraceStore};
use crate::tools::support::text::{char_offset, piece_end};
use crate::model::Provider;
use crate::tools::support::{EventType, TokenTotals, blocking_on_session, json_len, page_budget, timestamp};

const HINT: &str = "This is the whole text unless `continues` is true: then pass `next_cursor` for the part that follows.";

/// The arguments of [`get_event_details()`].
#[tool_args]
// Rust docs only: the tool's own description already says what it takes.
#[schemars(description = "")]
pub struct GetEventDetailsArgs {
    /// Session id or its unique 8+ character prefix.
    pub session_id: String,
    /// Event index from `search_event_previews` or `get_turn_steps`.
    pub event_index: u32,
    /// `next_cursor` of the previous page.
    pub cursor: Option<Cursor>,
}

/// One event, or the part of its text that fits this page.
#[tool_output]
#[derive(Debug, Clone)]
pub struct EventPart {
    /// The provider's full session id.
    pub session_id: String,
    /// The agent that wrote the session.
    pub provider: Provider,
    /// Index of the event in the session.
    pub event_index: u32,
    /// Turn the event belongs to.
    pub turn_index: u32,
    /// Step within the turn, for events of a model generation.
    pub step_index: Option<u32>,
    /// What the event is.
    pub kind: EventType,
    /// When it happened (RFC 3339).
    pub timestamp: Option<String>,
    /// Tool name, for tool calls and results.
    pub tool_name: Option<String>,
    /// Id pairing a tool call with its result.
    pub call_id: Option<String>,
    /// True for a tool result that reports a failure.
    pub is_error: bool,
    /// Model that produced the event, when recorded.
    pub model: Option<String>,
    /// Token usage, for `token_usage` events.
    pub tokens: Option<TokenTotals>,
    /// The event's text from `text_offset` on: all of it unless `continues`.
    pub text: String,
    /// Character offset of `text` in the whole text.
    pub text_offset: usize,
    /// Length of the whole text, in characters.
    pub text_chars: usize,
    /// True when the text goes on: call again with `next_cursor`.
    pub continues: bool,
}

fn part(d: &EventDetail, from: usize, to: usize) -> EventPart {
    let e = &d.event;
    EventPart {
        session_id: d.session_id.clone(),
        provider: d.provider,
        event_index: e.index,
        turn_index: e.turn,
        step_index: e.step,
        kind: e.kind.into(),
        timestamp: timestamp(e.timestamp),
        tool_name: e.tool_name.clone(),
        call_id: e.call_id.clone(),
        is_error: e.is_error,
        model: e.model.clone(),
        tokens: e.tokens.map(Into::into),
        text: e.text[from..to].to_owned(),
        text_offset: char_offset(&e.text, from),
        text_chars: e.text.chars().count(),
        continues: to < e.text.len(),
    }
}

/// Get one event whole (tool call arguments, tool output, message) with metadata: a
/// `search_event_previews` hit or a text `get_turn_steps` shortened.
#[mcp_tool(family = "trace", size_hint = "32KB", read_only)]
pub async fn get_event_details(store: &TraceStore, ctx: &ToolContext, args: GetEventDetailsArgs) -> ToolResult<Page<EventPart>> {
    let from: usize = args.cursor.as_ref().map(Cursor::position).transpose()?.unwrap_or(0);
    let (session, index) = (args.session_id, args.event_index);
    let detail = blocking_on_session(store, ctx, session.clone(), move |store| Ok(store.get_event_without_raw(&session, index)?)).await?;
    let text = &detail.event.text;
    if from > text.len() || !text.is_char_boundary(from) {
        return Err(ToolError::invalid_cursor("The cursor points outside this event's text (did the log change?)."));
    }
    let header = json_len(&part(&detail, from, from));
    let room = page_budget(ctx.size_hint(), HINT).saturating_sub(header + 2);
    let to = piece_end(text, from, room).unwrap_or(text.len());
    let out = Page::new(vec![part(&detail, from, to)]).with_hint(HINT);
    Ok(if to < text.len() { out.with_next(to) } else { out })
}
