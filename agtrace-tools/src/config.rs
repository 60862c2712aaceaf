//! Where the logs and the index live.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::model::Provider;

/// Log bytes kept parsed at most, unless configured ([`Config::session_cache_bytes`]).
/// Parsed events with their raw records take a few times the size of their file, so this
/// bounds the session cache to a few hundred MB of memory.
pub const DEFAULT_SESSION_CACHE_BYTES: u64 = 128 << 20;

/// Log roots and the index directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// The log root of each provider, in [`Provider::ALL`] order (see [`Config::root`]).
    roots: Vec<PathBuf>,
    /// Directory holding the index database (never inside a log root).
    pub data_dir: PathBuf,
    /// Log bytes of sessions kept parsed between tool calls; 0 re-reads the file every call.
    pub session_cache_bytes: u64,
    /// Index and answer secrets of well-known formats (API keys, tokens, private keys) as they
    /// are in the logs instead of as `[REDACTED:<kind>]` ([`crate::secrets`]). Off by default:
    /// then the index never holds them. The index records the choice it was built with, and
    /// opening it with the other rebuilds it (`index::masking`).
    pub show_secrets: bool,
    /// Keep a zstd copy of every indexed log in `<data_dir>/archive`, so that sessions whose
    /// log the agent later deletes still answer, marked as archived ([`crate::index`]'s
    /// archive module). Off by default; the log roots are never written either way.
    pub archive: bool,
}

/// Whether an environment variable is set to a true value (`1`, `true`, `yes`, `on`).
fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| {
        matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "1" | "true" | "yes" | "on"
        )
    })
}

fn home() -> PathBuf {
    std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// The platform data directory for agtrace (`$XDG_DATA_HOME/agtrace`, `~/.local/share/agtrace`,
/// `~/Library/Application Support/agtrace` on macOS, `%LOCALAPPDATA%\agtrace` on Windows).
pub fn default_data_dir() -> PathBuf {
    if cfg!(target_os = "macos") {
        return home().join("Library/Application Support/agtrace");
    }
    if cfg!(windows)
        && let Some(d) = std::env::var_os("LOCALAPPDATA")
    {
        return PathBuf::from(d).join("agtrace");
    }
    match std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        Some(d) => PathBuf::from(d).join("agtrace"),
        None => home().join(".local/share/agtrace"),
    }
}

