//! The crate's error type.

use std::path::{Path, PathBuf};

/// Errors of the data layer. Bad log content is never an error (it is skipped and counted);
/// these are failures of the environment, the index, or of a caller's request.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("I/O error on {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("index database error: {0}")]
    Db(#[from] rusqlite::Error),
    #[error("{0} is not a complete log document yet (being written?)")]
    Incomplete(PathBuf),
    #[error("session '{0}' not found")]
    SessionNotFound(String),
    #[error("session prefix '{prefix}' is shorter than {min} characters")]
    PrefixTooShort { prefix: String, min: usize },
    #[error("session prefix '{prefix}' matches {} sessions: {}", candidates.len(), candidates.join(", "))]
    AmbiguousSession {
        prefix: String,
        candidates: Vec<String>,
    },
    #[error("event {index} not found in session '{session}'")]
    EventNotFound { session: String, index: u32 },
    #[error("the log file of session '{0}' is gone; refresh the index")]
    LogFileGone(String),
    #[error("invalid configuration: {0}")]
    Config(String),
    #[error("index metadata is corrupt: {0}")]
    Corrupt(String),
}

impl Error {
    pub(crate) fn io(path: &Path, source: std::io::Error) -> Self {
        Error::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
