//! Normalized events: what every provider's log records are translated into.

use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::TokenUsage;

/// What a normalized event is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// A person's prompt.
    User,
    /// Text the model wrote for the person.
    Message,
    /// The model's visible reasoning (thinking blocks, reasoning summaries, thoughts).
    Reasoning,
    /// A tool call made by the model; its text is the call's arguments.
    ToolCall,
    /// The output returned for a tool call.
    ToolResult,
    /// Token usage reported for one model request.
    TokenUsage,
    /// Everything else: system records, environment blocks, compaction summaries, unknown records.
    Notification,
}

impl EventKind {
    /// Every kind, in the order of their codes in the index.
    pub const ALL: [EventKind; 7] = [
        EventKind::User,
        EventKind::Message,
        EventKind::Reasoning,
        EventKind::ToolCall,
        EventKind::ToolResult,
        EventKind::TokenUsage,
        EventKind::Notification,
    ];

    /// Whether a model produced the event (it then has a model, where the log names one).
    pub fn is_generated(self) -> bool {
        matches!(
            self,
            EventKind::Message | EventKind::Reasoning | EventKind::ToolCall | EventKind::TokenUsage
        )
    }

    /// The snake_case name, as serialized.
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::User => "user",
            EventKind::Message => "message",
            EventKind::Reasoning => "reasoning",
            EventKind::ToolCall => "tool_call",
            EventKind::ToolResult => "tool_result",
            EventKind::TokenUsage => "token_usage",
            EventKind::Notification => "notification",
        }
    }

    pub(crate) fn code(self) -> i64 {
        Self::ALL.iter().position(|k| *k == self).unwrap_or(0) as i64
    }

    pub(crate) fn from_code(code: i64) -> Option<Self> {
        Self::ALL.get(usize::try_from(code).ok()?).copied()
    }

    /// Events that the model produced while generating (they open or extend a step).
    pub fn is_generation(self) -> bool {
        matches!(
            self,
            EventKind::Message | EventKind::Reasoning | EventKind::ToolCall
        )
    }
}

impl fmt::Display for EventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for EventKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| format!("unknown event kind '{s}'"))
    }
}

/// Where an event's raw record sits in its log file (JSONL only: a byte range of one line).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceSpan {
    /// Byte offset of the line in the file.
    pub offset: u64,
    /// Length of the line in bytes.
    pub len: u32,
}

/// One normalized event of a session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// Position in the session's event list; stable while the file only grows.
    pub index: u32,
    /// When the record was written, if the log says.
    pub timestamp: Option<DateTime<Utc>>,
    /// What the event is.
    pub kind: EventKind,
    /// The event's text: prompt, message, reasoning, tool arguments or tool output.
    pub text: String,
    /// Set when `text` is only the beginning of a tool output: the whole text's length in
    /// characters. A session kept parsed keeps the first [`RESULT_TEXT_KEPT`] bytes of each
    /// output; [`TraceStore::get_event_without_raw`](crate::store::TraceStore::get_event_without_raw)
    /// reads all of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub whole_text_chars: Option<usize>,
    /// Name of the tool, for tool calls and their results.
    pub tool_name: Option<String>,
    /// Id pairing a tool call with its result.
    pub call_id: Option<String>,
    /// Whether a tool result reports a failure.
    pub is_error: bool,
    /// Usage of the model request, for `token_usage` events.
    pub tokens: Option<TokenUsage>,
    /// Provider id of the model message this event belongs to (Claude `message.id`,
    /// Gemini message `id`): streamed lines of one message share it.
    pub message_id: Option<String>,
    /// The model that produced the event, where the log names it.
    pub model: Option<String>,
    /// Turn and step the event belongs to (see [`assemble`](super::assemble)).
    pub turn: u32,
    /// Step within the turn; `None` for events outside any step (prompts, notifications).
    pub step: Option<u32>,
    /// Where the raw record is in the log file (JSONL only).
    pub source: Option<SourceSpan>,
    /// The provider record the event was made from (`Null` when not loaded).
    pub raw: serde_json::Value,
}

/// Bytes of a tool output a session kept parsed holds (see [`Event::whole_text_chars`]): far
/// more than any excerpt a tool shows, far less than the megabytes one output can be.
pub const RESULT_TEXT_KEPT: usize = 64 << 10;

impl Event {
    pub(crate) fn new(kind: EventKind, text: impl Into<String>) -> Self {
        Event {
            index: 0,
            timestamp: None,
            kind,
            text: text.into(),
            whole_text_chars: None,
            tool_name: None,
            call_id: None,
            is_error: false,
            tokens: None,
            message_id: None,
            model: None,
            turn: 0,
            step: None,
            source: None,
            raw: serde_json::Value::Null,
        }
    }
}

pub(crate) fn parse_ts(s: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(s)
        .ok()
        .map(|d| d.with_timezone(&Utc))
}

pub(crate) fn ts_from_ms(ms: i64) -> Option<DateTime<Utc>> {
    DateTime::from_timestamp_millis(ms)
}
