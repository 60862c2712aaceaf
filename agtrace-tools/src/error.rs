//! The crate's error type.

use std::path::{Path, PathBuf};

use crate::config::Config;

/// Errors of the data layer. Bad log content is never an error (it is skipped and counted);
/// these are failures of the environment, the index, or of a caller's request.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading a file or directory failed.
    #[error("I/O error on {path}: {source}")]
    Io {
        /// The file or directory; from a [`TraceStore`](crate::store::TraceStore) method,
        /// named relative to its log root ([`Config::path_label`]).
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The index database failed (busy, locked, full, ...). rusqlite errors convert into it
    /// in `index`, which turns a column that does not decode into `CorruptIndex` instead.
    #[error("index database error: {0}")]
    Db(rusqlite::Error),
    /// A Gemini document is being rewritten: not valid JSON yet. From a
    /// [`TraceStore`](crate::store::TraceStore) method, the path is relative to its log root.
    #[error("{0} is not a complete log document yet (being written?)")]
    Incomplete(PathBuf),
    /// No session has this id or id prefix.
    #[error("session '{0}' not found")]
    SessionNotFound(String),
    /// A session prefix too short to be looked up.
    #[error("session prefix '{prefix}' is shorter than {min} characters")]
    PrefixTooShort {
        /// The prefix given.
        prefix: String,
        /// The fewest characters a prefix may have.
        min: usize,
    },
    /// A session prefix that matches several sessions.
    #[error("session prefix '{prefix}' matches {} sessions: {}", candidates.len(), candidates.join(", "))]
    AmbiguousSession {
        /// The prefix given.
        prefix: String,
        /// Some of the sessions it matches.
        candidates: Vec<String>,
    },
    /// The session has no event at this index.
    #[error("event {index} not found in session '{session}'")]
    EventNotFound {
        /// The whole session id.
        session: String,
        /// The event index asked for.
        index: u32,
    },
    /// The log file of an indexed session is gone.
    #[error("the log file of session '{0}' is gone; refresh the index")]
    LogFileGone(String),
    /// The caller gave up on the call (see
    /// [`TraceStore::interruptible`](crate::store::TraceStore::interruptible)): its query or
    /// parse stopped half-way.
    #[error("cancelled")]
    Cancelled,
    /// The index could not be brought up to date before answering (a served store's refresh
    /// failed: the index is locked by another process for too long, the disk is full, ...).
    #[error("the index could not be brought up to date: {0}")]
    IndexUnavailable(String),
    /// The configuration is unusable (e.g. the index inside a log root).
    #[error("invalid configuration: {0}")]
    Config(String),
    /// The indexer's own bookkeeping does not decode.
    #[error("index metadata is corrupt: {0}")]
    Corrupt(String),
    /// A column of the index holds a value that does not decode (a damaged index, or one
    /// written by something else): never read as a default.
    #[error(
        "the index is corrupt: {table}.{column} holds {value}, which is not a valid value; delete the index to rebuild it"
    )]
    CorruptIndex {
        /// The table.
        table: &'static str,
        /// The column.
        column: &'static str,
        /// The value found.
        value: String,
    },
}

impl Error {
    /// The error with its paths named relative to their log root or the data dir
    /// ([`Config::path_label`]), as it may be shown to a client.
    pub fn relative_to(self, config: &Config) -> Self {
        match self {
            Error::Io { path, source } => Error::Io {
                path: PathBuf::from(config.path_label(&path)),
                source,
            },
            Error::Incomplete(path) => Error::Incomplete(PathBuf::from(config.path_label(&path))),
            Error::Corrupt(text) => Error::Corrupt(config.relative_text(&text)),
            other => other,
        }
    }

    pub(crate) fn io(path: &Path, source: std::io::Error) -> Self {
        Error::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
