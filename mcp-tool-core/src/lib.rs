//! mcp-tool: MCP tools that are well designed by construction.
//!
//! A tool is an `async fn` with `#[mcp_tool]` and an argument struct with `#[tool_args]`. The
//! macros register it at link time, derive its schemas and refuse designs known to confuse
//! models; this crate serves the registered tools over MCP (via `rmcp`) with a uniform
//! envelope, structured errors, size budgets and query-bound cursors.
//!
//! # Features
//!
//! The default builds what a stdio server needs; the rest is opt-in, so a server pays in build
//! time only for what it uses:
//!
//! | feature | adds |
//! | --- | --- |
//! | `lints` (default) | the design rules in the macros |
//! | `http` | `serve_http`/`serve_http_on` (streamable HTTP) and their guards and settings |
//! | `auth` | bearer tokens over HTTP: JWTs against a JWKS, or a static token (`auth`) |
//! | `answer-check` | answers checked against their `outputSchema` (`check_answers`) |
//! | `testing` | `TestClient`, an in-process MCP client that checks every answer |
//! | `otel` | OpenTelemetry export of the per-call spans |
//! | `full` | all of the above but `otel` |

// rmcp marks logging and server-to-client requests deprecated for the 2026-07-28 protocol;
// this crate serves the revisions up to 2025-11-25, where they are current (see server/handler.rs).
#![allow(deprecated)]
#![warn(missing_docs)]

pub mod args;
pub mod client_limits;
pub mod client_requests;
pub mod content;
mod context;
mod cursor;
mod envelope;
mod error;
mod page;
pub mod provider_rules;
pub mod registry;
pub mod schema;
pub mod seal;
mod server;
mod state;
#[cfg(feature = "testing")]
pub mod testing;

pub use client_limits::ClientLimits;
pub use client_requests::{ClientCapability, Elicitation, Sampled, SamplingRequest};
pub use content::Content;
pub use context::{CancelToken, LogLevel, ToolContext};
pub use cursor::Cursor;
pub use envelope::{Envelope, Output, estimate_tokens, format_size};
pub use error::{ToolError, ToolResult, codes};
pub use mcp_tool_macros::{mcp_tool, tool_args, tool_output};
pub use page::Page;
/// The MCP implementation underneath, for what this crate does not wrap.
pub use rmcp;
pub use schema::SchemaProfile;
#[cfg(feature = "auth")]
pub use server::auth;
pub use server::dispatch::UnknownTool;
pub use server::tasks;
pub use server::telemetry;
pub use server::transport::{HTTP_PATH, ServeError};
pub use server::{
    BuildError, LintWarning, SIZE_HINT_META, ToolServer, ToolServerBuilder, UnservedTool,
};

/// The names a tool author needs: `use mcp_tool::prelude::*;`.
pub mod prelude {
    pub use crate::{
        CancelToken, Content, Cursor, LogLevel, Page, ToolContext, ToolError, ToolResult, mcp_tool,
        tool_args, tool_output,
    };
}

/// Paths used by the code the macros generate. Not a public API: no stability promise.
#[doc(hidden)]
pub mod __private {
    pub use crate::args::{
        ArgKeywords, Bounded, Exception, Nested, NestedArgs, NestedChecks, NestedExceptions,
        NestedType, NoNestedChecks, NoNestedExceptions, ToolArgs, check_range, empty_input_schema,
        input_schema, variant_keywords,
    };
    pub use crate::envelope::{Output, output_schema_of};
    pub use crate::registry::{BoxFuture, Injected, Invocation, ToolDef};
    pub use crate::{ToolContext, ToolError};
    pub use inventory;
    pub use schemars;
    pub use serde;
    pub use serde_json;
    pub use std::any::TypeId;
    pub use std::boxed::Box;
    pub use std::format;
    pub use std::option::Option::{self, None, Some};
    pub use std::result::Result::{self, Err, Ok};
    pub use std::vec::Vec;
}
