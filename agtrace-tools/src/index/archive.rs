//! History that outlives the agents' cleanup: an opt-in compressed copy of every indexed log.
//!
//! Claude Code deletes transcripts after 30 days by default. With [`Config::archive`] on, each
//! refresh copies what it indexed into `<data dir>/archive/` as zstd, and a session whose log
//! is later deleted keeps its index rows and is read back from the copy, marked as archived.
//! The log roots are never written.
//!
//! An append-only log (one record a line) grows its copy by one zstd frame per append:
//! concatenated frames decompress to the concatenated bytes, so a growing log is never
//! compressed twice. A log rewritten in place (a Gemini document, a journal that rewinds) is
//! copied whole again. Every write lands in the file before its row says so, and a copy whose
//! length is not the one its row records is rewritten whole, so a crash between the two never
//! leaves a copy that claims bytes it does not hold.
//!
//! Copies already made are honoured with the setting off: turning it off stops new copies, it
//! does not drop kept history.
//!
//! The copies hold the logs as they are, secrets included, so on Unix they are private to
//! their owner whatever the umask: files mode 0600 in folders mode 0700, and a copy or folder
//! an older agtrace left readable by others is tightened when it is next written.
//!
//! [`Config::archive`]: crate::config::Config::archive

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::config::Config;
use crate::error::{Error, Result};
use crate::model::Provider;
use crate::providers::{FileHint, Layout};

/// zstd level: logs are repetitive JSON, and level 3 already shrinks them about tenfold at a
/// few hundred MB/s; higher levels cost far more time than the space they save.
const LEVEL: i32 = 3;

/// The `archive` table, one row per copied log (an added table: older versions ignore it).
/// `raw_len`: log bytes the copy holds; `stored_len`: the copy's own length; `mtime_ns`,
/// `head_hash`: the `files` row's values when it was copied; `gone_ms`: when the log was
/// found deleted (its session now answers from the copy), NULL while it exists.
pub(super) const TABLE: &str = r#"
CREATE TABLE IF NOT EXISTS archive (
    path TEXT PRIMARY KEY,
    raw_len INTEGER NOT NULL,
    stored_len INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    head_hash TEXT NOT NULL,
    gone_ms INTEGER
) WITHOUT ROWID;
"#;

/// What the archive holds after a refresh.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArchiveStats {
    /// Logs with a copy.
    pub files: u64,
    /// Log bytes the copies hold.
    pub raw_bytes: u64,
    /// Bytes the copies take on disk.
    pub stored_bytes: u64,
    /// Logs deleted by their agent whose sessions the copies keep.
    pub kept_files: u64,
    /// Log bytes of those deleted logs: space the agents reclaimed that agtrace still answers
    /// from.
    pub kept_raw_bytes: u64,
    /// Copies written or grown by this refresh.
    pub copied: u64,
}

/// Where the copy of the log at `path` (an index key) lives: named by a hash of the path, so
/// any path, however long or odd, maps to a plain file name.
pub fn copy_file(data_dir: &Path, path: &str) -> PathBuf {
    let d = Sha256::digest(path.as_bytes());
    let hex: String = d.iter().take(16).map(|b| format!("{b:02x}")).collect();
    data_dir
        .join("archive")
        .join(&hex[..2])
        .join(format!("{hex}.zst"))
}

fn compress(bytes: &[u8], copy: &Path) -> Result<Vec<u8>> {
    zstd::bulk::compress(bytes, LEVEL).map_err(|e| Error::io(copy, e))
}

/// The log bytes a copy holds: every frame, decompressed and joined.
fn decompress(copy: &Path) -> Result<Vec<u8>> {
    let file = File::open(copy).map_err(|e| Error::io(copy, e))?;
    let mut out = Vec::new();
    zstd::stream::read::Decoder::new(file)
        .and_then(|mut d| d.read_to_end(&mut out))
        .map_err(|e| Error::Corrupt(format!("archived copy {} is damaged: {e}", copy.display())))?;
    Ok(out)
}

struct Pending {
    path: String,
    provider: i64,
    size: u64,
    mtime_ns: i64,
    head_hash: String,
    copy: Option<Copied>,
}

struct Copied {
    raw_len: u64,
    stored_len: u64,
    head_hash: String,
    gone: bool,
}

/// Whether bytes past `raw_len` can be added as a frame instead of copying the log again:
/// the log is append-only by layout, starts as it did, and the copy is as its row says.
fn can_append(p: &Pending, c: &Copied, copy: &Path) -> bool {
    let appends = Provider::from_code(p.provider)
        .is_some_and(|prov| FileHint::from_path(prov, Path::new(&p.path)).layout == Layout::Lines);
    appends
        && p.size > c.raw_len
        && p.head_hash == c.head_hash
        && fs::metadata(copy).is_ok_and(|m| m.len() == c.stored_len)
}

