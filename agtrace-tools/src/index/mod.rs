//! The embedded SQLite index: schema, incremental ingestion, queries. Depends on `model` and
//! `providers`; the store is its only caller.

pub(crate) mod archive;
mod decode;
pub(crate) mod discover;
pub mod fts_tokens;
mod in_order;
pub(crate) mod ingest;
pub(crate) mod line_text;
pub(crate) mod masking;
pub(crate) mod query;
pub(crate) mod schema;
pub mod search_syntax;
mod seek_sets;
pub mod stored_text;
pub mod touches;
pub mod usage;

pub use archive::{ArchiveStats, copy_file as archive_copy};
pub use discover::{SkipReason, SkipSummary, SkippedFile};
pub use ingest::{IndexStats, Progress, Scope};
pub use query::{
    MIN_PREFIX, PREVIEW_CHARS, ProjectInfo, ProjectRef, ProviderCounts, SearchCursor, SearchHit,
    SearchPage, SearchQuery, SessionCursor, SessionFilter, SessionPage, SessionSummary, preview,
    project_key,
};
