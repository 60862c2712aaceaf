//! Masking of secrets of well-known formats in what the index holds and the tools answer.
//!
//! Session logs hold whatever passed through the agent: API keys pasted in a prompt, tokens in
//! a `curl` command, a private key read from disk. They are replaced with `[REDACTED:<kind>]`
//! unless [`Config::show_secrets`](crate::config::Config::show_secrets) is set: in what is
//! indexed, before it is written (the index's masking module), and in answers read from the
//! logs themselves. A secret is recognised by its own prefix and look (`tokens.rs`: API keys, access
//! tokens) or by its structure and surroundings (`rules.rs`: private keys, JWTs, the password of
//! a URL or of a `PASSWORD=` line, an AWS secret key after its name); ordinary text that
//! shares a prefix (`sk-payments-worker-7d9f8b6c5-x2k4p-blue`, `Bearer authentication`)
//! stays. A secret with neither (a bare password in prose) is not recognised.

mod rules;
mod tokens;

use std::borrow::Cow;
use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, Input, MatchKind};

use serde_json::Value;

use crate::model::Event;

/// Every prefix a secret can start with. A text is searched for them all at once (a SIMD
/// scan of the whole text: no byte-by-byte loop), and only where one starts are the formats
/// tried: ordinary text, most of what a log holds, costs a pass at memory speed.
static PREFIXES: LazyLock<AhoCorasick> = LazyLock::new(|| {
    let prefixes = tokens::FORMATS
        .iter()
        .map(|f| f.prefix)
        .chain(rules::RULES.iter().map(|r| r.prefix));
    AhoCorasick::builder()
        // The leftmost start: every place a prefix starts is visited, none skipped.
        .match_kind(MatchKind::LeftmostFirst)
        .build(prefixes)
        .expect("the secret prefixes are a valid, small pattern set")
});

/// The secret whose prefix starts at `i`, if there is one: where the part to mask starts and
/// ends, and its kind. Every format and rule whose prefix starts there is tried.
fn secret_at(text: &str, i: usize) -> Option<(usize, usize, &'static str)> {
    let rest = &text.as_bytes()[i..];
    tokens::token_at(text.as_bytes(), i).or_else(|| {
        rules::RULES
            .iter()
            .filter(|r| rest.starts_with(r.prefix.as_bytes()))
            .find_map(|r| (r.find)(text, i, i + r.prefix.len()))
    })
}

/// `text` with every recognised secret replaced by `[REDACTED:<kind>]`.
pub fn mask(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let mut out = String::new();
    let mut copied = 0;
    let mut from = 0;
    while let Some(found) = PREFIXES.find(Input::new(bytes).span(from..bytes.len())) {
        // Every prefix starts with an ASCII byte: `text[i..]` starts on a character boundary.
        let i = found.start();
        match secret_at(text, i) {
            Some((start, end, kind)) => {
                out.push_str(&text[copied..start]);
                out.push_str("[REDACTED:");
                out.push_str(kind);
                out.push(']');
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

/// [`mask`] in place on every string (and object key's value) of a JSON value.
pub fn mask_json(value: &mut Value) {
    mask_json_changed(value);
}

/// [`mask_json`], telling whether anything was masked (so that a caller can skip work that
/// only a change needs).
pub fn mask_json_changed(value: &mut Value) -> bool {
    match value {
        Value::String(s) => match mask(s) {
            Cow::Owned(m) => {
                *s = m;
                true
            }
            Cow::Borrowed(_) => false,
        },
        // Not `any`: every item is masked, not only those up to the first change.
        Value::Array(items) => items
            .iter_mut()
            .fold(false, |changed, v| mask_json_changed(v) | changed),
        Value::Object(map) => map
            .values_mut()
            .fold(false, |changed, v| mask_json_changed(v) | changed),
        _ => false,
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
        let (mut out, mut copied, mut i) = (String::new(), 0, 0);
        while i < text.len() {
            let found = text
                .is_char_boundary(i)
                .then(|| secret_at(text, i))
                .flatten();
            match found {
                Some((start, end, kind)) => {
                    out.push_str(&text[copied..start]);
                    out.push_str(&format!("[REDACTED:{kind}]"));
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
                    Just("sk_live_"), Just("AIza"), Just("npm_"), Just("hf_"), Just("glpat-"),
                    Just("hooks.slack.com/services/"), Just("T01ABCDEF/"), Just("Basic "),
                    Just("dXNlcjpwYXNz"), Just("eyJ"), Just("hbGciOiJI"), Just("://"), Just("@"),
                    Just("user:"), Just("DB_PASSWORD="), Just("SECRET="), Just("\""), Just("$"),
                    Just("aws_secret_access_key"), Just("SecretAccessKey"), Just(": "), Just("="),
                    Just("wJalrXUtnFEMI/K7MDENG/"), Just("bPxRfiCYEXAMPLEKEY"),
                    Just("\n"), Just(" "), Just("-"), Just("."), Just("é"), Just("日本"),
                    Just("AbCdEfGhIj"), Just("0123456789"), Just("ABCDEFGHIJKLMNOP"), Just("task"),
                ],
                0..32,
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
            (
                "Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l\r\n",
                "Authorization: Basic [REDACTED:basic_auth]\r\n",
            ),
            (
                "curl -X POST https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX -d",
                "curl -X POST https://hooks.slack.com/services/[REDACTED:slack_webhook] -d",
            ),
            (
                "DATABASE_URL=postgres://app:s3cr3t@db:5432/app",
                "DATABASE_URL=postgres://app:[REDACTED:password]@db:5432/app",
            ),
            (
                "DB_PASSWORD=hunter2\nSTRIPE_SECRET=sk_live_4eC39HqLyjWDarjtT1zdp7dc\nDEBUG=1",
                "DB_PASSWORD=[REDACTED:password]\nSTRIPE_SECRET=[REDACTED:secret]\nDEBUG=1",
            ),
            (
                "key=sk_live_4eC39HqLyjWDarjtT1zdp7dc AIzaSyA1b2C3d4E5f6G7h8I9j0K_l-MnOpQrStU",
                "key=[REDACTED:stripe_key] [REDACTED:google_api_key]",
            ),
            (
                "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n",
                "aws_secret_access_key = [REDACTED:aws_secret_access_key]\n",
            ),
            (
                "id_token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U;",
                "id_token=[REDACTED:jwt];",
            ),
            (
                "//registry.npmjs.org/:_authToken=npm_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d",
                "//registry.npmjs.org/:_authToken=[REDACTED:npm_token]",
            ),
            (
                "HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh git push glpat-xR7bK2mN9pQ4sT6vW8yZ",
                "HF_TOKEN=[REDACTED:huggingface_token] git push [REDACTED:gitlab_token]",
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

    /// A pod name, a region-like identifier and prose, each with a secret's prefix.
    #[test]
    fn ordinary_strings_with_a_secrets_prefix_stay() {
        for text in [
            "sk-payments-worker-7d9f8b6c5-x2k4p-blue",
            "ASIAPACIFICNORTH2024",
            "Bearer authentication_scheme_documentation",
            "kubectl logs sk-payments-worker-7d9f8b6c5-x2k4p-blue -n ASIAPACIFICNORTH2024",
            "The Bearer authentication_scheme_documentation says: use Basic authentication.",
        ] {
            assert_eq!(mask(text), text);
        }
    }
}
