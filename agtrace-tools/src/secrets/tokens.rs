//! Secrets that are one token: a fixed prefix, then a body of a known character set, length
//! and look. The look (`shape`) is what tells a random key from an identifier or prose that
//! happens to share the prefix: `sk-payments-worker-7d9f8b6c5-x2k4p-blue` (a pod name) is no
//! OpenAI key, `Bearer authentication_scheme_documentation` no bearer token.

/// A token format: its prefix, the characters of its body, the body's length and look.
pub(super) struct Format {
    pub kind: &'static str,
    pub prefix: &'static str,
    body: fn(u8) -> bool,
    min: usize,
    /// The most body characters; a format with a fixed length is a whole word, so a longer
    /// run, or one followed by more word characters, is something else.
    max: usize,
    /// What the body must look like besides its characters and length.
    shape: fn(&[u8]) -> bool,
    /// The prefix stays visible (`Bearer [REDACTED:bearer_token]`): it is not the secret.
    keep_prefix: bool,
}

pub(super) fn token_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

fn alnum(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

/// The alphabet of AWS access key ids (base32: no 0, 1, 8 or 9).
fn base32_upper(b: u8) -> bool {
    b.is_ascii_uppercase() || (b'2'..=b'7').contains(&b)
}

fn bearer_char(b: u8) -> bool {
    token_char(b) || matches!(b, b'.' | b'~' | b'+' | b'/' | b'=')
}

fn slack_path_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'/'
}

fn any(_: &[u8]) -> bool {
    true
}

/// At least two of upper case, lower case and digits: generated, not a word or a
/// `SCREAMING_PLACEHOLDER`.
pub(super) fn mixed(body: &[u8]) -> bool {
    let has = |f: fn(&u8) -> bool| body.iter().any(f);
    let classes = [
        has(u8::is_ascii_uppercase),
        has(u8::is_ascii_lowercase),
        has(u8::is_ascii_digit),
    ];
    classes.into_iter().filter(|&c| c).count() >= 2
}

/// A run of 16 or more letters and digits with both cases: OpenAI and Anthropic keys are
/// long random base62 stretches between their dashes, names and slugs are not.
fn random_run(body: &[u8]) -> bool {
    body.split(|b| !b.is_ascii_alphanumeric()).any(|run| {
        run.len() >= 16
            && run.iter().any(u8::is_ascii_uppercase)
            && run.iter().any(u8::is_ascii_lowercase)
    })
}

/// `T<team>/B<channel>/<secret>`, the path of a Slack incoming webhook.
fn slack_webhook_path(body: &[u8]) -> bool {
    let mut parts = body.split(|&b| b == b'/');
    let id = |part: Option<&[u8]>, lead: u8| {
        part.is_some_and(|p| {
            p.len() >= 8
                && p[0] == lead
                && p.iter()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        })
    };
    id(parts.next(), b'T')
        && id(parts.next(), b'B')
        && parts.next().is_some_and(|s| s.len() >= 16)
        && parts.next().is_none()
}

const UNBOUNDED: usize = usize::MAX;

/// A format of `kind` with the defaults most have: no upper bound, any look, prefix masked.
const fn format(
    kind: &'static str,
    prefix: &'static str,
    body: fn(u8) -> bool,
    min: usize,
) -> Format {
    Format {
        kind,
        prefix,
        body,
        min,
        max: UNBOUNDED,
        shape: any,
        keep_prefix: false,
    }
}