/// Reads `len` bytes of `file` from `start`; `None` when the file is shorter (it changed since
/// it was indexed: the next refresh copies it).
fn read_range(file: &mut File, start: u64, len: u64) -> std::io::Result<Option<Vec<u8>>> {
    file.seek(SeekFrom::Start(start))?;
    let mut buf = Vec::with_capacity(len as usize);
    file.take(len).read_to_end(&mut buf)?;
    Ok((buf.len() as u64 == len).then_some(buf))
}

/// Mode of the archive's folders and copies on Unix: the owner's only.
#[cfg(unix)]
const DIR_MODE: u32 = 0o700;
#[cfg(unix)]
const FILE_MODE: u32 = 0o600;

/// Creates the folders of `copy` (`archive/` and its hash folder), or tightens them: set
/// explicitly, since `create_dir_all` applies the umask, which commonly leaves 0755.
fn private_folders(copy: &Path) -> std::io::Result<()> {
    let dir = copy.parent().expect("a copy path has a folder");
    fs::create_dir_all(dir)?;
    #[cfg(unix)]
    {
        let root = dir.parent().expect("the hash folder is inside archive/");
        for d in [root, dir] {
            tighten(d, DIR_MODE)?;
        }
    }
    Ok(())
}

/// Sets `path`'s mode to `mode` if others (group, world) can use it.
#[cfg(unix)]
fn tighten(path: &Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    if fs::metadata(path)?.permissions().mode() & 0o077 != 0 {
        fs::set_permissions(path, fs::Permissions::from_mode(mode))?;
    }
    Ok(())
}

/// Creates a new file, private from its first byte on Unix.
fn create_private(path: &Path) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(FILE_MODE);
    }
    options.open(path)
}

fn write_whole(copy: &Path, frame: &[u8]) -> std::io::Result<()> {
    private_folders(copy)?;
    let tmp = copy.with_extension(format!("zst.{}.tmp", std::process::id()));
    {
        let mut f = create_private(&tmp)?;
        // A leftover of a crashed run keeps the mode it was made with.
        #[cfg(unix)]
        tighten(&tmp, FILE_MODE)?;
        f.write_all(frame)?;
        f.sync_all()?;
    }
    fs::rename(&tmp, copy)
}

fn append_frame(copy: &Path, frame: &[u8]) -> std::io::Result<()> {
    private_folders(copy)?;
    #[cfg(unix)]
    tighten(copy, FILE_MODE)?;
    let mut f = OpenOptions::new().append(true).open(copy)?;
    f.write_all(frame)?;
    f.sync_all()
}

