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
