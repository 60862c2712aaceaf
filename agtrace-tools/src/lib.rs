//! agtrace: MCP tools over the session logs of Claude Code, Codex CLI, Gemini CLI, Qwen Code, GitHub Copilot CLI and OpenCode.
//!
//! The modules are layers, each depending only on the ones before it:
//!
//! - [`model`]: the normalized vocabulary (events, providers, tokens, turns and steps);
//! - [`providers`]: the log parsers, raw records in, [`model::Event`]s out;
//! - [`pricing`]: the price table (`data/prices.toml`) and who spent the tokens (per request,
//!   model, tool call);
//! - [`index`]: the embedded SQLite index (schema, incremental ingestion, queries);
//! - [`store`]: [`store::TraceStore`], what the tools call, with its cache of parsed sessions;
//! - [`tools`]: the MCP tools, one file each;
//! - [`server`]: the server that serves the tools over one store;
//! - [`fresh`]: keeps a served store's index up to date with the logs (a file watcher).
//!
//! [`config`] and [`error`] are shared by all of them.
//!
//! Cargo features: `cli` (default) builds the `agtrace` binary, whose command line lives in
//! `src/bin/agtrace/`, with its own dependencies (clap, indicatif, tracing-subscriber); `corpus`
//! (enabled by `cli`, for `agtrace gen-corpus`) adds the synthetic log generator used by tests
//! and benchmarks. With `default-features = false` the crate is the data layer and the tools.

#![warn(missing_docs)]

pub mod config;
#[cfg(feature = "corpus")]
pub mod corpus;
pub mod error;
pub mod fresh;
pub mod index;
pub mod model;
pub mod pricing;
pub mod providers;
pub mod secrets;
pub mod server;
pub mod store;
pub mod tools;
