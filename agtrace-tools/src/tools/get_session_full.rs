//! `get_session_full`: the whole transcript, nothing shortened, in pages of at most 100KB.
//!
//! A page is a run of events; a text too long for the room left continues on the next page
//! from the exact byte where this one stopped, so concatenating the `text` of an event's parts
//! gives its whole text back.

use mcp_tool_core::prelude::*;
use serde::{Deserialize, Serialize};

use crate::model::Event;
use crate::store::TraceStore;
use crate::tools::support::text::{char_offset, piece_end};
use crate::tools::support::{EventType, TokenTotals, blocking_on_session, json_len, page_budget, timestamp};

/// Below this much room a page ends rather than start another event with a sliver of text.
const MIN_PIECE: usize = 1024;
const HINT: &str = "Texts are complete: an event whose `continues` is true goes on, at `text_offset`, in the first item of the next page.";

/// The arguments of [`get_session_full()`].
#[tool_args]
// Rust docs only: the tool's own description already says what it takes.
#[schemars(description = "")]
pub struct GetSessionFullArgs {
    /// Session id or its unique 8+ character prefix.
    pub session_id: String,
    /// `next_cursor` of the previous page.
    pub cursor: Option<Cursor>,
}

/// One event of the transcript, or the part of its text that fits this page.
#[tool_output]
#[derive(Debug, Clone)]
pub struct TranscriptEvent {
    /// Index of the event in the session.
    pub event_index: u32,
    /// Turn the event belongs to.
    pub turn_index: u32,
    /// Step within the turn, for events of a model generation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step_index: Option<u32>,
    /// What the event is.
    pub kind: EventType,
    /// When it happened (RFC 3339).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
    /// Tool name, for tool calls and results.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// Id pairing a tool call with its result.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    /// True for a tool result that reports a failure.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub is_error: bool,
    /// Token usage, for `token_usage` events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens: Option<TokenTotals>,
    /// The event's text from `text_offset` on: all of it unless `continues`.
    pub text: String,
    /// Character offset of `text` in the event's whole text (non-zero for a continued part).
    pub text_offset: usize,
    /// Length of the event's whole text, in characters.
    pub text_chars: usize,
    /// True when the text goes on in the next page.
    pub continues: bool,
}

/// Where a page starts: an event, and a byte offset in its text.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
struct TranscriptPosition {
    event: usize,
    byte: usize,
}

fn part(e: &Event, text: &str, from: usize, continues: bool) -> TranscriptEvent {
    TranscriptEvent {
        event_index: e.index,
        turn_index: e.turn,
        step_index: e.step,
        kind: e.kind.into(),
        timestamp: timestamp(e.timestamp),
        tool_name: e.tool_name.clone(),
        call_id: e.call_id.clone(),
        is_error: e.is_error,
        tokens: e.tokens.map(Into::into),
        text: text.to_owned(),
        text_offset: char_offset(&e.text, from),
        text_chars: e.text.chars().count(),
        continues,
    }
}

/// Cuts `events` into one page from `pos`: the parts that fit `budget` bytes, and where the
/// next page starts.
fn page(events: &[Event], mut pos: TranscriptPosition, budget: usize) -> (Vec<TranscriptEvent>, Option<TranscriptPosition>) {
    let mut items = Vec::new();
    let mut used = 2;
    while let Some(e) = events.get(pos.event) {
        let header = json_len(&part(e, "", pos.byte, false)) + usize::from(!items.is_empty());
        let room = budget.saturating_sub(used + header);
        match piece_end(&e.text, pos.byte, room) {
            None => {
                used += header + json_len(&e.text[pos.byte..]) - 2;
                items.push(part(e, &e.text[pos.byte..], pos.byte, false));
                pos = TranscriptPosition { event: pos.event + 1, byte: 0 };
            }
            Some(end) if end > pos.byte && (room >= MIN_PIECE || items.is_empty()) => {
                items.push(part(e, &e.text[pos.byte..end], pos.byte, true));
                return (items, Some(TranscriptPosition { event: pos.event, byte: end }));
            }
            Some(_) => return (items, Some(pos)),
        }
    }
    (items, None)
}

/// Get a session's whole transcript verbatim; long texts continue on the next page. To browse,
/// prefer `get_session_turns` and `get_turn_steps`.
#[mcp_tool(family = "trace", size_hint = "100KB", read_only)]
pub async fn get_session_full(store: &TraceStore, ctx: &ToolContext, args: GetSessionFullArgs) -> ToolResult<Page<TranscriptEvent>> {
    let pos: TranscriptPosition = args.cursor.as_ref().map(Cursor::position).transpose()?.unwrap_or_default();
    let detail = blocking_on_session(store, ctx, args.session_id.clone(), move |store| Ok(store.load_session(&args.session_id)?)).await?;
    let valid = match detail.events.get(pos.event) {
        Some(e) => e.text.is_char_boundary(pos.byte),
        None => pos.event == detail.events.len() && pos.byte == 0,
    };
    if !valid {
        return Err(ToolError::invalid_cursor("The cursor points past this session's events (did the log change?)."));
    }
    let (items, next) = page(&detail.events, pos, page_budget(ctx.size_hint(), HINT));
    let out = Page::new(items).with_hint(HINT);
    Ok(match next {
        Some(n) => out.with_next(n),
        None => out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::EventKind;

    fn ev(index: u32, text: &str) -> Event {
        let mut e = Event::new(EventKind::ToolResult, text);
        e.index = index;
        e
    }

    #[test]
    fn pages_reassemble_every_text_and_stay_in_budget() {
        let tricky = "\"quoted\" \\ back\n日本語🙂\u{1}".repeat(400);
        let events = vec![ev(0, "short"), ev(1, &tricky), ev(2, ""), ev(3, &"x".repeat(5000))];
        let budget = 3000;
        let mut pos = TranscriptPosition::default();
        let mut texts = vec![String::new(); events.len()];
        let mut pages = 0;
        loop {
            let (items, next) = page(&events, pos, budget);
            pages += 1;
            assert!(!items.is_empty());
            assert!(json_len(&items) <= budget, "page {pages} is {} bytes", json_len(&items));
            for it in &items {
                let t = &mut texts[it.event_index as usize];
                assert_eq!(t.chars().count(), it.text_offset);
                t.push_str(&it.text);
            }
            match next {
                Some(n) => pos = n,
                None => break,
            }
        }
        assert!(pages > 5);
        for (e, t) in events.iter().zip(&texts) {
            assert_eq!(&e.text, t);
        }
    }
}
