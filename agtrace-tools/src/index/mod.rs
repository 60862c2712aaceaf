//! The embedded SQLite index: schema, incremental ingestion, queries.

pub mod ingest;
pub mod query;
pub mod schema;

pub use ingest::{IndexStats, Progress};