/// Brings the copies up to date with the `files` rows; with `copy_new` off (the setting is
/// off) only notes logs that came back. Returns what the archive holds.
pub(super) fn sync(conn: &mut Connection, cfg: &Config, copy_new: bool) -> Result<ArchiveStats> {
    let mut stats = ArchiveStats::default();
    // Every refresh comes here (each tool call's, while serving): with the setting off and no
    // copy ever made there is nothing to note, and no reason to take the write lock.
    if !copy_new {
        let any: bool = conn.query_row("SELECT EXISTS(SELECT 1 FROM archive)", [], |r| r.get(0))?;
        if !any {
            return Ok(stats);
        }
    }
    // One writer at a time: two processes growing the same copy would each add the frame.
    let conn = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let pending: Vec<Pending> = {
        let mut st = conn.prepare(
            "SELECT f.path, f.provider, f.size, f.mtime_ns, f.head_hash,
                    a.raw_len, a.stored_len, a.head_hash, a.gone_ms IS NOT NULL
             FROM files f LEFT JOIN archive a ON a.path = f.path
             WHERE a.path IS NULL OR a.gone_ms IS NOT NULL
                OR a.mtime_ns != f.mtime_ns OR a.raw_len != f.size",
        )?;
        st.query_map([], |r| {
            let copy = match r.get::<_, Option<i64>>(5)? {
                None => None,
                Some(raw_len) => Some(Copied {
                    raw_len: raw_len as u64,
                    stored_len: r.get::<_, i64>(6)? as u64,
                    head_hash: r.get(7)?,
                    gone: r.get(8)?,
                }),
            };
            Ok(Pending {
                path: r.get(0)?,
                provider: r.get(1)?,
                size: r.get::<_, i64>(2)? as u64,
                mtime_ns: r.get(3)?,
                head_hash: r.get(4)?,
                copy,
            })
        })?
        .collect::<rusqlite::Result<_>>()?
    };
    for p in pending {
        let copy = copy_file(&cfg.data_dir, &p.path);
        if p.copy.as_ref().is_some_and(|c| c.gone) {
            // Held for a log that was gone: it is back, and is copied again if it changed.
            if Path::new(&p.path).exists() {
                conn.execute(
                    "UPDATE archive SET gone_ms = NULL WHERE path = ?1",
                    [&p.path],
                )?;
            } else {
                continue;
            }
        }
        if !copy_new {
            continue;
        }
        let Ok(mut file) = File::open(&p.path) else {
            continue; // Deleted since the refresh: the next one holds or drops it.
        };
        let written = match &p.copy {
            Some(c) if can_append(&p, c, &copy) => {
                let Some(bytes) = read_range(&mut file, c.raw_len, p.size - c.raw_len)
                    .map_err(|e| Error::io(Path::new(&p.path), e))?
                else {
                    continue;
                };
                let frame = compress(&bytes, &copy)?;
                append_frame(&copy, &frame).map_err(|e| Error::io(&copy, e))?;
                c.stored_len + frame.len() as u64
            }
            _ => {
                let Some(bytes) = read_range(&mut file, 0, p.size)
                    .map_err(|e| Error::io(Path::new(&p.path), e))?
                else {
                    continue;
                };
                let frame = compress(&bytes, &copy)?;
                write_whole(&copy, &frame).map_err(|e| Error::io(&copy, e))?;
                frame.len() as u64
            }
        };
        conn.execute(
            "INSERT INTO archive(path, raw_len, stored_len, mtime_ns, head_hash, gone_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, NULL)
             ON CONFLICT(path) DO UPDATE SET raw_len = ?2, stored_len = ?3, mtime_ns = ?4,
                 head_hash = ?5, gone_ms = NULL",
            params![
                p.path,
                p.size as i64,
                written as i64,
                p.mtime_ns,
                p.head_hash
            ],
        )?;
        stats.copied += 1;
    }
    let (files, raw, stored, kept, kept_raw): (i64, i64, i64, i64, i64) = conn.query_row(
        "SELECT count(*), coalesce(sum(raw_len), 0), coalesce(sum(stored_len), 0),
                count(gone_ms), coalesce(sum(CASE WHEN gone_ms IS NOT NULL THEN raw_len END), 0)
         FROM archive",
        [],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
    )?;
    conn.commit()?;
    stats.files = files as u64;
    stats.raw_bytes = raw as u64;
    stats.stored_bytes = stored as u64;
    stats.kept_files = kept as u64;
    stats.kept_raw_bytes = kept_raw as u64;
    Ok(stats)
}

/// Of the logs `gone` (indexed, no longer found), those with a whole copy are held: marked
/// gone from `now_ms` and kept; the rest are returned, to be dropped from the index.
pub(super) fn hold_gone(
    conn: &Connection,
    cfg: &Config,
    gone: Vec<String>,
    now_ms: i64,
) -> Result<Vec<String>> {
    let mut dropped = Vec::new();
    for path in gone {
        let row: Option<(i64, i64)> = conn
            .query_row(
                "SELECT a.stored_len, a.raw_len = f.size FROM archive a JOIN files f USING (path)
                 WHERE a.path = ?1",
                [&path],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        let whole = row.is_some_and(|(stored, same)| {
            same == 1
                && fs::metadata(copy_file(&cfg.data_dir, &path))
                    .is_ok_and(|m| m.len() == stored as u64)
        });
        if whole {
            conn.execute(
                "UPDATE archive SET gone_ms = coalesce(gone_ms, ?2) WHERE path = ?1",
                params![path, now_ms],
            )?;
        } else {
            dropped.push(path);
        }
    }
    Ok(dropped)
}

/// The log bytes of `path` from its copy: all that was indexed of it, whether or not the log
/// still exists; `None` without a whole copy.
pub(crate) fn read_copy(conn: &Connection, data_dir: &Path, path: &str) -> Result<Option<Vec<u8>>> {
    let raw_len: Option<i64> = conn
        .query_row(
            "SELECT a.raw_len FROM archive a JOIN files f USING (path)
             WHERE a.path = ?1 AND a.raw_len = f.size",
            [path],
            |r| r.get(0),
        )
        .optional()?;
    let Some(raw_len) = raw_len else {
        return Ok(None);
    };
    read_whole(&copy_file(data_dir, path), raw_len as u64).map(Some)
}

/// The log bytes of the copy at `copy`, which its row says holds `raw_len` of them; an error
/// for a copy that holds another length.
pub(crate) fn read_whole(copy: &Path, raw_len: u64) -> Result<Vec<u8>> {
    let bytes = decompress(copy)?;
    if bytes.len() as u64 != raw_len {
        return Err(Error::Corrupt(format!(
            "archived copy {} holds {} bytes where {raw_len} were copied",
            copy.display(),
            bytes.len()
        )));
    }
    Ok(bytes)
}
