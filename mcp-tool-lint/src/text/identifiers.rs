//! Identifiers: splitting snake_case names, repairing them, spelling enum names, and how far
//! apart two names are.

/// The lowercase `_`-segments of a name (`event_type` -> `event`, `type`).
pub(crate) fn segments(name: &str) -> Vec<String> {
    name.split('_')
        .filter(|s| !s.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

/// Abbreviations everyone spells this way: an acronym is its own word.
const ACRONYMS: &[&str] = &[
    "sql", "css", "html", "xml", "pdf", "png", "jpg", "svg", "dns", "ssh", "tcp", "http", "https",
    "cwd", "rgb", "npm", "ttl", "gps", "cpu", "gpu", "json", "yaml", "csv", "tsv", "md", "url",
    "uri", "id", "ids", "ip", "db", "os", "tz", "utc",
];

/// A field name made of one short word with no vowel (`q`, `n`, `cnt`, `msg`, `pg`), unless
/// it is an acronym written that way everywhere (`sql`, `url`) or a coordinate (`x`, `y`,
/// `z`).
pub(crate) fn is_abbreviation(name: &str) -> bool {
    let words = segments(name);
    let [word] = words.as_slice() else {
        return false;
    };
    let word = word.to_ascii_lowercase();
    word.len() <= 4
        && !ACRONYMS.contains(&word.as_str())
        && !matches!(word.as_str(), "x" | "y" | "z")
        && !word.bytes().any(|b| b"aeiouy".contains(&b))
        && word.bytes().all(|b| b.is_ascii_lowercase())
}

/// Consonant endings an English word of one syllable can have after its vowel (`rest`,
/// `milk`, `lynx`, `zinc`): a short name that ends otherwise (`usr`, `idx`, `img`, `obj`,
/// `avg`, `addr`, `req`) is not a word but a word with its vowels or its end cut off. From
/// English phonotactics, not from any tool's names: a letter list, not a word list.
const WORD_ENDINGS: &[&str] = &[
    "", "b", "c", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "w", "x", "z", "bb",
    "bs", "ch", "ck", "ct", "dd", "ds", "ff", "ft", "gg", "gh", "gs", "ks", "lb", "lc", "ld", "lf",
    "lk", "ll", "lm", "lp", "ls", "lt", "mb", "mp", "ms", "nc", "nd", "ng", "nk", "nn", "ns", "nt",
    "nx", "ph", "pp", "ps", "pt", "rb", "rc", "rd", "rf", "rg", "rk", "rl", "rm", "rn", "rp", "rr",
    "rs", "rt", "sh", "sk", "sm", "sp", "ss", "st", "th", "ts", "tt", "wk", "wl", "wn", "ws", "xt",
    "zz", "lch", "lth", "mps", "nch", "nds", "ngs", "nks", "nth", "nts", "pts", "rch", "rst",
    "rth", "tch", "lts", "cks", "sts", "rks", "rts",
];

/// A field name of one short word that English cannot end as it does (`usr`, `idx`, `img`,
/// `avg`; see [`WORD_ENDINGS`]), or an [`is_abbreviation`]: in the author's own code, where
/// the name is theirs to spell out. `env` and `rev` are spelled so everywhere (a process's
/// environment, a git revision).
pub(crate) fn is_clipped(name: &str) -> bool {
    if is_abbreviation(name) {
        return true;
    }
    let words = segments(name);
    let [word] = words.as_slice() else {
        return false;
    };
    let bytes = word.as_bytes();
    let vowel = |b: &u8| b"aeiouy".contains(b);
    if bytes.len() > 4
        || !bytes.iter().all(u8::is_ascii_lowercase)
        || ACRONYMS.contains(&word.as_str())
        || matches!(word.as_str(), "env" | "rev")
    {
        return false;
    }
    // One syllable: one run of vowels, with consonants after it.
    let Some(first) = bytes.iter().position(vowel) else {
        return false;
    };
    let end = first + bytes[first..].iter().take_while(|b| vowel(b)).count();
    if bytes[end..].iter().any(vowel) {
        return false;
    }
    let ending = &word[end..];
    !ending.is_empty() && !WORD_ENDINGS.contains(&ending)
}

/// Levenshtein distance, for "did you mean" suggestions.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Rewrites a name into the allowed alphabet (`Search-Events` -> `search_events`).
pub(crate) fn snake_case(name: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            if prev_lower {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            prev_lower = false;
        } else if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
            prev_lower = true;
        } else {
            if !out.ends_with('_') && !out.is_empty() {
                out.push('_');
            }
            prev_lower = false;
        }
    }
    let out = out.trim_matches('_').to_string();
    let out = out
        .trim_start_matches(|c: char| c.is_ascii_digit() || c == '_')
        .to_string();
    out.chars().take(64).collect()
}

/// `ToolCall, ToolResult` -> `ToolCall`, `ToolResult`; `claude_code` -> `ClaudeCode`.
pub(crate) fn variant_name(value: &str) -> String {
    value
        .split(|c: char| !c.is_alphanumeric())
        .filter(|s| !s.is_empty())
        .map(|s| {
            let mut cs = s.chars();
            let first = cs
                .next()
                .map(|c| c.to_ascii_uppercase())
                .unwrap_or_default();
            let rest: String = cs.collect();
            // Keep CamelCase as written; lower-case SHOUTING words.
            if rest.chars().all(|c| !c.is_ascii_lowercase()) {
                format!("{first}{}", rest.to_ascii_lowercase())
            } else {
                format!("{first}{rest}")
            }
        })
        .collect()
}

/// The enum type to suggest for a parameter (`event_type` -> `EventType`).
pub(crate) fn type_name(param: &str) -> String {
    variant_name(param)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipped_words_are_told_from_short_words() {
        for name in [
            "usr", "idx", "img", "obj", "avg", "addr", "attr", "req", "conf", "cnt",
        ] {
            assert!(is_clipped(name), "{name}");
        }
        for name in [
            "user",
            "index",
            "name",
            "path",
            "milk",
            "text",
            "sync",
            "limit",
            "env",
            "rev",
            "url",
            "max",
            "tags",
            "page_size",
            "auth",
            "zinc",
            "opts",
        ] {
            assert!(!is_clipped(name), "{name}");
        }
    }

    #[test]
    fn edit_distance_counts_single_edits() {
        assert_eq!(edit_distance("vague_names", "vague_name"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn snake_case_repairs_names() {
        assert_eq!(snake_case("searchEvents"), "search_events");
        assert_eq!(snake_case("Search-Events"), "search_events");
        assert_eq!(snake_case("9 get it"), "get_it");
    }

    #[test]
    fn variant_names_are_camel_case() {
        assert_eq!(variant_name("claude_code"), "ClaudeCode");
        assert_eq!(variant_name("ToolCall"), "ToolCall");
        assert_eq!(variant_name("ERROR"), "Error");
        assert_eq!(type_name("event_type"), "EventType");
    }
}