/// Longer prefixes first: `sk-ant-` is an Anthropic key before it is an `sk-` key.
pub(super) const FORMATS: &[Format] = &[
    Format {
        shape: random_run,
        ..format("anthropic_key", "sk-ant-", token_char, 20)
    },
    Format {
        shape: random_run,
        ..format("openai_key", "sk-", token_char, 20)
    },
    Format {
        shape: mixed,
        ..format("stripe_key", "sk_live_", alnum, 24)
    },
    Format {
        shape: mixed,
        ..format("stripe_key", "rk_live_", alnum, 24)
    },
    format("github_token", "github_pat_", token_char, 20),
    format("github_token", "ghp_", alnum, 30),
    format("github_token", "gho_", alnum, 30),
    format("github_token", "ghu_", alnum, 30),
    format("github_token", "ghs_", alnum, 30),
    format("github_token", "ghr_", alnum, 30),
    Format {
        shape: mixed,
        ..format("gitlab_token", "glpat-", token_char, 20)
    },
    // 20 characters in all, base32 after the prefix: `ASIAPACIFICNORTH2024` is neither.
    Format {
        max: 16,
        ..format("aws_access_key_id", "AKIA", base32_upper, 16)
    },
    Format {
        max: 16,
        ..format("aws_access_key_id", "ASIA", base32_upper, 16)
    },
    Format {
        max: 35,
        ..format("google_api_key", "AIza", token_char, 35)
    },
    Format {
        max: 36,
        shape: mixed,
        ..format("npm_token", "npm_", alnum, 36)
    },
    Format {
        shape: mixed,
        ..format("huggingface_token", "hf_", alnum, 34)
    },
    format("slack_token", "xoxb-", token_char, 10),
    format("slack_token", "xoxp-", token_char, 10),
    format("slack_token", "xoxa-", token_char, 10),
    format("slack_token", "xoxr-", token_char, 10),
    format("slack_token", "xoxs-", token_char, 10),
    Format {
        shape: slack_webhook_path,
        keep_prefix: true,
        ..format(
            "slack_webhook",
            "hooks.slack.com/services/",
            slack_path_char,
            36,
        )
    },
    Format {
        shape: mixed,
        keep_prefix: true,
        ..format("bearer_token", "Bearer ", bearer_char, 16)
    },
    Format {
        shape: mixed,
        keep_prefix: true,
        ..format("bearer_token", "bearer ", bearer_char, 16)
    },
];

