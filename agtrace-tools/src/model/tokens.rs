//! Token accounting in one shape for all providers.
//!
//! Every provider reports usage differently (see docs/provider-formats.md); the parsers convert
//! into [`TokenUsage`] where `input` is the request's whole input (cached part included) and
//! `output` is everything generated (reasoning part included), so sums never double count.

use serde::{Deserialize, Serialize};

/// Token usage of one request, or a sum of requests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenUsage {
    /// All input tokens, including `cached_input` and `cache_creation_input`.
    pub input: u64,
    /// Part of `input` read from the prompt cache.
    pub cached_input: u64,
    /// Part of `input` written to the prompt cache (Claude Code; Codex from 0.14x).
    pub cache_creation_input: u64,
    /// All generated tokens, including `reasoning_output`.
    pub output: u64,
    /// Part of `output` spent on reasoning (when the provider reports it).
    pub reasoning_output: u64,
    /// `input + output`.
    pub total: u64,
}

impl TokenUsage {
    /// Usage from the counts a provider reports; `total` is `input + output`.
    pub fn new(
        input: u64,
        cached_input: u64,
        cache_creation_input: u64,
        output: u64,
        reasoning_output: u64,
    ) -> Self {
        TokenUsage {
            input,
            cached_input,
            cache_creation_input,
            output,
            reasoning_output,
            total: input.saturating_add(output),
        }
    }

    /// Adds `o` to these counts.
    pub fn add(&mut self, o: &TokenUsage) {
        self.input = self.input.saturating_add(o.input);
        self.cached_input = self.cached_input.saturating_add(o.cached_input);
        self.cache_creation_input = self
            .cache_creation_input
            .saturating_add(o.cache_creation_input);
        self.output = self.output.saturating_add(o.output);
        self.reasoning_output = self.reasoning_output.saturating_add(o.reasoning_output);
        self.total = self.total.saturating_add(o.total);
    }

    /// Whether every count is zero.
    pub fn is_zero(&self) -> bool {
        *self == TokenUsage::default()
    }
}

/// Sums `token_usage` events. Claude streams one line per content block, each repeating the
/// usage of its `message.id` (later lines carry the final output count), so usages sharing a
/// message id REPLACE each other instead of adding up.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TokenAccumulator {
    closed: TokenUsage,
    open_message: Option<String>,
    open: TokenUsage,
}

impl TokenAccumulator {
    /// Counts `usage` once per model message: streamed lines repeating a `message_id` count once.
    pub fn push(&mut self, usage: &TokenUsage, message_id: Option<&str>) {
        match message_id {
            Some(id) if self.open_message.as_deref() == Some(id) => self.open = *usage,
            Some(id) => {
                self.close();
                self.open_message = Some(id.to_string());
                self.open = *usage;
            }
            None => {
                self.close();
                self.closed.add(usage);
            }
        }
    }

    fn close(&mut self) {
        let open = std::mem::take(&mut self.open);
        self.closed.add(&open);
        self.open_message = None;
    }

    /// The message whose usage later lines may still replace.
    pub fn open_message(&self) -> Option<&str> {
        self.open_message.as_deref()
    }

    /// The usage counted so far.
    pub fn total(&self) -> TokenUsage {
        let mut t = self.closed;
        t.add(&self.open);
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_usage_of_one_message_counts_once_with_the_last_value() {
        let mut acc = TokenAccumulator::default();
        acc.push(&TokenUsage::new(16038, 12135, 3893, 8, 0), Some("m1"));
        acc.push(&TokenUsage::new(16038, 12135, 3893, 436, 0), Some("m1"));
        acc.push(&TokenUsage::new(100, 0, 0, 5, 0), None);
        acc.push(&TokenUsage::new(10, 0, 0, 1, 0), Some("m2"));
        let t = acc.total();
        assert_eq!(t.input, 16038 + 100 + 10);
        assert_eq!(t.output, 436 + 5 + 1);
        assert_eq!(t.total, t.input + t.output);
    }
}
