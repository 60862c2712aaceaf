//! The data layer's errors as tool errors (stable codes, details a model can act on), and the
//! one way tools run blocking store calls.

use chrono::{DateTime, Utc};
use mcp_tool::{ToolContext, ToolError, ToolResult};
use serde_json::json;

use crate::error::Error;
use crate::store::TraceStore;

/// Tool error codes of the trace tools (besides the framework's `invalid_parameter`,
/// `invalid_cursor`, `internal`).
pub mod codes {
    /// No session has the id or prefix given.
    pub const SESSION_NOT_FOUND: &str = "session_not_found";
    /// A session prefix matches several sessions.
    pub const AMBIGUOUS_SESSION_PREFIX: &str = "ambiguous_session_prefix";
    /// The session has no turn at the index given.
    pub const TURN_NOT_FOUND: &str = "turn_not_found";
    /// The session has no event at the index given.
    pub const EVENT_NOT_FOUND: &str = "event_not_found";
    /// The log file of the session was moved or deleted since it was indexed.
    pub const LOG_FILE_GONE: &str = "log_file_gone";
    /// The log file is being written; retry in a moment.
    pub const LOG_INCOMPLETE: &str = "log_incomplete";
    /// The index could not be brought up to date before answering; retry.
    pub const INDEX_UNAVAILABLE: &str = "index_unavailable";
}

/// The data layer caps the candidate list of an ambiguous prefix at this many.
const CANDIDATE_CAP: usize = 21;

/// Maps every data-layer error, in one place, to its tool error.
pub fn tool_error(e: Error) -> ToolError {
    match e {
        Error::SessionNotFound(id) => ToolError::new(
            codes::SESSION_NOT_FOUND,
            format!("No session has the id or id prefix '{id}'. Call `list_sessions` to see the sessions."),
        )
        .with_detail("session_id", id),
        Error::PrefixTooShort { prefix, min } => ToolError::invalid_parameter(
            "session_id",
            format!("Session prefix '{prefix}' is too short: give the whole id or at least {min} characters of it."),
        )
        .with_detail("prefix", prefix)
        .with_detail("min_length", min),
        Error::AmbiguousSession { prefix, candidates } => {
            let count = if candidates.len() >= CANDIDATE_CAP {
                format!("{} or more", candidates.len())
            } else {
                candidates.len().to_string()
            };
            ToolError::new(
                codes::AMBIGUOUS_SESSION_PREFIX,
                format!("Session prefix '{prefix}' matches {count} sessions. Give more characters."),
            )
            .with_details(json!({"prefix": prefix, "matches": candidates}))
        }
        Error::EventNotFound { session, index } => ToolError::new(
            codes::EVENT_NOT_FOUND,
            format!("Session '{session}' has no event {index}."),
        )
        .with_details(json!({"session_id": session, "event_index": index})),
        Error::LogFileGone(id) => ToolError::new(
            codes::LOG_FILE_GONE,
            format!("The log file of session '{id}' was moved or deleted since it was indexed."),
        )
        .with_detail("session_id", id),
        // Another process is still writing the file: the same call later will likely work.
        Error::Incomplete(path) => ToolError::new(
            codes::LOG_INCOMPLETE,
            format!("The log file {} is being written; try again in a moment.", path.display()),
        )
        .retryable(true),
        // A busy or locked index is transient; other database errors are not, but a retry is harmless.
        Error::Cancelled => ToolError::cancelled(),
        Error::IndexUnavailable(why) => ToolError::new(
            codes::INDEX_UNAVAILABLE,
            format!("The index could not be brought up to date ({why}); try again in a moment."),
        )
        .retryable(true),
        Error::Db(e) => ToolError::internal(format!("index database error: {e}")).retryable(true),
        // A corrupt index stays corrupt until it is rebuilt: not retryable.
        e @ (Error::Io { .. }
        | Error::Config(_)
        | Error::Corrupt(_)
        | Error::CorruptIndex { .. }) => ToolError::internal(e.to_string()),
    }
}

impl From<Error> for ToolError {
    fn from(e: Error) -> Self {
        tool_error(e)
    }
}

/// Runs `f` on tokio's blocking pool (SQLite and file reads must not stall the async workers
/// that serve other requests) with a store that gives up once the call is cancelled: nothing
/// else can stop a blocking thread, and the server cannot exit while one runs.
pub async fn blocking<T, F>(store: &TraceStore, ctx: &ToolContext, f: F) -> ToolResult<T>
where
    T: Send + 'static,
    F: FnOnce(&TraceStore) -> ToolResult<T> + Send + 'static,
{
    on_blocking_pool(store, ctx, None, f).await
}

/// [`blocking`] for a call about one session (an id or prefix): it waits for a refresh only
/// when that session's logs changed since they were indexed ([`TraceStore::wait_fresh_for`]).
pub async fn blocking_on_session<T, F>(
    store: &TraceStore,
    ctx: &ToolContext,
    session: String,
    f: F,
) -> ToolResult<T>
where
    T: Send + 'static,
    F: FnOnce(&TraceStore) -> ToolResult<T> + Send + 'static,
{
    on_blocking_pool(store, ctx, Some(session), f).await
}

async fn on_blocking_pool<T, F>(
    store: &TraceStore,
    ctx: &ToolContext,
    session: Option<String>,
    f: F,
) -> ToolResult<T>
where
    T: Send + 'static,
    F: FnOnce(&TraceStore) -> ToolResult<T> + Send + 'static,
{
    let cancel = ctx.cancel_token();
    let store = store.interruptible(move || cancel.is_cancelled());
    // A served store first takes in every change to the logs seen so far (crate::fresh).
    tokio::task::spawn_blocking(move || {
        match &session {
            Some(session) => store.wait_fresh_for(session)?,
            None => store.wait_fresh()?,
        }
        f(&store)
    })
    .await
    .map_err(|e| ToolError::internal(format!("the store call did not finish: {e}")))?
}

/// An optional RFC 3339 argument; a bad one is `invalid_parameter` naming `field`.
pub fn parse_time(field: &str, value: Option<&str>) -> ToolResult<Option<DateTime<Utc>>> {
    let Some(text) = value else { return Ok(None) };
    DateTime::parse_from_rfc3339(text.trim())
        .map(|t| Some(t.with_timezone(&Utc)))
        .map_err(|e| {
            ToolError::invalid_parameter(
                field,
                format!("`{field}` must be an RFC 3339 timestamp such as 2025-01-31T09:00:00Z, got '{text}' ({e})."),
            )
            .with_detail("value", text)
        })
}