impl Config {
    /// Defaults overridden by each provider's variable ([`ProviderSpec::env`]:
    /// `AGTRACE_CLAUDE_DIR`, `AGTRACE_CODEX_DIR`, `AGTRACE_GEMINI_DIR`, ...) and
    /// `AGTRACE_DATA_DIR`; `AGTRACE_SHOW_SECRETS=1` (or `true`) sets [`Config::show_secrets`],
    /// `AGTRACE_ARCHIVE=1` [`Config::archive`].
    ///
    /// [`ProviderSpec::env`]: crate::providers::ProviderSpec::env
    pub fn from_env() -> Self {
        let var = |k: &str| {
            std::env::var_os(k)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let h = home();
        Config {
            roots: Provider::ALL
                .into_iter()
                .map(|p| var(p.spec().env).unwrap_or_else(|| h.join(p.spec().home_root)))
                .collect(),
            data_dir: var("AGTRACE_DATA_DIR").unwrap_or_else(default_data_dir),
            session_cache_bytes: DEFAULT_SESSION_CACHE_BYTES,
            show_secrets: env_flag("AGTRACE_SHOW_SECRETS"),
            archive: env_flag("AGTRACE_ARCHIVE"),
        }
    }

    /// Roots laid out as `<base>/claude/projects`, `<base>/codex/sessions`, `<base>/gemini/tmp`
    /// (each provider's [`ProviderSpec::tree_root`]; the corpus generator and the bundled
    /// samples use this layout).
    ///
    /// [`ProviderSpec::tree_root`]: crate::providers::ProviderSpec::tree_root
    pub fn for_tree(base: &Path, data_dir: &Path) -> Self {
        Config {
            roots: Provider::ALL
                .into_iter()
                .map(|p| base.join(p.spec().tree_root))
                .collect(),
            data_dir: data_dir.to_path_buf(),
            session_cache_bytes: DEFAULT_SESSION_CACHE_BYTES,
            show_secrets: false,
            archive: false,
        }
    }

    /// The log root of provider `p`.
    pub fn root(&self, p: Provider) -> &Path {
        &self.roots[p.code() as usize]
    }

    /// Sets the log root of provider `p`.
    pub fn set_root(&mut self, p: Provider, root: impl Into<PathBuf>) {
        self.roots[p.code() as usize] = root.into();
    }

    /// This configuration with the log root of provider `p` set to `root`.
    pub fn with_root(mut self, p: Provider, root: impl Into<PathBuf>) -> Self {
        self.set_root(p, root);
        self
    }

    /// The index database file, in [`Config::data_dir`].
    pub fn index_path(&self) -> PathBuf {
        self.data_dir.join("index.sqlite")
    }

    /// `path` as error messages and notes name it: relative to its log root, as
    /// `<claude_code root>/-home-me-app/abc.jsonl` (or `<data dir>/index.sqlite`), never an
    /// absolute path, which would tell a client where and whose the logs are. A path outside
    /// them all is named by its file name alone; a label already made is kept.
    pub fn path_label(&self, path: &Path) -> String {
        if path.to_str().is_some_and(|t| t.starts_with('<')) {
            return path.display().to_string();
        }
        for (base, label) in self.labelled_dirs() {
            if let Ok(rest) = path.strip_prefix(base) {
                return if rest.as_os_str().is_empty() {
                    label
                } else {
                    format!("{label}/{}", rest.display())
                };
            }
        }
        match path.file_name() {
            Some(name) => format!("<elsewhere>/{}", name.to_string_lossy()),
            None => "<elsewhere>".to_string(),
        }
    }

    /// `text` with every log root and the data dir written as in [`Config::path_label`]: for
    /// free-form notes that embed paths.
    pub fn relative_text(&self, text: &str) -> String {
        let mut out = text.to_string();
        for (base, label) in self.labelled_dirs() {
            let Some(base) = base.to_str().filter(|b| !b.is_empty() && *b != "/") else {
                continue;
            };
            out = replace_whole_path(&out, base, &label);
        }
        out
    }

    /// The log roots and the data dir with their labels, deepest first, so that a root
    /// inside another is matched before it.
    fn labelled_dirs(&self) -> Vec<(&Path, String)> {
        let mut dirs: Vec<(&Path, String)> = Provider::ALL
            .into_iter()
            .map(|p| (self.root(p), format!("<{p} root>")))
            .chain([(self.data_dir.as_path(), "<data dir>".to_string())])
            .collect();
        dirs.sort_by_key(|(d, _)| std::cmp::Reverse(d.as_os_str().len()));
        dirs
    }

    /// Refuses a data directory inside a log root: the index must never write there. Both
    /// sides are resolved first (symlinks and `..`, through the nearest existing ancestor for a
    /// path not created yet), so neither a symlink nor a `..` path gets the index into a root.
    pub fn validate(&self) -> Result<()> {
        let data = resolve(&self.data_dir);
        for p in Provider::ALL {
            let root = resolve(self.root(p));
            if data.starts_with(&root) {
                return Err(Error::Config(format!(
                    "data dir {} resolves to {}, inside the {} log root {}; agtrace never writes into a log root, so choose a data dir outside it",
                    self.data_dir.display(),
                    data.display(),
                    p,
                    root.display()
                )));
            }
        }
        Ok(())
    }
}

/// `text` with `base` replaced by `label` where it stands as a whole path or a path's leading
/// part: a relative root such as `logs` must not rewrite the word "logs" in a note.
fn replace_whole_path(text: &str, base: &str, label: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(base) {
        let before = rest[..at].chars().next_back();
        let after = rest[at + base.len()..].chars().next();
        let starts = before.is_none_or(|c| c.is_whitespace() || "('\"`".contains(c));
        let ends = after.is_none_or(|c| c.is_whitespace() || "/;:,)'\"`".contains(c));
        out.push_str(&rest[..at]);
        out.push_str(if starts && ends { label } else { base });
        rest = &rest[at + base.len()..];
    }
    out.push_str(rest);
    out
}

/// `p` as the file system will resolve it: absolute, symlinks followed, `.` and `..` gone. The
/// longest existing ancestor is canonicalized; the components after it do not exist, so they
/// cannot be symlinks and their `..` can be taken lexically.
fn resolve(p: &Path) -> PathBuf {
    let abs = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let mut base = abs.as_path();
    let mut rest = Vec::new();
    let canon = loop {
        if let Ok(c) = std::fs::canonicalize(base) {
            break c;
        }
        match (base.parent(), base.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                base = parent;
            }
            // `..` as the last component, or the root itself: nothing to strip lexically.
            _ => match base.parent() {
                Some(parent) if base.ends_with("..") => {
                    rest.push("..".into());
                    base = parent;
                }
                _ => break base.to_path_buf(),
            },
        }
    };
    let mut out = canon;
    for c in rest.iter().rev() {
        if c == ".." {
            out.pop();
        } else if c != "." {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_name_paths_relative_to_their_root_and_leave_words_alone() {
        let c = Config::for_tree(Path::new("logs"), Path::new("/var/data"));
        assert_eq!(
            c.relative_text("logs/codex/sessions/a.jsonl: more than 9 events; logs kept"),
            "<codex root>/a.jsonl: more than 9 events; logs kept"
        );
        assert_eq!(
            c.relative_text("codex log root logs/codex/sessions does not exist; skipped"),
            "codex log root <codex root> does not exist; skipped"
        );
        assert_eq!(
            c.relative_text("xlogs/codex/sessions/a and logs/codex/sessionsX"),
            "xlogs/codex/sessions/a and logs/codex/sessionsX"
        );
        assert_eq!(
            c.path_label(Path::new("logs/claude/projects/-a/b.jsonl")),
            "<claude_code root>/-a/b.jsonl"
        );
        assert_eq!(
            c.path_label(Path::new("/var/data/index.sqlite")),
            "<data dir>/index.sqlite"
        );
        assert_eq!(
            c.path_label(Path::new("/home/me/x.jsonl")),
            "<elsewhere>/x.jsonl"
        );
        assert_eq!(
            c.path_label(Path::new("<codex root>/a.jsonl")),
            "<codex root>/a.jsonl"
        );
    }
}
