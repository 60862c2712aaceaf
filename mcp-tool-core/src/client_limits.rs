//! How much of a tool answer each MCP client keeps, by the `clientInfo.name` it sends at
//! `initialize`.
//!
//! Agent CLIs cut long tool answers before their model sees them, each by its own measure and
//! often in the middle, where a cut JSON answer can still parse with items missing. A server
//! that knows the client's limit can page instead: [`ToolContext::size_hint`] is the smaller
//! of the tool's `size_hint` and the limit of the connected client, and tools that page by it
//! (as `agtrace`'s all do) never hand a client more than it keeps.
//!
//! The defaults ([`ClientLimits::defaults`]) come from each client's source, with a margin
//! below the point where it cuts, measured in UTF-8 bytes of the answer's text (a byte count
//! bounds the JavaScript string length and the 4-bytes-per-token estimates these clients use):
//!
//! | client | `clientInfo.name` | cuts at | limit here |
//! | --- | --- | --- | --- |
//! | Codex CLI | `codex-mcp-client` | 12,000 bytes for models outside its catalog, 48,000 for catalog models | 10,000 |
//! | Claude Code | `claude-code` | 25,000 tokens (`MAX_MCP_OUTPUT_TOKENS`); never below 50,000 characters | 40,000 |
//! | Gemini CLI | `gemini-cli-mcp-client` | 40,000 characters (`truncateToolOutputThreshold`) | 36,000 |
//!
//! A user who raised a client's own setting (`MAX_MCP_OUTPUT_TOKENS`, Codex's
//! `tool_output_token_limit`, Gemini's `truncateToolOutputThreshold`) or lowered it can say so
//! with [`ToolServerBuilder::client_limit`](crate::ToolServerBuilder::client_limit).
//!
//! [`ToolContext::size_hint`]: crate::ToolContext::size_hint

/// `clientInfo.name` of Codex CLI's MCP client (`codex-rs/rmcp-client`, sent as
/// `codex-mcp-client`; seen in the 0.169.0 binary).
pub const CODEX_CLI: &str = "codex-mcp-client";

/// Codex CLI re-serializes `structuredContent` with `serde_json::to_string` and truncates the
/// middle of that text when it records the call into the model's history
/// (`codex-rs/protocol/src/models.rs`, `CallToolResult::as_function_call_output_payload`;
/// `codex-rs/core/src/context_manager/history.rs`, `record_items`). The budget is the model's
/// `truncation_policy` times 1.2 (`with_serialization_allowance` in
/// `codex-rs/utils/output-truncation/src/lib.rs`), counted at 4 bytes a token
/// (`codex-rs/utils/string/src/truncate.rs`, `APPROX_BYTES_PER_TOKEN`): catalog models
/// (`codex-rs/core/models.json`) have `{"mode": "tokens", "limit": 10000}`, so 48,000 bytes;
/// any other model (a custom provider, a local model) gets the fallback
/// `TruncationPolicyConfig::bytes(10_000)`, so 12,000 bytes. A server cannot see the model, so
/// the smaller counts: 10,000 bytes, the policy itself without the allowance. Measured: a
/// 12,213-character answer reached a model outside the catalog as 11,441 characters with a
/// `…N tokens truncated…` marker (docs/clients.md).
pub const CODEX_CLI_MAX_BYTES: usize = 10_000;

/// `clientInfo.name` of Claude Code (`name: "claude-code"` in the 2.1.330 bundle).
pub const CLAUDE_CODE: &str = "claude-code";

/// Claude Code caps an MCP answer at `MAX_MCP_OUTPUT_TOKENS` (default 25,000; its MCP docs,
/// code.claude.com/docs/en/mcp, "MCP output limits"). The 2.1.330 bundle
/// leaves an answer alone when its estimate (UTF-16 length / 4) is at most half the cap, so
/// 50,000 characters; above that it counts tokens with the API and cuts at the cap, or cuts
/// unasked above 4 times the cap. 40,000 bytes stays under the no-count threshold with a 20%
/// margin, whatever the tokenizer says.
pub const CLAUDE_CODE_MAX_BYTES: usize = 40_000;

/// `clientInfo.name` of Gemini CLI (`packages/core/src/tools/mcp-client.ts`,
/// `connectToMcpServer`; same in the 0.61.0 bundle).
pub const GEMINI_CLI: &str = "gemini-cli-mcp-client";

/// Gemini CLI saves an MCP answer whose single text part is longer than
/// `truncateToolOutputThreshold` (default `DEFAULT_TRUNCATE_TOOL_OUTPUT_THRESHOLD = 40_000`
/// characters, `packages/core/src/config/config.ts`) to a file and shows the model its head and
/// tail (`packages/core/src/scheduler/tool-executor.ts`, `truncateOutputIfNeeded`). The text is
/// wrapped in `<untrusted_context>` tags first (`wrapUntrusted`), so 10% of margin: 36,000.
pub const GEMINI_CLI_MAX_BYTES: usize = 36_000;

/// One row of [`ClientLimits`]: clients whose name matches keep at most `max_bytes` of an
/// answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientLimit {
    /// A `clientInfo.name`, matched without regard to case; a trailing `*` matches any name
    /// that starts with what comes before it (`codex*`).
    pub name: String,
    /// The largest answer, in bytes of its text, that the client passes on whole.
    pub max_bytes: usize,
}