/// A token starting at `i`, at the start of a word: where its secret part starts and ends,
/// and its kind.
pub(super) fn token_at(bytes: &[u8], i: usize) -> Option<(usize, usize, &'static str)> {
    if i > 0 && token_char(bytes[i - 1]) {
        return None;
    }
    let rest = &bytes[i..];
    FORMATS
        .iter()
        .filter(|f| rest.starts_with(f.prefix.as_bytes()))
        .find_map(|f| {
            let body_start = i + f.prefix.len();
            let len = bytes[body_start..]
                .iter()
                .take_while(|&&b| (f.body)(b))
                .count();
            let end = body_start + len;
            let whole_word = f.max == UNBOUNDED || bytes.get(end).is_none_or(|&b| !token_char(b));
            let fits = (f.min..=f.max).contains(&len) && whole_word;
            if !fits || !(f.shape)(&bytes[body_start..end]) {
                return None;
            }
            let start = if f.keep_prefix { body_start } else { i };
            Some((start, end, f.kind))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kind `text` is masked as, if it is.
    fn kind(text: &str) -> Option<&'static str> {
        token_at(text.as_bytes(), 0).map(|(_, _, kind)| kind)
    }

    fn assert_kinds(kind_of: &str, matches: &[&str], near_misses: &[&str]) {
        for text in matches {
            assert_eq!(kind(text), Some(kind_of), "{text} is a {kind_of}");
        }
        for text in near_misses {
            assert_eq!(kind(text), None, "{text} is no secret");
        }
    }

    #[test]
    fn openai_and_anthropic_keys_have_random_stretches_and_slugs_do_not() {
        assert_kinds(
            "openai_key",
            &[
                "sk-proj-Ab3dEfGhIjKlMnOpQrStUvWx_yz-0123456789",
                "sk-T3BlbkFJabcdefghijklmnopqrstuvwxyz0123456789AB",
            ],
            &[
                "sk-payments-worker-7d9f8b6c5-x2k4p-blue",
                "sk-learn-tutorial-classification-basics",
                "sk-abcdefghijklmnopqrstuvwxyz",
            ],
        );
        assert_kinds(
            "anthropic_key",
            &["sk-ant-api03-Xy7Qw9ErTy1UiOp3AsDf5GhJk_Lz-AA"],
            &[],
        );
    }

    #[test]
    fn aws_access_key_ids_are_twenty_base32_characters() {
        assert_kinds(
            "aws_access_key_id",
            &["AKIAIOSFODNN7EXAMPLE", "ASIAY34FZKBOKMUTVV7A"],
            &[
                "ASIAPACIFICNORTH2024",
                "AKIAIOSFODNN7EXAMPLE2",
                "AKIAIOSFODNN7EXAMPL",
                "ASIAPACIFICREGIONS",
            ],
        );
    }

    #[test]
    fn google_api_keys_are_aiza_and_35_characters() {
        let key = "AIzaSyA1b2C3d4E5f6G7h8I9j0K_l-MnOpQrStU";
        assert_eq!(key.len(), 39);
        assert_kinds(
            "google_api_key",
            &[key],
            &[&key[..38], &format!("{key}x"), "AIzaSomethingElse"],
        );
    }

    #[test]
    fn stripe_live_keys_and_not_test_keys_or_short_ones() {
        assert_kinds(
            "stripe_key",
            &[
                "sk_live_4eC39HqLyjWDarjtT1zdp7dc00AbCdEf",
                "rk_live_51H8xYzAbCdEfGhIjKlMnOp0123",
            ],
            &[
                "sk_live_short1",
                "sk_test_4eC39HqLyjWDarjtT1zdp7dc00AbCdEf",
                "sk_live_abcdefghijklmnopqrstuvwxyz",
            ],
        );
    }

    #[test]
    fn slack_webhooks_keep_their_host_and_lose_their_path() {
        let url = "hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX";
        let bytes = url.as_bytes();
        let prefix = "hooks.slack.com/services/".len();
        assert_eq!(
            token_at(bytes, 0),
            Some((prefix, url.len(), "slack_webhook"))
        );
        assert_kinds(
            "slack_webhook",
            &["hooks.slack.com/services/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"],
            &[
                "hooks.slack.com/services/",
                "hooks.slack.com/services/T00000000/B00000000",
                "hooks.slack.com/services/T00000000/B00000000/short",
                "hooks.slack.com/services/apps/incoming-webhooks/setup",
            ],
        );
    }

    #[test]
    fn npm_tokens_are_npm_and_36_letters_and_digits() {
        let token = "npm_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d";
        assert_eq!(token.len(), 40);
        assert_kinds(
            "npm_token",
            &[token],
            &[
                &token[..39],
                &format!("{token}Y"),
                &format!("{token}_suffix"),
                "npm_packagesinstallationdirectorylocal",
                "npm_config_cache",
            ],
        );
    }

    #[test]
    fn hugging_face_tokens_are_hf_and_34_letters_or_more() {
        assert_kinds(
            "huggingface_token",
            &[
                "hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh",
                "hf_aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX",
            ],
            &[
                "hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEf",
                "hf_transfer_enabled",
                "hf_hubdownloadsfromthemirrorsareenabledtoo",
            ],
        );
    }

    #[test]
    fn gitlab_tokens_are_glpat_and_20_characters_or_more() {
        assert_kinds(
            "gitlab_token",
            &["glpat-xR7bK2mN9pQ4sT6vW8yZ", "glpat-AbCdEfGhIj-KlMnOpQrS_t"],
            &["glpat-xR7bK2mN9pQ4sT6vW8", "glpat-documentation-page-here"],
        );
    }

    #[test]
    fn bearer_tokens_are_generated_and_prose_is_not() {
        assert_kinds(
            "bearer_token",
            &[
                "Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc",
                "bearer ya29.a0AfH6SMBx1y2z3",
                "Bearer 0123456789abcdef0123",
            ],
            &[
                "Bearer authentication_scheme_documentation",
                "Bearer YOUR_ACCESS_TOKEN_HERE",
                "Bearer of news",
                "Bearer $GITHUB_TOKEN_VALUE_HERE",
            ],
        );
    }

    #[test]
    fn a_token_starts_a_word() {
        assert_eq!(token_at(b"task-AbCdEfGhIjKlMnOpQrStUv", 2), None);
        assert_eq!(token_at(b"xAKIAIOSFODNN7EXAMPLE", 1), None);
        assert_eq!(
            token_at(b"=AKIAIOSFODNN7EXAMPLE", 1),
            Some((1, 21, "aws_access_key_id"))
        );
    }
}
