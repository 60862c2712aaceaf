//! Paths as a person means them: one spelling per file, relative to a session's root when
//! inside it, and the globs that select them.
//!
//! Normal form: `/` separators, no `.` or empty components, `..` resolved lexically (kept only
//! at the start of a relative path), no trailing slash, a Windows drive as `c:/...` (lower-case
//! letter). `~/...` stays as written: the home directory is not known.

/// Whether `p` is absolute in the normal form (`/x`, `c:/x`, `~/x`).
pub fn is_absolute(p: &str) -> bool {
    p.starts_with('/') || p.starts_with('~') || is_drive(p)
}

fn is_drive(p: &str) -> bool {
    let b = p.as_bytes();
    b.len() >= 2
        && b[0].is_ascii_alphabetic()
        && b[1] == b':'
        && (b.len() == 2 || b[2] == b'/' || b[2] == b'\\')
}

/// Whether `p` is spelled the Windows way (a drive, or backslashes and no slash).
pub fn is_windows(p: &str) -> bool {
    is_drive(p) || (p.contains('\\') && !p.contains('/'))
}

/// The normal form of `p`; `windows` turns backslashes into separators (elsewhere a backslash
/// is a character of the name). `None` for nothing left (``, `.`).
pub fn normalize(p: &str, windows: bool) -> Option<String> {
    let p = p.trim();
    let owned;
    let mut p = if windows || is_drive(p) {
        owned = p.replace('\\', "/");
        owned.as_str()
    } else {
        p
    };
    let mut out: Vec<&str> = Vec::new();
    let mut head = String::new();
    if is_drive(p) {
        head = format!("{}:/", p[..1].to_ascii_lowercase());
        p = &p[2..];
    } else if p.starts_with('/') {
        head.push('/');
    }
    for part in p.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if out.last().is_some_and(|l| *l != "..") {
                    out.pop();
                } else if head.is_empty() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    let joined = out.join("/");
    if joined.is_empty() {
        return (!head.is_empty()).then_some(head);
    }
    Some(format!("{head}{joined}"))
}

/// `p` (normal form) joined onto `base` (normal form, absolute or relative) when relative.
pub fn join(base: Option<&str>, p: &str) -> Option<String> {
    match base {
        Some(b) if !is_absolute(p) => normalize(&format!("{b}/{p}"), false),
        _ => normalize(p, false),
    }
}

/// The stored spelling of `p` (normal form) for a session whose root is `root` (normal form):
/// relative to the root when inside it, else as it is.
pub fn relative_to(root: Option<&str>, p: &str) -> String {
    if let Some(r) = root.filter(|r| is_absolute(r) && *r != "/")
        && let Some(rest) = p.strip_prefix(r).and_then(|s| s.strip_prefix('/'))
    {
        return rest.to_owned();
    }
    p.to_owned()
}

/// The root of a session as written in its log, in normal form.
pub fn root_form(cwd: &str) -> Option<String> {
    normalize(cwd, is_windows(cwd)).filter(|r| is_absolute(r))
}

/// A glob over whole paths: `*` and `?` within one component, `**` across components,
/// `[abc]`, `[a-z]` and `[!a]` classes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Glob {
    parts: Vec<String>,
    /// The parts as characters, split once: a glob is matched against many paths.
    chars: Vec<Vec<char>>,
    /// The last part when it is literal (`7.rs` of `**/7.rs`): a path whose last name is
    /// another cannot match, which a string comparison tells before any matching.
    last: Option<String>,
}

/// Why a glob cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GlobError(pub String);

impl Glob {
    /// Parses `pattern` (already in normal form).
    pub fn new(pattern: &str) -> Result<Glob, GlobError> {
        let parts: Vec<String> = pattern.split('/').map(str::to_owned).collect();
        for part in &parts {
            if part.contains("**") && part != "**" {
                return Err(GlobError(format!(
                    "`**` must be a whole path component (as in `src/**/*.rs`), not part of `{part}`"
                )));
            }
            let mut chars = part.chars();
            while let Some(c) = chars.next() {
                if c == '[' {
                    let rest: String = chars.clone().collect();
                    if !rest.contains(']') {
                        return Err(GlobError(format!("unclosed `[` in `{part}`")));
                    }
                    // Skip the class body.
                    for c in chars.by_ref() {
                        if c == ']' {
                            break;
                        }
                    }
                }
            }
        }
        let chars = parts.iter().map(|p| p.chars().collect()).collect();
        let last = parts
            .last()
            .filter(|p| !Self::is_glob(p) && !p.is_empty())
            .cloned();
        Ok(Glob { parts, chars, last })
    }

    /// Whether `s` holds a glob character.
    pub fn is_glob(s: &str) -> bool {
        s.contains(['*', '?', '['])
    }

    /// The literal part before the first component with a glob character, with its trailing
    /// `/` (`src/` for `src/**/*.rs`), or the whole pattern when it has none.
    pub fn literal_head(&self) -> String {
        let mut head = String::new();
        for (i, part) in self.parts.iter().enumerate() {
            if Self::is_glob(part) {
                return head;
            }
            head.push_str(part);
            if i + 1 < self.parts.len() {
                head.push('/');
            }
        }
        head
    }

