//! The agents whose logs are read, and the project identity they share.

use std::fmt;
use std::str::FromStr;

use sha2::{Digest, Sha256};

/// The agent that wrote a session.
// Also the tools' `provider` type: `#[tool_args]` derives its serde and JSON Schema (snake_case
// values, each described by its doc; this item's doc is the schema's description).
#[mcp_tool_core::tool_args]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Provider {
    /// Claude Code.
    ClaudeCode,
    /// OpenAI Codex CLI.
    Codex,
    /// Google Gemini CLI.
    Gemini,
}

impl Provider {
    /// Every provider, in the order of their codes in the index.
    pub const ALL: [Provider; 3] = [Provider::ClaudeCode, Provider::Codex, Provider::Gemini];

    /// The snake_case name, as serialized.
    pub fn as_str(self) -> &'static str {
        match self {
            Provider::ClaudeCode => "claude_code",
            Provider::Codex => "codex",
            Provider::Gemini => "gemini",
        }
    }

    pub(crate) fn code(self) -> i64 {
        match self {
            Provider::ClaudeCode => 0,
            Provider::Codex => 1,
            Provider::Gemini => 2,
        }
    }

    pub(crate) fn from_code(code: i64) -> Option<Self> {
        Self::ALL.get(usize::try_from(code).ok()?).copied()
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Provider {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|p| p.as_str() == s)
            .ok_or_else(|| {
                format!("unknown provider '{s}' (expected claude_code, codex or gemini)")
            })
    }
}

/// Lower-case hex sha256 of a project root path, as Gemini names its project directories,
/// so that the three providers agree on a project's identity.
pub fn project_hash(root: &str) -> String {
    let digest = Sha256::digest(root.as_bytes());
    let mut out = String::with_capacity(64);
    for b in digest {
        out.push_str(&format!("{b:02x}"));
    }
    out
}
