//! Closed domains as they appear on the wire, and their conversion to the data layer.
//!
//! The data layer's `EventKind` carries no docs per value; `EventType` does, so the JSON Schema
//! lists every allowed value with a description the model can read. (`Provider` needs no wire
//! twin: [`crate::model::Provider`] is itself a `#[tool_args]` enum.)

use mcp_tool::prelude::*;

use crate::model;
use crate::model::TokenUsage;

/// An event's kind.
#[tool_args]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventType {
    /// A person's prompt.
    User,
    /// The model's text.
    Message,
    /// Visible reasoning.
    Reasoning,
    /// A tool call; its text is the arguments.
    ToolCall,
    /// A tool call's output.
    ToolResult,
    /// Tokens of one model request.
    TokenUsage,
    /// Anything else (system records, summaries).
    Notification,
}

impl From<EventType> for model::EventKind {
    fn from(k: EventType) -> Self {
        use model::EventKind as K;
        match k {
            EventType::User => K::User,
            EventType::Message => K::Message,
            EventType::Reasoning => K::Reasoning,
            EventType::ToolCall => K::ToolCall,
            EventType::ToolResult => K::ToolResult,
            EventType::TokenUsage => K::TokenUsage,
            EventType::Notification => K::Notification,
        }
    }
}

impl From<model::EventKind> for EventType {
    fn from(k: model::EventKind) -> Self {
        use model::EventKind as K;
        match k {
            K::User => EventType::User,
            K::Message => EventType::Message,
            K::Reasoning => EventType::Reasoning,
            K::ToolCall => EventType::ToolCall,
            K::ToolResult => EventType::ToolResult,
            K::TokenUsage => EventType::TokenUsage,
            K::Notification => EventType::Notification,
        }
    }
}

/// Token totals in one shape for all providers, in the providers' own terms: `input` and
/// `output` are whole, the other counts are the parts of them the provider reports.
#[tool_output]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TokenTotals {
    /// All input tokens: uncached, read from the prompt cache and written to it (every
    /// provider).
    pub input: u64,
    /// Part of `input` read from the prompt cache (Claude Code `cache_read_input_tokens`, Codex
    /// `cached_input_tokens`, Gemini `cached`).
    pub cached_input: u64,
    /// Part of `input` written to the prompt cache, billed above the uncached rate (Claude Code
    /// `cache_creation_input_tokens`, Codex `cache_write_input_tokens` from 0.14x; 0 for
    /// Gemini, which reports none).
    pub cache_creation_input: u64,
    /// All generated tokens, reasoning included (every provider).
    pub output: u64,
    /// Part of `output` spent on reasoning (Codex `reasoning_output_tokens`, Gemini
    /// `thoughts`; 0 for Claude Code, whose usage does not split thinking out).
    pub reasoning_output: u64,
    /// `input + output`.
    pub total: u64,
}

impl From<TokenUsage> for TokenTotals {
    fn from(t: TokenUsage) -> Self {
        TokenTotals {
            input: t.input,
            cached_input: t.cached_input,
            cache_creation_input: t.cache_creation_input,
            output: t.output,
            reasoning_output: t.reasoning_output,
            total: t.total,
        }
    }
}

/// A timestamp as sent: RFC 3339 in UTC with milliseconds (the schema says `string`; chrono
/// types have no JSON Schema without a schemars feature this crate does not enable).
pub fn timestamp(t: Option<chrono::DateTime<chrono::Utc>>) -> Option<String> {
    t.map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true))
}