    /// Whether the whole of `path` (normal form) matches.
    pub fn matches(&self, path: &str) -> bool {
        if let Some(last) = &self.last
            && path.rsplit('/').next() != Some(last.as_str())
        {
            return false;
        }
        let names: Vec<Vec<char>> = if path == "/" {
            vec![Vec::new(), Vec::new()]
        } else {
            path.split('/').map(|n| n.chars().collect()).collect()
        };
        match_parts(&self.chars, &names)
    }
}

fn match_parts(parts: &[Vec<char>], names: &[Vec<char>]) -> bool {
    match parts.split_first() {
        None => names.is_empty(),
        Some((p, rest)) if p[..] == ['*', '*'] => {
            (0..=names.len()).any(|skip| match_parts(rest, &names[skip..]))
        }
        Some((p, rest)) => names
            .split_first()
            .is_some_and(|(n, more)| match_name(p, n) && match_parts(rest, more)),
    }
}

fn match_name(p: &[char], n: &[char]) -> bool {
    match p.split_first() {
        None => n.is_empty(),
        Some(('*', rest)) => (0..=n.len()).any(|skip| match_name(rest, &n[skip..])),
        Some(('?', rest)) => !n.is_empty() && match_name(rest, &n[1..]),
        Some(('[', rest)) => {
            let Some(end) = rest.iter().skip(1).position(|&c| c == ']').map(|i| i + 1) else {
                return false;
            };
            let (class, after) = (&rest[..end], &rest[end + 1..]);
            let Some((&c, more)) = n.split_first() else {
                return false;
            };
            let (negate, class) = match class.split_first() {
                Some(('!' | '^', body)) => (true, body),
                _ => (false, class),
            };
            let mut hit = false;
            let mut i = 0;
            while i < class.len() {
                if i + 2 < class.len() && class[i + 1] == '-' {
                    hit |= class[i] <= c && c <= class[i + 2];
                    i += 3;
                } else {
                    hit |= class[i] == c;
                    i += 1;
                }
            }
            hit != negate && match_name(after, more)
        }
        Some((c, rest)) => n.first() == Some(c) && match_name(rest, &n[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_forms() {
        let n = |p: &str| normalize(p, is_windows(p));
        assert_eq!(n("./src//lib.rs").as_deref(), Some("src/lib.rs"));
        assert_eq!(n("src/../src/./a/").as_deref(), Some("src/a"));
        assert_eq!(n("../x").as_deref(), Some("../x"));
        assert_eq!(n("/a/b/../../../c").as_deref(), Some("/c"));
        assert_eq!(
            n("e:\\Workspace\\src\\x.py").as_deref(),
            Some("e:/Workspace/src/x.py")
        );
        assert_eq!(n("E:/w/./y").as_deref(), Some("e:/w/y"));
        assert_eq!(n("src\\lib.rs").as_deref(), Some("src/lib.rs"));
        assert_eq!(n("."), None);
        assert_eq!(n("").as_deref(), None);
        assert_eq!(n("/").as_deref(), Some("/"));
    }

    #[test]
    fn relative_inside_the_root_only() {
        assert_eq!(
            relative_to(Some("/home/u/proj"), "/home/u/proj/src/a.rs"),
            "src/a.rs"
        );
        assert_eq!(
            relative_to(Some("/home/u/proj"), "/home/u/project/a.rs"),
            "/home/u/project/a.rs"
        );
        assert_eq!(relative_to(None, "/x/a.rs"), "/x/a.rs");
        assert_eq!(join(Some("/r"), "../s/a").as_deref(), Some("/s/a"));
        assert_eq!(join(Some("/r"), "/abs").as_deref(), Some("/abs"));
    }

    #[test]
    fn globs() {
        let g = Glob::new("src/**/*.rs").unwrap();
        assert_eq!(g.literal_head(), "src/");
        assert!(g.matches("src/lib.rs"));
        assert!(g.matches("src/a/b/c.rs"));
        assert!(!g.matches("src/lib.py"));
        assert!(!g.matches("tests/lib.rs"));
        let g = Glob::new("src/*.rs").unwrap();
        assert!(!g.matches("src/a/b.rs"));
        assert!(Glob::new("a/[!x]?.md").unwrap().matches("a/yz.md"));
        assert!(!Glob::new("a/[!x]?.md").unwrap().matches("a/xz.md"));
        assert!(Glob::new("[a-c]*").unwrap().matches("banana"));
        assert!(Glob::new("src/[ab").is_err());
        assert!(Glob::new("src/a**").is_err());
        assert_eq!(Glob::new("**/*.rs").unwrap().literal_head(), "");
    }

    #[test]
    fn a_literal_last_name_must_be_the_paths_last_name() {
        let g = Glob::new("**/7.rs").unwrap();
        assert!(g.matches("7.rs"));
        assert!(g.matches("src/a/7.rs"));
        assert!(!g.matches("src/a/17.rs"));
        assert!(!g.matches("src/7.rs/x"));
        assert!(!g.matches("src/7.rs.bak"));
        let g = Glob::new("/**").unwrap();
        assert!(g.matches("/"));
        assert!(g.matches("/a/b"));
        // `src/` keeps an empty last part: not a name to compare.
        assert!(Glob::new("src/*/").unwrap().matches("src/a/"));
    }
}
