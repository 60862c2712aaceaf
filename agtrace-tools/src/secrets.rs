//! Masking of secrets of well-known formats in what the tools answer.
//!
//! Session logs hold whatever passed through the agent: API keys pasted in a prompt, tokens in
//! a `curl` command, a private key read from disk. Answers replace them with
//! `[REDACTED:<kind>]` unless [`Config::show_secrets`](crate::config::Config::show_secrets)
//! is set. The formats are those with a recognisable prefix, so ordinary text is never masked;
//! a secret without one (a bare password) is not recognised.

use std::borrow::Cow;
use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, Input, MatchKind};

use serde_json::Value;

use crate::model::Event;

/// A token format: its prefix, the characters of its body, the fewest body characters.
struct Format {
    kind: &'static str,
    prefix: &'static str,
    body: fn(u8) -> bool,
    min: usize,
    /// The prefix stays visible (`Bearer [REDACTED:bearer_token]`): it is not the secret.
    keep_prefix: bool,
}

fn token_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

fn upper_or_digit(b: u8) -> bool {
    b.is_ascii_uppercase() || b.is_ascii_digit()
}

fn alnum(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

fn bearer_char(b: u8) -> bool {
    token_char(b) || matches!(b, b'.' | b'~' | b'+' | b'/' | b'=')
}

/// Longer prefixes first: `sk-ant-` is an Anthropic key before it is an `sk-` key.
const FORMATS: &[Format] = &[
    Format {
        kind: "anthropic_key",
        prefix: "sk-ant-",
        body: token_char,
        min: 20,
        keep_prefix: false,
    },
    Format {
        kind: "openai_key",
        prefix: "sk-",
        body: token_char,
        min: 20,
        keep_prefix: false,
    },
    Format {
        kind: "github_token",
        prefix: "github_pat_",
        body: token_char,
        min: 20,
        keep_prefix: false,
    },
    Format {
        kind: "github_token",
        prefix: "ghp_",
        body: alnum,
        min: 30,
        keep_prefix: false,
    },
    Format {
        kind: "github_token",
        prefix: "gho_",
        body: alnum,
        min: 30,
        keep_prefix: false,
    },
    Format {
        kind: "github_token",
        prefix: "ghu_",
        body: alnum,
        min: 30,
        keep_prefix: false,
    },
    Format {
        kind: "github_token",
        prefix: "ghs_",
        body: alnum,
        min: 30,
        keep_prefix: false,
    },
    Format {
        kind: "github_token",
        prefix: "ghr_",
        body: alnum,
        min: 30,
        keep_prefix: false,
    },
    Format {
        kind: "aws_access_key_id",
        prefix: "AKIA",
        body: upper_or_digit,
        min: 16,
        keep_prefix: false,
    },
    Format {
        kind: "aws_access_key_id",
        prefix: "ASIA",
        body: upper_or_digit,
        min: 16,
        keep_prefix: false,
    },
    Format {
        kind: "slack_token",
        prefix: "xoxb-",
        body: token_char,
        min: 10,
        keep_prefix: false,
    },
    Format {
        kind: "slack_token",
        prefix: "xoxp-",
        body: token_char,
        min: 10,
        keep_prefix: false,
    },
    Format {
        kind: "slack_token",
        prefix: "xoxa-",
        body: token_char,
        min: 10,
        keep_prefix: false,
    },
    Format {
        kind: "slack_token",
        prefix: "xoxr-",
        body: token_char,
        min: 10,
        keep_prefix: false,
    },
    Format {
        kind: "slack_token",
        prefix: "xoxs-",
        body: token_char,
        min: 10,
        keep_prefix: false,
    },
    Format {
        kind: "bearer_token",
        prefix: "Bearer ",
        body: bearer_char,
        min: 16,
        keep_prefix: true,
    },
    Format {
        kind: "bearer_token",
        prefix: "bearer ",
        body: bearer_char,
        min: 16,
        keep_prefix: true,
    },
];

const KEY_BEGIN: &str = "-----BEGIN ";
const KEY_END: &str = "-----END ";
const DASHES: &str = "-----";

/// Every prefix a secret can start with. A text is searched for them all at once (a SIMD
/// scan of the whole text: no byte-by-byte loop), and only where one starts are the formats
/// tried: ordinary text, most of what a log holds, costs a pass at memory speed.
static PREFIXES: LazyLock<AhoCorasick> = LazyLock::new(|| {
    let prefixes = FORMATS.iter().map(|f| f.prefix).chain([KEY_BEGIN]);
    AhoCorasick::builder()
        // The leftmost start: every place a prefix starts is visited, none skipped.
        .match_kind(MatchKind::LeftmostFirst)
        .build(prefixes)
        .expect("the secret prefixes are a valid, small pattern set")
});

/// `text` with every recognised secret replaced by `[REDACTED:<kind>]`.
pub fn mask(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let mut out = String::new();
    let mut copied = 0;
    let mut from = 0;
    while let Some(found) = PREFIXES.find(Input::new(bytes).span(from..bytes.len())) {
        // Every prefix starts with an ASCII byte: `text[i..]` starts on a character boundary.
        let i = found.start();
        let at_word_start = i == 0 || !token_char(bytes[i - 1]);
        let secret = if bytes[i] == b'-' {
            private_key_at(text, i).map(|(end, label)| (i, end, label, ""))
        } else if at_word_start {
            token_at(bytes, i).map(|(start, end, kind)| (start, end, "[REDACTED:", kind))
        } else {
            None
        };
        match secret {
            Some((start, end, label, kind)) => {
                out.push_str(&text[copied..start]);
                out.push_str(label);
                if !kind.is_empty() {
                    out.push_str(kind);
                    out.push(']');
                }
                copied = end;
                from = end;
            }
            // A prefix that is no secret here: the next one may start inside it.
            None => from = i + 1,
        }
    }
    if copied == 0 {
        return Cow::Borrowed(text);
    }
    out.push_str(&text[copied..]);
    Cow::Owned(out)
}

/// A token starting at `i`: where its secret part starts and ends, and its kind.
fn token_at(bytes: &[u8], i: usize) -> Option<(usize, usize, &'static str)> {
    let rest = &bytes[i..];
    let f = FORMATS
        .iter()
        .filter(|f| f.prefix.as_bytes()[0] == bytes[i])
        .find(|f| rest.starts_with(f.prefix.as_bytes()))?;
    let body_start = i + f.prefix.len();
    let len = bytes[body_start..]
        .iter()
        .take_while(|&&b| (f.body)(b))
        .count();
    if len < f.min {
        return None;
    }
    let start = if f.keep_prefix { body_start } else { i };
    Some((start, body_start + len, f.kind))
}

/// A PEM private key block starting at `i` (to its END line, or to the end of a cut text).
fn private_key_at(text: &str, i: usize) -> Option<(usize, &'static str)> {
    let rest = &text[i..];
    let header = rest.strip_prefix(KEY_BEGIN)?;
    let line_end = header.find(DASHES)?;
    if !header[..line_end].ends_with("PRIVATE KEY") || header[..line_end].contains('\n') {
        return None;
    }
    let after_header = i + KEY_BEGIN.len() + line_end + DASHES.len();
    let end = match text[after_header..].find(KEY_END) {
        Some(at) => {
            let footer = after_header + at + KEY_END.len();
            match text[footer..].find(DASHES) {
                Some(d) => footer + d + DASHES.len(),
                None => text.len(),
            }
        }
        None => text.len(),
    };
    Some((end, "[REDACTED:private_key]"))
}

/// [`mask`] in place on every string (and object key's value) of a JSON value.
pub fn mask_json(value: &mut Value) {
    match value {
        Value::String(s) => {
            if let Cow::Owned(m) = mask(s) {
                *s = m;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(mask_json),
        Value::Object(map) => map.values_mut().for_each(mask_json),
        _ => {}
    }
}

/// [`mask`] on an event's text and raw record.
pub fn mask_event(e: &mut Event) {
    mask_string(&mut e.text);
    mask_json(&mut e.raw);
}

/// [`mask`] in place.
pub fn mask_string(s: &mut String) {
    if let Cow::Owned(m) = mask(s) {
        *s = m;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What [`mask`] does, by trying every byte position in turn (the scan it replaced).
    fn mask_by_bytes(text: &str) -> String {
        let bytes = text.as_bytes();
        let (mut out, mut copied, mut i) = (String::new(), 0, 0);
        while i < bytes.len() {
            let word_start = i == 0 || !token_char(bytes[i - 1]);
            let found = if bytes[i] == b'-' {
                private_key_at(text, i).map(|(end, label)| (i, end, label.to_string()))
            } else if word_start && text.is_char_boundary(i) {
                token_at(bytes, i).map(|(s, e, kind)| (s, e, format!("[REDACTED:{kind}]")))
            } else {
                None
            };
            match found {
                Some((start, end, label)) => {
                    out.push_str(&text[copied..start]);
                    out.push_str(&label);
                    (copied, i) = (end, end);
                }
                None => i += 1,
            }
        }
        out.push_str(&text[copied..]);
        out
    }

    proptest! {
        #[test]
        fn the_prefix_search_masks_what_a_scan_of_every_byte_masks(
            pieces in prop::collection::vec(
                prop_oneof![
                    Just("sk-"), Just("sk-ant-"), Just("github_pat_"), Just("ghp_"), Just("ghs_"),
                    Just("AKIA"), Just("ASIA"), Just("xoxb-"), Just("Bearer "), Just("bearer "),
                    Just("-----BEGIN "), Just("RSA PRIVATE KEY"), Just("-----"), Just("-----END "),
                    Just("\n"), Just(" "), Just("-"), Just("."), Just("é"), Just("日本"),
                    Just("AbCdEfGhIj"), Just("0123456789"), Just("ABCDEFGHIJKLMNOP"), Just("task"),
                ],
                0..24,
            )
        ) {
            let text = pieces.concat();
            prop_assert_eq!(mask(&text).into_owned(), mask_by_bytes(&text));
        }
    }

    #[test]
    fn masks_each_format_and_leaves_ordinary_text() {
        let cases = [
            (
                "key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv_wx end",
                "key [REDACTED:anthropic_key] end",
            ),
            (
                "OPENAI_API_KEY=sk-proj-AbCdEfGhIjKlMnOpQrStUvWx",
                "OPENAI_API_KEY=[REDACTED:openai_key]",
            ),
            (
                "ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
                "[REDACTED:github_token]",
            ),
            (
                "github_pat_11ABCDEFG0abcdefghijklmnopqrstuv",
                "[REDACTED:github_token]",
            ),
            (
                "id AKIAIOSFODNN7EXAMPLE,",
                "id [REDACTED:aws_access_key_id],",
            ),
            ("xoxb-123456789012-abcdefABCDEF", "[REDACTED:slack_token]"),
            (
                "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc",
                "Authorization: Bearer [REDACTED:bearer_token]",
            ),
            (
                "a\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nxyz\n-----END RSA PRIVATE KEY-----\nb",
                "a\n[REDACTED:private_key]\nb",
            ),
            (
                "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn",
                "[REDACTED:private_key]",
            ),
            // Not secrets: a word ending in "sk-", short prefixes, a public certificate.
            (
                "task-abcdefghijklmnopqrstuvwxyz run",
                "task-abcdefghijklmnopqrstuvwxyz run",
            ),
            ("sk-short and AKIA alone", "sk-short and AKIA alone"),
            (
                "-----BEGIN CERTIFICATE-----\nMIIB",
                "-----BEGIN CERTIFICATE-----\nMIIB",
            ),
            ("Bearer of news", "Bearer of news"),
            ("héllo wörld — ✓", "héllo wörld — ✓"),
        ];
        for (text, want) in cases {
            assert_eq!(mask(text), want, "{text}");
        }
    }
}
