//! The word index's tokens, made on the parser threads.
//!
//! One writer thread bounds a bulk build, and tokenizing the event texts (FTS5's `unicode61`,
//! with `remove_diacritics 2`) was a tenth of its time. So `events_fts` is declared with the
//! [`TOKENIZER`] registered here: a document it receives is already a list of tokens, made
//! by the same `unicode61` on a parser thread ([`Unicode61::tokens`]), and only needs splitting
//! on spaces; queries are handed to `unicode61` itself. A document and a query therefore get
//! exactly the tokens they got before, from the same code.
//!
//! `unicode61` tokens never hold a space (it separates tokens), and a UTF-8 text holds the byte
//! of a space only as a space, so joining tokens with single spaces loses nothing.

use std::ffi::{CStr, c_char, c_int, c_void};
use std::ptr;

use rusqlite::Connection;
use rusqlite::ffi;

use crate::error::{Error, Result};

/// The name `events_fts` declares as its tokenizer.
pub const TOKENIZER: &str = "agtrace_tokens";

const TOKENIZER_C: &CStr = c"agtrace_tokens";
const UNICODE61: &CStr = c"unicode61";
const REMOVE_DIACRITICS: &CStr = c"remove_diacritics";
const TWO: &CStr = c"2";

type TokenCallback =
    unsafe extern "C" fn(*mut c_void, c_int, *const c_char, c_int, c_int, c_int) -> c_int;

fn sqlite_error(what: &str, rc: c_int) -> Error {
    Error::Corrupt(format!(
        "FTS5 tokenizer: {what} failed with SQLite code {rc}"
    ))
}

/// The FTS5 API of `conn`: valid while `conn` is open.
fn fts5_api(conn: &Connection) -> Result<*mut ffi::fts5_api> {
    let mut api: *mut ffi::fts5_api = ptr::null_mut();
    // SAFETY: the documented way to reach the FTS5 API (https://sqlite.org/fts5.html, section
    // "Extending FTS5"): `SELECT fts5(?1)` writes the pointer into the bound one. The statement
    // is prepared, stepped and finalized here on `conn`'s own handle, which outlives it.
    unsafe {
        let db = conn.handle();
        let mut stmt: *mut ffi::sqlite3_stmt = ptr::null_mut();
        let rc = ffi::sqlite3_prepare_v2(
            db,
            c"SELECT fts5(?1)".as_ptr(),
            -1,
            &mut stmt,
            ptr::null_mut(),
        );
        if rc != ffi::SQLITE_OK {
            return Err(sqlite_error("SELECT fts5(?1)", rc));
        }
        ffi::sqlite3_bind_pointer(
            stmt,
            1,
            (&mut api as *mut *mut ffi::fts5_api).cast(),
            c"fts5_api_ptr".as_ptr(),
            None,
        );
        ffi::sqlite3_step(stmt);
        let rc = ffi::sqlite3_finalize(stmt);
        if rc != ffi::SQLITE_OK || api.is_null() {
            return Err(sqlite_error("finding the FTS5 API", rc));
        }
    }
    Ok(api)
}

/// A `unicode61 remove_diacritics 2` tokenizer instance.
struct Inner {
    methods: ffi::fts5_tokenizer,
    instance: *mut ffi::Fts5Tokenizer,
}

impl Inner {
    /// # Safety
    /// `api` must be a live FTS5 API pointer.
    unsafe fn new(api: *mut ffi::fts5_api) -> std::result::Result<Self, c_int> {
        // SAFETY: per the caller's contract; the out-pointers are valid locals.
        unsafe {
            let find = (*api).xFindTokenizer.ok_or(ffi::SQLITE_ERROR)?;
            let mut user: *mut c_void = ptr::null_mut();
            let mut methods: ffi::fts5_tokenizer = std::mem::zeroed();
            let rc = find(api, UNICODE61.as_ptr(), &mut user, &mut methods);
            if rc != ffi::SQLITE_OK {
                return Err(rc);
            }
            let create = methods.xCreate.ok_or(ffi::SQLITE_ERROR)?;
            let mut args = [REMOVE_DIACRITICS.as_ptr(), TWO.as_ptr()];
            let mut instance: *mut ffi::Fts5Tokenizer = ptr::null_mut();
            let rc = create(user, args.as_mut_ptr(), 2, &mut instance);
            if rc != ffi::SQLITE_OK {
                return Err(rc);
            }
            Ok(Inner { methods, instance })
        }
    }

