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
    Db(rusqlite::Error),
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
    #[error(
        "the index is corrupt: {table}.{column} holds {value}, which is not a valid value; delete the index to rebuild it"
    )]
    CorruptIndex {
        table: &'static str,
        column: &'static str,
        value: String,
    },
}

/// A code column that does not decode comes out of rusqlite as a conversion failure carrying
/// the index's own marker; it is `CorruptIndex`, every other database error is `Db`.
impl From<rusqlite::Error> for Error {
    fn from(e: rusqlite::Error) -> Self {
        match e {
            rusqlite::Error::FromSqlConversionFailure(idx, ty, inner) => {
                match inner.downcast::<crate::index::decode::Undecodable>() {
                    Ok(u) => (*u).into(),
                    Err(inner) => {
                        Error::Db(rusqlite::Error::FromSqlConversionFailure(idx, ty, inner))
                    }
                }
            }
            e => Error::Db(e),
        }
    }
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
