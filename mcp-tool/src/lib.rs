//! MCP (Model Context Protocol) tools that are well designed by construction.
//!
//! A tool is an `async fn` with [`#[mcp_tool]`](mcp_tool) and an argument struct with
//! [`#[tool_args]`](tool_args). The attributes register it at link time, derive its schemas and
//! refuse designs known to confuse models, with a `help:` line that says how to fix them; a
//! [`ToolServer`] serves the registered tools over MCP (via `rmcp`) with a uniform envelope,
//! structured errors, answer budgets and query-bound cursors.
//!
//! ```no_run
//! use mcp_tool::prelude::*;
//! use mcp_tool::ToolServer;
//!
//! #[tool_args]
//! pub struct GreetArgs {
//!     /// Who to greet.
//!     pub name: String,
//! }
//!
//! /// A greeting for someone, by name.
//! #[mcp_tool(family = "hello", size_hint = "1KB", read_only)]
//! pub async fn get_greeting(args: GreetArgs) -> ToolResult<String> {
//!     Ok(format!("Hello, {}!", args.name))
//! }
//!
//! #[tokio::main]
//! async fn main() {
//!     let server = ToolServer::builder()
//!         .name("hello")
//!         .version("1.0.0")
//!         .build()
//!         .unwrap_or_else(|e| panic!("{e}"));
//!     // stdout carries the protocol; logs go to stderr.
//!     if let Err(e) = server.serve_stdio().await {
//!         eprintln!("hello: {e}");
//!     }
//! }
//! ```
//!
//! This crate is the one to depend on: it re-exports the runtime (`mcp-tool-core`) and the
//! attributes (`mcp-tool-macros`), whose generated code names only `::mcp_tool::__private`.
//! Its features (`http`, `auth`, `answer-check`, `testing`, `release-lints`, `otel`, `full`) are
//! the runtime's.

#[doc(inline)]
pub use mcp_tool_core::*;
