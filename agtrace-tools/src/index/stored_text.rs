//! Event texts as `events.text` holds them: short texts as SQLite `TEXT`, longer ones as a zstd
//! frame in a `BLOB`.
//!
//! The texts are most of the index (tool outputs: code, logs, listings), and they compress
//! about threefold one by one. They are compressed on the parser threads (`pack`), so the one
//! writer thread only writes fewer bytes, and read back ([`StoredText`]) only for the events a
//! call shows: a search page's previews, one event, a file-history prompt. A `TEXT` value is
//! read as it is, so rows written before texts were compressed stay readable.

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ValueRef};

/// Texts shorter than this stay plain: a zstd frame's header and the lost sharing of a short
/// text's words leave little to gain, and most events (prompts, calls) are short.
pub(crate) const MIN_PACKED_BYTES: usize = 256;

/// zstd level: 3 is zstd's default, several hundred MB/s per core, spread over the parser
/// threads.
const LEVEL: i32 = 3;

/// No event text is this large (a log line is read whole into memory to be parsed): a frame
/// that claims more is damaged, and is not given the memory it claims.
const MAX_TEXT_BYTES: u64 = 1 << 30;

/// The compressed form of `text`, or `None` when it is stored plain: shorter than
/// [`MIN_PACKED_BYTES`], or not made smaller by compression.
pub(crate) fn pack(text: &str) -> Option<Vec<u8>> {
    if text.len() < MIN_PACKED_BYTES {
        return None;
    }
    let packed = zstd::bulk::compress(text.as_bytes(), LEVEL).ok()?;
    (packed.len() < text.len()).then_some(packed)
}

/// An event text read from the index: a plain `TEXT` value, or a `BLOB` holding its zstd frame.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StoredText(pub String);

impl FromSql for StoredText {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        match value {
            ValueRef::Text(t) => std::str::from_utf8(t)
                .map(|s| StoredText(s.to_owned()))
                .map_err(|e| FromSqlError::Other(Box::new(e))),
            ValueRef::Blob(b) => unpack(b).map(StoredText),
            _ => Err(FromSqlError::InvalidType),
        }
    }
}

fn unpack(frame: &[u8]) -> FromSqlResult<String> {
    // The frame records its content size (`bulk::compress` writes it); a frame without one, or
    // a damaged frame, is a corrupt row.
    let size = zstd::zstd_safe::get_frame_content_size(frame)
        .ok()
        .flatten()
        .filter(|&n| n <= MAX_TEXT_BYTES)
        .ok_or_else(|| {
            FromSqlError::Other(
                "an event text's zstd frame has no size, or an impossible one".into(),
            )
        })?;
    let bytes = zstd::bulk::decompress(frame, size as usize)
        .map_err(|e| FromSqlError::Other(Box::new(e)))?;
    String::from_utf8(bytes).map_err(|e| FromSqlError::Other(Box::new(e)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rusqlite::Connection;

    fn round_trip(text: &str) -> (String, String) {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE t (text TEXT NOT NULL)")
            .unwrap();
        match pack(text) {
            Some(blob) => conn.execute("INSERT INTO t VALUES (?1)", [blob]),
            None => conn.execute("INSERT INTO t VALUES (?1)", [text]),
        }
        .unwrap();
        conn.query_row("SELECT typeof(text), text FROM t", [], |r| {
            Ok((r.get(0)?, r.get::<_, StoredText>(1)?.0))
        })
        .unwrap()
    }

    #[test]
    fn short_texts_stay_plain_and_long_ones_come_back_whole() {
        assert_eq!(round_trip("ls -la"), ("text".into(), "ls -la".into()));
        let long = "error[E0382]: borrow of moved value: `x` 日本語 über\n".repeat(40);
        assert_eq!(round_trip(&long), ("blob".into(), long));
    }

    #[test]
    fn a_damaged_frame_is_an_error_not_a_wrong_text() {
        let conn = Connection::open_in_memory().unwrap();
        let mut blob = pack(&"abc ".repeat(200)).unwrap();
        let at = blob.len() / 2;
        blob.truncate(at);
        let got = conn.query_row("SELECT ?1", [blob], |r| r.get::<_, StoredText>(0));
        assert!(got.is_err(), "{got:?}");
    }
}
