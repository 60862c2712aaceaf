//! What the store returns beyond the index rows: whole sessions and single events.

use serde::{Deserialize, Serialize};

use crate::index::SessionSummary;
use crate::model::{Event, Provider, TokenUsage, Turn};

/// A session loaded in full: every event (without its raw record: see
/// [`TraceStore::get_event`](super::TraceStore::get_event)), assembled into turns and steps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionDetail {
    /// The session's index row.
    pub summary: SessionSummary,
    /// Every event; `raw` is `Null`.
    pub events: Vec<Event>,
    /// The events assembled into turns and steps.
    pub turns: Vec<Turn>,
    /// Tokens of the whole session, each model message counted once.
    pub tokens: TokenUsage,
    /// Sub-agent sessions this one spawned.
    pub children: Vec<String>,
}

/// One event, untruncated, with its raw record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EventDetail {
    /// The whole session id.
    pub session_id: String,
    /// The agent that wrote the session.
    pub provider: Provider,
    /// The event, with its raw record where it could be read.
    pub event: Event,
}
