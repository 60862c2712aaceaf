//! What the store returns beyond the index rows: whole sessions and single events.

use serde::{Deserialize, Serialize};

use crate::index::SessionSummary;
use crate::model::{Event, Provider, TokenUsage, Turn};

/// A session loaded in full: every event with its raw record, assembled into turns and steps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionDetail {
    pub summary: SessionSummary,
    pub events: Vec<Event>,
    pub turns: Vec<Turn>,
    pub tokens: TokenUsage,
    /// Sub-agent sessions this one spawned.
    pub children: Vec<String>,
}

/// One event, untruncated, with its raw record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EventDetail {
    pub session_id: String,
    pub provider: Provider,
    pub event: Event,
}