    /// # Safety
    /// `ctx` must be what `callback` expects.
    unsafe fn tokenize(
        &self,
        ctx: *mut c_void,
        flags: c_int,
        text: *const c_char,
        len: c_int,
        callback: Option<TokenCallback>,
    ) -> c_int {
        match self.methods.xTokenize {
            // SAFETY: `instance` was created by these methods and is alive until drop.
            Some(tokenize) => unsafe { tokenize(self.instance, ctx, flags, text, len, callback) },
            None => ffi::SQLITE_ERROR,
        }
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        if let Some(delete) = self.methods.xDelete {
            // SAFETY: created by `xCreate` of the same methods, deleted once.
            unsafe { delete(self.instance) }
        }
    }
}

/// `unicode61` for a parser thread: the tokens [`TOKENIZER`] expects of a document.
pub struct Unicode61 {
    inner: Inner,
    // Declared after `inner`, so dropped after it: the FTS5 module the tokenizer came from.
    _conn: Connection,
}

// SAFETY: the tokenizer instance is used by one thread at a time (`&mut self`), and
// `unicode61` keeps no state outside its instance.
unsafe impl Send for Unicode61 {}

impl Unicode61 {
    /// A tokenizer of its own (on an in-memory connection of its own).
    pub fn new() -> Result<Self> {
        let conn = Connection::open_in_memory()?;
        let api = fts5_api(&conn)?;
        // SAFETY: `api` belongs to `conn`, kept alive beside the instance.
        let inner = unsafe { Inner::new(api) }.map_err(|rc| sqlite_error("unicode61", rc))?;
        Ok(Unicode61 { inner, _conn: conn })
    }

    /// The tokens of `text`, joined by single spaces: what an insert into `events_fts` passes
    /// for it. Bytes, bound as a blob: FTS5 reads a blob's bytes as text, and `unicode61` emits
    /// whole UTF-8 characters, so checking them again (a tenth of a parser thread's time) is
    /// skipped.
    pub fn tokens(&mut self, text: &str) -> Vec<u8> {
        unsafe extern "C" fn push(
            ctx: *mut c_void,
            _flags: c_int,
            token: *const c_char,
            len: c_int,
            _start: c_int,
            _end: c_int,
        ) -> c_int {
            // SAFETY: `ctx` is the `Vec<u8>` passed below; `token` points at `len` bytes.
            unsafe {
                let out = &mut *ctx.cast::<Vec<u8>>();
                if !out.is_empty() {
                    out.push(b' ');
                }
                out.extend_from_slice(std::slice::from_raw_parts(token.cast(), len as usize));
            }
            ffi::SQLITE_OK
        }
        // Folded tokens and their separators are about as long as the text.
        let mut bytes = Vec::with_capacity(text.len());
        let len = c_int::try_from(text.len()).unwrap_or(c_int::MAX);
        // SAFETY: `bytes` outlives the call and is what `push` expects.
        unsafe {
            self.inner.tokenize(
                (&mut bytes as *mut Vec<u8>).cast(),
                ffi::FTS5_TOKENIZE_DOCUMENT,
                text.as_ptr().cast(),
                len,
                Some(push),
            );
        }
        bytes
    }
}

/// Registers [`TOKENIZER`] on `conn`: every connection that reads or writes `events_fts`.
pub fn register(conn: &Connection) -> Result<()> {
    let api = fts5_api(conn)?;
    let mut methods = ffi::fts5_tokenizer {
        xCreate: Some(create),
        xDelete: Some(delete),
        xTokenize: Some(tokenize),
    };
    // SAFETY: `api` is `conn`'s, whose lifetime bounds every use of the tokenizer; the user
    // data is that same pointer, used by `create` only.
    let rc = unsafe {
        match (*api).xCreateTokenizer {
            Some(register) => register(api, TOKENIZER_C.as_ptr(), api.cast(), &mut methods, None),
            None => ffi::SQLITE_ERROR,
        }
    };
    if rc != ffi::SQLITE_OK {
        return Err(sqlite_error("registering agtrace_tokens", rc));
    }
    Ok(())
}

unsafe extern "C" fn create(
    user: *mut c_void,
    _args: *mut *const c_char,
    _count: c_int,
    out: *mut *mut ffi::Fts5Tokenizer,
) -> c_int {
    // SAFETY: `user` is the FTS5 API pointer given at registration.
    match unsafe { Inner::new(user.cast()) } {
        Ok(inner) => {
            // SAFETY: FTS5 passes a valid out-pointer.
            unsafe { *out = Box::into_raw(Box::new(inner)).cast() };
            ffi::SQLITE_OK
        }
        Err(rc) => rc,
    }
}

unsafe extern "C" fn delete(tokenizer: *mut ffi::Fts5Tokenizer) {
    // SAFETY: made by `create` from a `Box<Inner>`; FTS5 deletes it once.
    drop(unsafe { Box::from_raw(tokenizer.cast::<Inner>()) });
}

