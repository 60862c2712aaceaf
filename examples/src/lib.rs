//! Example servers built with mcp-tool. Each example is a module with its tools and a
//! `server()` constructor, and a thin binary in `src/bin/` that serves it; tests build the
//! same servers in-process.

#![warn(missing_docs)]

pub mod conformance;
pub mod hello;
