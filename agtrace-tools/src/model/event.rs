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
    ToolCall,
    ToolResult,
    /// Token usage reported for one model request.
    TokenUsage,
    /// Everything else: system records, environment blocks, compaction summaries, unknown records.
    Notification,
}

impl EventKind {
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
    pub offset: u64,
    pub len: u32,
}

/// One normalized event of a session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// Position in the session's event list; stable while the file only grows.
    pub index: u32,
    pub timestamp: Option<DateTime<Utc>>,
    pub kind: EventKind,
    pub text: String,
    pub tool_name: Option<String>,
    pub call_id: Option<String>,
    pub is_error: bool,
    /// Usage of the model request, for `token_usage` events.
    pub tokens: Option<TokenUsage>,
    /// Provider id of the model message this event belongs to (Claude `message.id`,
    /// Gemini message `id`): streamed lines of one message share it.
    pub message_id: Option<String>,
    pub model: Option<String>,
    /// Turn and step the event belongs to (see [`assemble`](super::assemble)).
    pub turn: u32,
    pub step: Option<u32>,
    pub source: Option<SourceSpan>,
    /// The provider record the event was made from (`Null` when not loaded).
    pub raw: serde_json::Value,
}

impl Event {
    pub(crate) fn new(kind: EventKind, text: impl Into<String>) -> Self {
        Event {
            index: 0,
            timestamp: None,
            kind,
            text: text.into(),
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