unsafe extern "C" fn tokenize(
    tokenizer: *mut ffi::Fts5Tokenizer,
    ctx: *mut c_void,
    flags: c_int,
    text: *const c_char,
    len: c_int,
    callback: Option<TokenCallback>,
) -> c_int {
    // SAFETY: made by `create`; alive until `delete`.
    let inner = unsafe { &*tokenizer.cast::<Inner>() };
    if flags != ffi::FTS5_TOKENIZE_DOCUMENT {
        // SAFETY: the arguments FTS5 gave us, passed on unchanged.
        return unsafe { inner.tokenize(ctx, flags, text, len, callback) };
    }
    let Some(callback) = callback else {
        return ffi::SQLITE_OK;
    };
    if text.is_null() || len <= 0 {
        return ffi::SQLITE_OK;
    }
    // SAFETY: FTS5 passes `len` readable bytes.
    let bytes = unsafe { std::slice::from_raw_parts(text.cast::<u8>(), len as usize) };
    let mut start = 0usize;
    for piece in bytes.split(|&b| b == b' ') {
        let end = start + piece.len();
        if !piece.is_empty() {
            // SAFETY: `piece` lies inside `bytes`; offsets fit in `len`.
            let rc = unsafe {
                callback(
                    ctx,
                    0,
                    piece.as_ptr().cast(),
                    piece.len() as c_int,
                    start as c_int,
                    end as c_int,
                )
            };
            if rc != ffi::SQLITE_OK {
                return rc;
            }
        }
        start = end + 1;
    }
    ffi::SQLITE_OK
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> String {
        String::from_utf8(Unicode61::new().unwrap().tokens(text)).unwrap()
    }

    #[test]
    fn tokens_are_unicode61_s_folded_words() {
        assert_eq!(
            tokens("Naïve CAFÉ, ZEBRA-4471 hoge.py"),
            "naive cafe zebra 4471 hoge py"
        );
        assert_eq!(tokens("全文検索機能 in Rust製"), "全文検索機能 in rust製");
        assert_eq!(tokens("  ...  "), "");
    }

    /// The same texts found the same way whether the table tokenizes them itself
    /// (`unicode61`) or gets them as tokens (`agtrace_tokens`).
    #[test]
    fn a_table_fed_tokens_answers_as_unicode61_does() {
        let conn = Connection::open_in_memory().unwrap();
        register(&conn).unwrap();
        conn.execute_batch(
            "CREATE VIRTUAL TABLE a USING fts5(text, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
             CREATE VIRTUAL TABLE b USING fts5(text, content='', contentless_delete=1, tokenize='agtrace_tokens');",
        )
        .unwrap();
        let texts = [
            "Naïve café owner fixed ZEBRA-4471",
            "error: could not compile `agtrace` (lib) due to 3 previous errors",
            "我们需要修复搜索功能的错误。한국어검색",
            "NAÏVE Ὀδυσσεύς straße ǅemal ﬁle ２０２６",
            "std::io::Error in src/index/fts_tokens.rs:42",
        ];
        let mut tok = Unicode61::new().unwrap();
        for (i, t) in (0i64..).zip(texts) {
            conn.execute(
                "INSERT INTO a(rowid, text) VALUES (?1, ?2)",
                rusqlite::params![i, t],
            )
            .unwrap();
            let pre = tok.tokens(t);
            conn.execute(
                "INSERT INTO b(rowid, text) VALUES (?1, ?2)",
                rusqlite::params![i, pre],
            )
            .unwrap();
        }
        conn.execute("DELETE FROM a WHERE rowid = 1", []).unwrap();
        conn.execute("DELETE FROM b WHERE rowid = 1", []).unwrap();
        let hits = |table: &str, q: &str| -> Vec<i64> {
            let mut st = conn
                .prepare(&format!(
                    "SELECT rowid FROM {table} WHERE {table} MATCH ?1 ORDER BY rowid"
                ))
                .unwrap();
            st.query_map([q], |r| r.get(0))
                .unwrap()
                .map(|r| r.unwrap())
                .collect()
        };
        let queries = [
            "naive",
            "\"NAÏVE\"",
            "\"zebra-4471\"",
            "caf*",
            "error",
            "\"한국어검색\"",
            "ὀδυσσευς",
            "strasse",
            "straße",
            "\"src/index\"",
            "2026",
            "file",
        ];
        for q in queries {
            assert_eq!(hits("a", q), hits("b", q), "query {q}");
        }
        assert_eq!(hits("b", "naive"), vec![0, 3]);
        assert_eq!(hits("b", "error"), vec![4], "row 1 was deleted");
        assert_eq!(hits("b", "\"std io\""), vec![4]);
    }
}
