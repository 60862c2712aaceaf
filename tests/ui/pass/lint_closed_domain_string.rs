// Closed sets as enums; open strings (paths, queries, times, ids, prose with "or") stay strings.
use mcp_tool::prelude::*;

/// Who wrote the session.
#[tool_args]
pub enum Provider {
    /// Claude Code.
    ClaudeCode,
    /// OpenAI Codex.
    Codex,
}

/// Order of the results.
#[tool_args]
pub enum Ordering {
    /// Newest first.
    Newest,
    /// Oldest first.
    Oldest,
}

#[tool_args]
pub struct ListSessionsArgs {
    /// Only sessions of this provider.
    pub provider: Option<Provider>,
    /// Order of the results.
    #[arg(default = Ordering::Newest)]
    pub ordering: Ordering,
    /// Only sessions whose project path starts with this, e.g. src/lib.rs or docs/x.md.
    pub project: Option<String>,
    /// Only sessions that started at or after this time (RFC 3339).
    pub since: Option<String>,
    /// Text to look for in the first prompt.
    pub query: Option<String>,
    /// MIME type of attachments to count, as sent by the client.
    pub mime_type: Option<String>,
    /// Model to list sessions of, as named by the provider (`gpt-4.1`, `claude-sonnet-4-5`, ...).
    #[arg(allow(closed_domain_string = "model names are open-ended and change monthly"))]
    pub model_provider: Option<String>,
}

fn main() {}
