//! agtrace data layer: parsers for Claude Code, Codex and Gemini session logs, normalized
//! sessions (events, turns, steps, tokens), and an embedded SQLite index with full-text search.
//!
//! [`TraceStore`] is the entry point for the MCP tools in [`tools`], one file per tool, served
//! by [`server::build`].

pub mod assemble;
pub mod config;
#[cfg(feature = "corpus")]
pub mod corpus;
pub mod error;
pub mod index;
pub mod model;
pub mod providers;
pub mod server;
pub mod session_cache;
pub mod store;
pub mod tokens;
pub mod tooling;
pub mod tools;

pub use assemble::{Step, ToolCallSummary, Turn};
pub use config::Config;
pub use error::{Error, Result};
pub use model::{Event, EventKind, Provider, project_hash};
pub use store::*;
pub use tokens::TokenUsage;
