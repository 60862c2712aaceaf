//! Columns that hold codes (provider, event kind) read back into their types. A code that does
//! not decode means the index was damaged or written by something else: that is an error
//! ([`Error::CorruptIndex`]), never a default that would put a session under the wrong agent.

use rusqlite::Row;
use rusqlite::types::Type;

use crate::error::Error;
use crate::model::{EventKind, Provider};

/// Which column a code came from, for the error that names it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Column {
    pub(crate) table: &'static str,
    pub(crate) name: &'static str,
}

pub(crate) const SESSION_PROVIDER: Column = Column {
    table: "sessions",
    name: "provider",
};
pub(crate) const EVENT_KIND: Column = Column {
    table: "events",
    name: "kind",
};

/// The error a row-mapping closure returns for an undecodable code; rusqlite carries it out
/// and [`Error`]'s `From<rusqlite::Error>` turns it back into [`Error::CorruptIndex`].
#[derive(Debug)]
pub(crate) struct Undecodable {
    pub(crate) column: Column,
    pub(crate) value: i64,
}

impl std::fmt::Display for Undecodable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}.{} holds {}, which decodes to nothing",
            self.column.table, self.column.name, self.value
        )
    }
}

impl std::error::Error for Undecodable {}

impl From<Undecodable> for Error {
    fn from(u: Undecodable) -> Self {
        Error::CorruptIndex {
            table: u.column.table,
            column: u.column.name,
            value: u.value.to_string(),
        }
    }
}

/// A code column that does not decode comes out of rusqlite as a conversion failure carrying
/// the index's own marker; it is `CorruptIndex`, every other database error is `Db`.
impl From<rusqlite::Error> for Error {
    fn from(e: rusqlite::Error) -> Self {
        match e {
            rusqlite::Error::FromSqlConversionFailure(idx, ty, inner) => {
                match inner.downcast::<Undecodable>() {
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

fn code<T>(
    column: Column,
    value: i64,
    decode: impl Fn(i64) -> Option<T>,
) -> Result<T, Undecodable> {
    decode(value).ok_or(Undecodable { column, value })
}

pub(crate) fn provider(column: Column, value: i64) -> Result<Provider, Undecodable> {
    code(column, value, Provider::from_code)
}

pub(crate) fn event_kind(column: Column, value: i64) -> Result<EventKind, Undecodable> {
    code(column, value, EventKind::from_code)
}

/// [`provider`] on column `idx` of a row, inside a rusqlite row-mapping closure.
pub(crate) fn provider_at(r: &Row, idx: usize, column: Column) -> rusqlite::Result<Provider> {
    provider(column, r.get(idx)?).map_err(|e| in_row(idx, e))
}

/// [`event_kind`] on column `idx` of a row, inside a rusqlite row-mapping closure.
pub(crate) fn event_kind_at(r: &Row, idx: usize, column: Column) -> rusqlite::Result<EventKind> {
    event_kind(column, r.get(idx)?).map_err(|e| in_row(idx, e))
}

fn in_row(idx: usize, e: Undecodable) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(idx, Type::Integer, Box::new(e))
}