impl ClientLimit {
    fn matches(&self, client: &str) -> bool {
        match self.name.strip_suffix('*') {
            Some(prefix) => client
                .get(..prefix.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(prefix)),
            None => client.eq_ignore_ascii_case(&self.name),
        }
    }
}

/// The answer budget of each known MCP client, looked up by `clientInfo.name`. See the
/// [module docs](self) for the defaults and where they come from.
///
/// ```
/// use mcp_tool::client_limits::{ClientLimits, CODEX_CLI};
///
/// let limits = ClientLimits::defaults()
///     .with(CODEX_CLI, 40_000) // every model this deployment uses is in Codex's catalog
///     .with("my-agent*", 8_000);
/// assert_eq!(limits.limit_for("codex-mcp-client"), Some(40_000));
/// assert_eq!(limits.limit_for("my-agent-nightly"), Some(8_000));
/// assert_eq!(limits.limit_for("some-other-client"), None);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientLimits {
    rows: Vec<ClientLimit>,
}

impl Default for ClientLimits {
    fn default() -> Self {
        Self::defaults()
    }
}

impl ClientLimits {
    /// Codex CLI, Claude Code and Gemini CLI with the limits in the [module docs](self).
    pub fn defaults() -> Self {
        Self::empty()
            .with(CODEX_CLI, CODEX_CLI_MAX_BYTES)
            .with(CLAUDE_CODE, CLAUDE_CODE_MAX_BYTES)
            .with(GEMINI_CLI, GEMINI_CLI_MAX_BYTES)
    }

    /// No limits: every client gets each tool's own `size_hint`.
    pub fn empty() -> Self {
        Self { rows: Vec::new() }
    }

    /// Sets the limit for clients matching `name` (see [`ClientLimit::name`]), replacing a row
    /// with the same name.
    pub fn with(mut self, name: impl Into<String>, max_bytes: usize) -> Self {
        self.set(name, max_bytes);
        self
    }

    /// In-place form of [`with`](Self::with).
    pub fn set(&mut self, name: impl Into<String>, max_bytes: usize) {
        let name = name.into();
        match self
            .rows
            .iter_mut()
            .find(|r| r.name.eq_ignore_ascii_case(&name))
        {
            Some(row) => row.max_bytes = max_bytes,
            None => self.rows.push(ClientLimit { name, max_bytes }),
        }
    }

    /// Drops the row named `name`, so those clients get each tool's own `size_hint`.
    pub fn without(mut self, name: &str) -> Self {
        self.rows.retain(|r| !r.name.eq_ignore_ascii_case(name));
        self
    }

    /// The limit for a client named `client`: an exact row wins over a `*` row, and among `*`
    /// rows the longest prefix wins.
    pub fn limit_for(&self, client: &str) -> Option<usize> {
        let exact = self
            .rows
            .iter()
            .find(|r| !r.name.ends_with('*') && r.matches(client));
        exact
            .or_else(|| {
                self.rows
                    .iter()
                    .filter(|r| r.name.ends_with('*') && r.matches(client))
                    .max_by_key(|r| r.name.len())
            })
            .map(|r| r.max_bytes)
    }

    /// Every row, in the order they were set.
    pub fn iter(&self) -> impl Iterator<Item = &ClientLimit> {
        self.rows.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_name_the_three_agent_clients() {
        let limits = ClientLimits::defaults();
        assert_eq!(limits.limit_for("codex-mcp-client"), Some(10_000));
        assert_eq!(limits.limit_for("claude-code"), Some(40_000));
        assert_eq!(limits.limit_for("gemini-cli-mcp-client"), Some(36_000));
        assert_eq!(limits.limit_for("Claude-Code"), Some(40_000));
        assert_eq!(limits.limit_for("claude-code-nightly"), None);
        assert_eq!(limits.limit_for("mcp-tool-testing"), None);
    }

    #[test]
    fn exact_rows_win_over_prefixes_and_longer_prefixes_win() {
        let limits = ClientLimits::empty()
            .with("codex*", 1)
            .with("codex-mcp*", 2)
            .with("codex-mcp-client", 3);
        assert_eq!(limits.limit_for("codex-mcp-client"), Some(3));
        assert_eq!(limits.limit_for("codex-mcp-other"), Some(2));
        assert_eq!(limits.limit_for("CODEX-tui"), Some(1));
        assert_eq!(limits.limit_for("cod"), None);
    }

    #[test]
    fn set_replaces_and_without_removes() {
        let limits = ClientLimits::defaults()
            .with("CODEX-MCP-CLIENT", 48_000)
            .without("gemini-cli-mcp-client");
        assert_eq!(limits.limit_for("codex-mcp-client"), Some(48_000));
        assert_eq!(limits.iter().count(), 2);
        assert_eq!(limits.limit_for("gemini-cli-mcp-client"), None);
    }

    #[test]
    fn a_prefix_row_does_not_split_a_multibyte_name() {
        let limits = ClientLimits::empty().with("ab*", 1);
        assert_eq!(limits.limit_for("aé"), None);
        assert_eq!(limits.limit_for("a"), None);
    }
}
