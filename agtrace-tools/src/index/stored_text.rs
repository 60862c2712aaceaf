//! Event texts as `events.text` holds them: short texts as SQLite `TEXT`, longer ones as a zstd
//! frame in a `BLOB`, and those their log line gives back as a 9-byte `BLOB` recording their
//! length and digest ([`InLog`]; the text is read back from the line).
//!
//! The texts are most of the index (tool outputs: code, logs, listings), and they compress
//! about threefold one by one. They are compressed on the parser threads (`pack`), so the one
//! writer thread only writes fewer bytes, and read back ([`StoredText`]) only for the events a
//! call shows: a search page's previews, one event, a file-history prompt. A `TEXT` value is
//! read as it is, so rows written before texts were compressed stay readable.

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ValueRef};
use sha2::{Digest as _, Sha256};
use xxhash_rust::xxh3::xxh3_64;

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

/// The first byte of the value that stands for a text left in its log line ([`InLog`]), by the
/// digest it records: SHA-256 (schema 13) or XXH3 (since schema 14). A zstd frame starts with
/// `0x28`.
const IN_LOG_SHA256: u8 = 0;
const IN_LOG_XXH3: u8 = 1;

/// How an [`InLog`] record digests its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Digest {
    /// The first 4 bytes of SHA-256: records written by schema 13, still read.
    Sha256,
    /// The low 4 bytes of XXH3-64: an order of magnitude faster, and a search page digests
    /// every long text it reads back (SHA-256 was a fifth of that time).
    Xxh3,
}

impl Digest {
    fn tag(self) -> u8 {
        match self {
            Digest::Sha256 => IN_LOG_SHA256,
            Digest::Xxh3 => IN_LOG_XXH3,
        }
    }

    fn of(self, text: &str) -> [u8; 4] {
        match self {
            Digest::Sha256 => {
                let d = Sha256::digest(text.as_bytes());
                [d[0], d[1], d[2], d[3]]
            }
            Digest::Xxh3 => (xxh3_64(text.as_bytes()) as u32).to_le_bytes(),
        }
    }
}

/// What the index records of a text left in its log line: its length and 4 bytes of its digest,
/// so that a line that gives another text when read back (the log rewritten since it was
/// indexed, even to the same length) is known, and never shown as this one. Not a defence
/// against a log forged to collide: whoever can write the logs decides what they say anyway.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InLog {
    bytes: u32,
    how: Digest,
    digest: [u8; 4],
}

impl InLog {
    /// The record of `text`; `None` for a text too long to record (it stays in the index).
    pub(crate) fn of(text: &str) -> Option<Self> {
        Some(InLog {
            bytes: u32::try_from(text.len()).ok()?,
            how: Digest::Xxh3,
            digest: Digest::Xxh3.of(text),
        })
    }

    /// Whether `text` is the text recorded.
    pub(crate) fn is(&self, text: &str) -> bool {
        text.len() == self.bytes as usize && self.how.of(text) == self.digest
    }

    /// The text's length in UTF-8 bytes.
    pub fn bytes(&self) -> u64 {
        u64::from(self.bytes)
    }

    /// The value `events.text` holds: the digest's tag, the length (little-endian), the digest.
    pub(crate) fn encode(&self) -> [u8; 9] {
        let [a, b, c, d] = self.bytes.to_le_bytes();
        let [e, f, g, h] = self.digest;
        [self.how.tag(), a, b, c, d, e, f, g, h]
    }

    fn decode(value: &[u8]) -> Option<Self> {
        let &[tag, a, b, c, d, e, f, g, h] = value else {
            return None;
        };
        let how = match tag {
            IN_LOG_SHA256 => Digest::Sha256,
            IN_LOG_XXH3 => Digest::Xxh3,
            _ => return None,
        };
        Some(InLog {
            bytes: u32::from_le_bytes([a, b, c, d]),
            how,
            digest: [e, f, g, h],
        })
    }
}

/// An event text as the index holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoredText {
    /// The text: a plain `TEXT` value, or a `BLOB` holding its zstd frame.
    Here(String),
    /// Only a record of the text: it is in its log line, parsed again to show it.
    InLog(InLog),
}

impl StoredText {
    /// The text when the index holds it; `None` for one kept in its log line.
    pub(crate) fn kept(self) -> Option<String> {
        match self {
            StoredText::Here(text) => Some(text),
            StoredText::InLog(_) => None,
        }
    }
}

impl FromSql for StoredText {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        match value {
            ValueRef::Text(t) => std::str::from_utf8(t)
                .map(|s| StoredText::Here(s.to_owned()))
                .map_err(|e| FromSqlError::Other(Box::new(e))),
            ValueRef::Blob(b) => match InLog::decode(b) {
                Some(record) => Ok(StoredText::InLog(record)),
                None => unpack(b).map(StoredText::Here),
            },
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
            Ok((r.get(0)?, r.get::<_, StoredText>(1)?.kept().unwrap()))
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
    fn a_text_left_in_its_line_is_known_by_length_and_digest() {
        let text = "walrus ".repeat(50);
        let record = InLog::of(&text).unwrap();
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE t (text TEXT NOT NULL)")
            .unwrap();
        conn.execute("INSERT INTO t VALUES (?1)", [record.encode()])
            .unwrap();
        let back = conn
            .query_row("SELECT text FROM t", [], |r| r.get::<_, StoredText>(0))
            .unwrap();
        assert_eq!(
            back,
            StoredText::InLog(record),
            "kept as a blob despite TEXT affinity"
        );
        assert_eq!(record.bytes(), text.len() as u64);
        assert!(record.is(&text));
        let same_length = text.replacen("walrus", "badger", 1);
        assert!(!record.is(&same_length), "another text of the same length");
        assert!(!record.is(&text[1..]));
        // A frame never reads as a record: it starts with zstd's magic number.
        assert_eq!(pack(&text).unwrap()[0], 0x28);
    }

    #[test]
    fn a_record_of_schema_13_is_still_checked_by_its_sha_256() {
        let text = "walrus ".repeat(50);
        let sha = Sha256::digest(text.as_bytes());
        let len = (text.len() as u32).to_le_bytes();
        let old = [
            0, len[0], len[1], len[2], len[3], sha[0], sha[1], sha[2], sha[3],
        ];
        let conn = Connection::open_in_memory().unwrap();
        let back = conn
            .query_row("SELECT ?1", [old], |r| r.get::<_, StoredText>(0))
            .unwrap();
        let StoredText::InLog(record) = back else {
            panic!("{back:?}");
        };
        assert!(record.is(&text));
        assert!(!record.is(&text.replacen("walrus", "badger", 1)));
        assert_eq!(record.encode(), old, "written back as it was read");
        // Records written today use the other tag, and do not read as SHA-256 ones.
        let new = InLog::of(&text).unwrap().encode();
        assert_eq!(new[0], 1);
        assert_ne!(new[5..], old[5..]);
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
