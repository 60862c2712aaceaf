//! `get_session_full`: the whole transcript, nothing shortened, in pages of at most 100KB.
//!
//! A page is a run of events; a text too long for the room left continues on the next page
//! from the exact byte where this one stopped, so concatenating the `text` of an event's parts
//! gives its whole text back.

use mcp_tool::prelude::*;
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

/// Part of event `e` whose whole text is `whole`: `whole[from..to]`.
fn part(e: &Event, whole: &str, from: usize, to: usize) -> TranscriptEvent {
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
        text: whole[from..to].to_owned(),
        text_offset: char_offset(whole, from),
        text_chars: whole.chars().count(),
        continues: to < whole.len(),
    }
}

/// Cuts `events` into one page from `pos`: the parts that fit `budget` bytes, and where the
/// next page starts. `whole` reads the whole text of an event whose `text` is only its
/// beginning. `None` when `pos` is not a place in these events.
fn page(
    events: &[Event],
    mut pos: TranscriptPosition,
    budget: usize,
    whole: &mut dyn FnMut(&Event) -> ToolResult<String>,
) -> ToolResult<Option<(Vec<TranscriptEvent>, Option<TranscriptPosition>)>> {
    let mut items = Vec::new();
    let mut used = 2;
    while let Some(e) = events.get(pos.event) {
        let read;
        let text = match e.whole_text_chars {
            Some(_) => {
                read = whole(e)?;
                read.as_str()
            }
            None => e.text.as_str(),
        };
        if !text.is_char_boundary(pos.byte) {
            return Ok(None);
        }
        // With `continues: false`, the longer of its two spellings.
        let header = json_len(&TranscriptEvent { continues: false, ..part(e, text, pos.byte, pos.byte) }) + usize::from(!items.is_empty());
        let room = budget.saturating_sub(used + header);
        match piece_end(text, pos.byte, room) {
            None => {
                used += header + json_len(&text[pos.byte..]) - 2;
                items.push(part(e, text, pos.byte, text.len()));
                pos = TranscriptPosition { event: pos.event + 1, byte: 0 };
            }
            Some(end) if end > pos.byte && (room >= MIN_PIECE || items.is_empty()) => {
                items.push(part(e, text, pos.byte, end));
                return Ok(Some((items, Some(TranscriptPosition { event: pos.event, byte: end }))));
            }
            Some(_) => return Ok(Some((items, Some(pos)))),
        }
    }
    // Past the last event, only the end itself (byte 0) is a place.
    if pos.event > events.len() || pos.byte != 0 {
        return Ok(None);
    }
    Ok(Some((items, None)))
}

/// Get a session's whole transcript verbatim; long texts continue on the next page. To browse,
/// prefer `get_session_turns` and `get_turn_steps`.
#[mcp_tool(family = "trace", size_hint = "100KB", read_only)]
pub async fn get_session_full(store: &TraceStore, ctx: &ToolContext, args: GetSessionFullArgs) -> ToolResult<Page<TranscriptEvent>> {
    let pos: TranscriptPosition = args.cursor.as_ref().map(Cursor::position).transpose()?.unwrap_or_default();
    let budget = page_budget(ctx.size_hint(), HINT);
    let paged = blocking_on_session(store, ctx, args.session_id.clone(), move |store| {
        let detail = store.load_session(&args.session_id)?;
        // The session keeps only the beginning of a long tool output; the index has all of it.
        let mut whole = |e: &Event| Ok(store.get_event_without_raw(&detail.summary.id, e.index)?.event.text);
        page(&detail.events, pos, budget, &mut whole)
    })
    .await?;
    let Some((items, next)) = paged else {
        return Err(ToolError::invalid_cursor("The cursor points past this session's events (did the log change?)."));
    };
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

    /// Every page of `events` (`whole` giving the whole texts of cut ones), checked against
    /// `budget`; each event's text put back together from its parts.
    fn reassembled(events: &[Event], budget: usize, whole: &mut dyn FnMut(&Event) -> ToolResult<String>) -> (usize, Vec<String>) {
        let mut pos = TranscriptPosition::default();
        let mut texts = vec![String::new(); events.len()];
        let mut pages = 0;
        loop {
            let (items, next) = page(events, pos, budget, whole).unwrap().expect("a valid cursor");
            pages += 1;
            assert!(!items.is_empty());
            assert!(json_len(&items) <= budget, "page {pages} is {} bytes", json_len(&items));
            for it in &items {
                let t = &mut texts[it.event_index as usize];
                assert_eq!(t.chars().count(), it.text_offset);
                t.push_str(&it.text);
                assert_eq!(it.continues, t.chars().count() < it.text_chars);
            }
            match next {
                Some(n) => pos = n,
                None => return (pages, texts),
            }
        }
    }

    #[test]
    fn pages_reassemble_every_text_and_stay_in_budget() {
        let tricky = "\"quoted\" \\ back\n日本語🙂\u{1}".repeat(400);
        let events = vec![ev(0, "short"), ev(1, &tricky), ev(2, ""), ev(3, &"x".repeat(5000))];
        let (pages, texts) = reassembled(&events, 3000, &mut |_| unreachable!("no event is cut"));
        assert!(pages > 5);
        for (e, t) in events.iter().zip(&texts) {
            assert_eq!(&e.text, t);
        }
    }

    #[test]
    fn a_cut_tool_output_is_paged_whole() {
        let whole = "日本語 output line\n".repeat(500);
        let mut cut = ev(1, &whole[..120]);
        cut.whole_text_chars = Some(whole.chars().count());
        let events = vec![ev(0, "before"), cut, ev(2, "after")];
        let mut reads = 0;
        let (_, texts) = reassembled(&events, 3000, &mut |e| {
            assert_eq!(e.index, 1);
            reads += 1;
            Ok(whole.clone())
        });
        assert_eq!(texts, ["before", whole.as_str(), "after"]);
        assert!(reads > 1, "read once per page it spans");
    }

    #[test]
    fn a_cursor_inside_a_cut_output_is_checked_against_the_whole_text() {
        let whole = "é".repeat(2000);
        let mut cut = ev(0, &whole[..100]);
        cut.whole_text_chars = Some(2000);
        let events = [cut];
        let mut read = |_: &Event| Ok(whole.clone());
        let inside = TranscriptPosition { event: 0, byte: 3000 };
        let (items, _) = page(&events, inside, 3000, &mut read).unwrap().expect("a place in the whole text");
        assert_eq!(items[0].text_offset, 1500);
        let mid_char = TranscriptPosition { event: 0, byte: 3001 };
        assert!(page(&events, mid_char, 3000, &mut read).unwrap().is_none());
        let past = TranscriptPosition { event: 1, byte: 5 };
        assert!(page(&events, past, 3000, &mut read).unwrap().is_none());
        let end = TranscriptPosition { event: 1, byte: 0 };
        assert_eq!(page(&events, end, 3000, &mut read).unwrap().unwrap().0.len(), 0);
    }
}
