//! Secrets told by their structure or their surroundings rather than by a prefix of their
//! own: PEM private keys, JWTs, the password in a URL, Basic credentials, a
//! `PASSWORD=`/`*_SECRET=` line of a `.env` file, an AWS secret access key next to its name.
//! Each finder is called with where its [`Rule::prefix`] starts and where it ends, and gives
//! the part of the text to mask and its kind.
//!
//! A prefix need not be where the secret's context starts (`asic ` for `Basic `, `SSWORD=`
//! for `PASSWORD=`): the finder checks the bytes before it. Prefixes that start with common
//! letters slow down the search of every text for all prefixes at once (aho-corasick's SIMD
//! searcher keys on their first bytes): with these, `mask` ran at 6.0 GB/s over the bundled
//! samples and real logs (release build), 5.2 with the plain names, 9.0 before these rules
//! and formats were added.

use super::tokens::token_char;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;

/// `(start, end, kind)` of the part of a text to mask.
type Found = Option<(usize, usize, &'static str)>;

/// Where a finder looks, and what it finds there.
pub(super) struct Rule {
    pub prefix: &'static str,
    /// Called with the text, where the prefix starts and where it ends.
    pub find: fn(&str, usize, usize) -> Found,
}

pub(super) const RULES: &[Rule] = &[
    Rule {
        prefix: "-----BEGIN ",
        find: private_key_at,
    },
    Rule {
        prefix: "eyJ",
        find: jwt_at,
    },
    Rule {
        prefix: "://",
        find: url_password_at,
    },
    Rule {
        prefix: "asic ",
        find: basic_auth_at,
    },
    Rule {
        prefix: "SSWORD=",
        find: env_secret_at,
    },
    Rule {
        prefix: "SSWD=",
        find: env_secret_at,
    },
    Rule {
        prefix: "ECRET=",
        find: env_secret_at,
    },
    Rule {
        prefix: "ecret_access_key",
        find: aws_secret_at,
    },
    Rule {
        prefix: "ECRET_ACCESS_KEY",
        find: aws_secret_at,
    },
    Rule {
        prefix: "ecretAccessKey",
        find: aws_secret_at,
    },
];

const KEY_END: &str = "-----END ";
const DASHES: &str = "-----";

/// A PEM private key block starting at `i` (to its END line, or to the end of a cut text).
fn private_key_at(text: &str, i: usize, after: usize) -> Found {
    let header = &text[after..];
    let line_end = header.find(DASHES)?;
    if !header[..line_end].ends_with("PRIVATE KEY") || header[..line_end].contains('\n') {
        return None;
    }
    let after_header = after + line_end + DASHES.len();
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
    Some((i, end, "private_key"))
}

fn base64url(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// The end of a run of `base64url` characters from `from`.
fn run_end(bytes: &[u8], from: usize) -> usize {
    from + bytes[from..].iter().take_while(|&&b| base64url(b)).count()
}

/// A signed JWT: a JSON header and a JSON payload (both `eyJ`, base64 of `{"`) and a
/// signature, dot-separated. A lone header, or a token without its signature, is not one.
fn jwt_at(text: &str, i: usize, _: usize) -> Found {
    let bytes = text.as_bytes();
    if i > 0 && (token_char(bytes[i - 1]) || bytes[i - 1] == b'.') {
        return None;
    }
    let header_end = run_end(bytes, i);
    let payload = header_end + 1;
    if header_end - i < 10 || bytes.get(header_end) != Some(&b'.') {
        return None;
    }
    let payload_end = run_end(bytes, payload);
    if !bytes[payload..].starts_with(b"eyJ")
        || payload_end - payload < 10
        || bytes.get(payload_end) != Some(&b'.')
    {
        return None;
    }
    let signature = payload_end + 1;
    let end = run_end(bytes, signature);
    (end - signature >= 16).then_some((i, end, "jwt"))
}

/// What RFC 3986 allows in the user-info part of a URL (`user:password`).
fn userinfo_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~%!$&'()*+,;=:".contains(&b)
}

/// A value that stands for a secret rather than being one: a variable (`$DB_PASSWORD`), a
/// template (`{{ .password }}`, `<password>`), stars, or one masked already.
fn placeholder(value: &str) -> bool {
    value.is_empty()
        || value.starts_with(['$', '<', '{', '%'])
        || value.starts_with("[REDACTED:")
        || value.bytes().all(|b| b == b'*')
}

/// The password of `scheme://user:password@host`, the rest of the URL left as it is.
fn url_password_at(text: &str, i: usize, userinfo: usize) -> Found {
    let bytes = text.as_bytes();
    if i == 0 || !bytes[i - 1].is_ascii_alphanumeric() {
        return None;
    }
    // User-info is short; a long run without `@` is some other part of the URL.
    let limit = (userinfo + 512).min(bytes.len());
    let at = userinfo
        + bytes[userinfo..limit]
            .iter()
            .position(|&b| !userinfo_char(b))?;
    let host_starts = bytes
        .get(at + 1)
        .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'[');
    if bytes[at] != b'@' || !host_starts {
        return None;
    }
    let colon = userinfo + bytes[userinfo..at].iter().position(|&b| b == b':')?;
    let password = colon + 1;
    (!placeholder(&text[password..at])).then_some((password, at, "password"))
}

/// Values that switch something rather than being a secret (`REQUIRE_PASSWORD=true`).
const NOT_SECRETS: &[&str] = &["true", "false", "yes", "no", "none", "null", "0", "1"];

/// The value of `NAME=value` whose upper-case name ends in `PASSWORD`, `PASSWD` or `SECRET`
/// (a `.env` line, a shell assignment): `i` is inside the name, `value` where the value
/// starts. A quoted value is masked inside its quotes.
fn env_secret_at(text: &str, i: usize, value: usize) -> Found {
    let bytes = text.as_bytes();
    let name_start = bytes[..i]
        .iter()
        .rposition(|&b| !(b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_'))
        .map_or(0, |p| p + 1);
    if name_start > 0 && bytes[name_start - 1].is_ascii_alphanumeric() {
        return None;
    }
    let name = &text[name_start..value - 1];
    let kind = if name.ends_with("SECRET") {
        "secret"
    } else if name.ends_with("PASSWORD") || name.ends_with("PASSWD") {
        "password"
    } else {
        return None;
    };
    let (start, end) = match bytes.get(value) {
        Some(&quote @ (b'"' | b'\'')) => {
            let start = value + 1;
            let len = bytes[start..]
                .iter()
                .position(|&b| b == quote || b == b'\n')
                .unwrap_or(bytes.len() - start);
            (start, start + len)
        }
        _ => {
            let len = bytes[value..]
                .iter()
                .position(|&b| b.is_ascii_whitespace() || b"\"'`;&|\\".contains(&b))
                .unwrap_or(bytes.len() - value);
            (value, value + len)
        }
    };
    let secret = &text[start..end];
    let switch = NOT_SECRETS.iter().any(|s| secret.eq_ignore_ascii_case(s));
    (!placeholder(secret) && !secret.starts_with('=') && !switch).then_some((start, end, kind))
}

fn base64_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'+' || b == b'/'
}

/// The credentials of `Basic <base64>` (HTTP Basic authentication, `Authorization: Basic`),
/// `i` just after the `B`/`b`: valid base64 of `user:password` with a password, the only
/// thing that tells them from prose (`Basic authentication`, `basic usage`).
fn basic_auth_at(text: &str, i: usize, body: usize) -> Found {
    let bytes = text.as_bytes();
    let word = i.checked_sub(1)?;
    if !matches!(bytes[word], b'B' | b'b') || (word > 0 && token_char(bytes[word - 1])) {
        return None;
    }
    let padded = |b: &u8| base64_char(*b) || *b == b'=';
    let end = body + bytes[body..].iter().take_while(|b| padded(b)).count();
    let Ok(decoded) = STANDARD.decode(&bytes[body..end]) else {
        return None;
    };
    let credentials = std::str::from_utf8(&decoded).is_ok_and(|text| {
        text.split_once(':')
            .is_some_and(|(_, password)| !password.is_empty())
            && !text.chars().any(char::is_control)
    });
    credentials.then_some((body, end, "basic_auth"))
}

/// The 40 characters of an AWS secret access key right after its name
/// (`aws_secret_access_key = ...`, `AWS_SECRET_ACCESS_KEY=...`, `"SecretAccessKey": "..."`),
/// past a closing quote, spaces and one `=` or `:`. Forty such characters anywhere else are
/// too common (hashes, paths) to be taken for one.
fn aws_secret_at(text: &str, i: usize, name_end: usize) -> Found {
    let bytes = text.as_bytes();
    // The prefix leaves out the name's first letter.
    if i == 0 || !matches!(bytes[i - 1], b's' | b'S') {
        return None;
    }
    let mut at = name_end;
    let skip = |at: &mut usize, what: &[u8], most: usize| {
        let mut n = 0;
        while n < most && bytes.get(*at).is_some_and(|b| what.contains(b)) {
            *at += 1;
            n += 1;
        }
    };
    skip(&mut at, b"\"'", 1);
    skip(&mut at, b" \t", 8);
    skip(&mut at, b"=:", 1);
    skip(&mut at, b" \t", 8);
    skip(&mut at, b"\"'", 1);
    let len = bytes[at..].iter().take_while(|&&b| base64_char(b)).count();
    let end = at + len;
    let key = &bytes[at..end];
    let looks_random =
        key.iter().any(u8::is_ascii_uppercase) && key.iter().any(u8::is_ascii_lowercase);
    (len == 40 && bytes.get(end) != Some(&b'=') && looks_random).then_some((
        at,
        end,
        "aws_secret_access_key",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the first rule to find something in `text` masks, and its kind.
    fn found(text: &str) -> Option<(String, &'static str)> {
        (0..text.len())
            .filter(|&i| text.is_char_boundary(i))
            .find_map(|i| {
                RULES
                    .iter()
                    .filter(|r| text[i..].starts_with(r.prefix))
                    .find_map(|r| (r.find)(text, i, i + r.prefix.len()))
                    .map(|(start, end, kind)| (text[start..end].to_owned(), kind))
            })
    }

    fn masks(text: &str, secret: &str, kind: &str) {
        assert_eq!(found(text), Some((secret.to_owned(), kind)), "in {text}");
    }

    fn leaves(text: &str) {
        assert_eq!(found(text), None, "in {text}");
    }

    const JWT: &str = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";

    #[test]
    fn jwts_are_a_header_a_payload_and_a_signature() {
        masks(&format!("token {JWT}."), JWT, "jwt");
        masks(&format!("\"id_token\":\"{JWT}\""), JWT, "jwt");
        // A header alone, no signature, a payload that is not JSON, inside a word.
        leaves("eyJhbGciOiJIUzI1NiJ9");
        leaves("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.");
        leaves("eyJhbGciOiJIUzI1NiJ9.e30.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9P");
        leaves(&format!("heyJ{}", &JWT[3..]));
    }

    #[test]
    fn a_url_loses_its_password_and_keeps_the_rest() {
        masks(
            "DATABASE_URL=postgres://app:s3cr3t-Pa55@db.internal:5432/app",
            "s3cr3t-Pa55",
            "password",
        );
        masks("redis://:hunter2@127.0.0.1:6379", "hunter2", "password");
        masks(
            "https://deploy:ghp%2Fx!y@github.com/org/repo.git",
            "ghp%2Fx!y",
            "password",
        );
        leaves("https://example.com:8080/path");
        leaves("ssh://git@github.com:22/org/repo");
        leaves("https://host/a:b@c");
        leaves("http://user:@host");
        leaves("postgres://app:${DB_PASSWORD}@db/app");
        leaves("postgres://app:$PGPASSWORD@db/app");
        leaves("mysql://root:****@localhost");
        leaves("see :// here");
    }

    #[test]
    fn env_lines_lose_their_password_and_secret_values() {
        masks("PASSWORD=hunter2", "hunter2", "password");
        masks("export DB_PASSWORD=p@ss w0rd", "p@ss", "password");
        masks(
            "DB_PASSWORD=\"correct horse battery\"\nNEXT=1",
            "correct horse battery",
            "password",
        );
        masks("MYSQL_ROOT_PASSWD='x!9;z'", "x!9;z", "password");
        masks("CLIENT_SECRET=9f8e7d6c5b4a; next", "9f8e7d6c5b4a", "secret");
        masks("docker run -e JWT_SECRET=abc123 app", "abc123", "secret");
        leaves("DB_PASSWORD=");
        leaves("DB_PASSWORD=$DB_PASSWORD_FROM_VAULT");
        leaves("DB_PASSWORD=${DB_PASSWORD}");
        leaves("DB_PASSWORD=<your password>");
        leaves("DB_PASSWORD=\"\"");
        leaves("REQUIRE_PASSWORD=true");
        leaves("if DB_PASSWORD==x");
        leaves("myPASSWORD=hunter2");
        leaves("DB_PASSWORD=[REDACTED:password]");
        leaves("USE_SECRET=false");
    }

    const AWS_SECRET: &str = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

    #[test]
    fn an_aws_secret_key_is_masked_next_to_its_name() {
        assert_eq!(AWS_SECRET.len(), 40);
        for text in [
            format!("aws_secret_access_key = {AWS_SECRET}"),
            format!("export AWS_SECRET_ACCESS_KEY={AWS_SECRET}"),
            format!("\"SecretAccessKey\": \"{AWS_SECRET}\","),
            format!("secretAccessKey: '{AWS_SECRET}'"),
            format!("aws configure set aws_secret_access_key {AWS_SECRET}"),
        ] {
            masks(&text, AWS_SECRET, "aws_secret_access_key");
        }
        // One character short or long, a placeholder, a hash-like lower-case value, a name
        // with something else after it or before it.
        leaves(&format!("aws_secret_access_key = {}", &AWS_SECRET[1..]));
        leaves(&format!("aws_secret_access_key = {AWS_SECRET}x"));
        leaves("AWS_SECRET_ACCESS_KEY=${AWS_SECRET_ACCESS_KEY}");
        leaves("aws_secret_access_key = 0123456789abcdef0123456789abcdef01234567");
        leaves(&format!("AWS_SECRET_ACCESS_KEY_ID={AWS_SECRET}"));
        leaves("The SecretAccessKey field holds the key.");
        leaves(&format!("xecretAccessKey: {AWS_SECRET}"));
    }

    #[test]
    fn basic_auth_is_base64_of_user_and_password() {
        // "aladdin:opensesame", and ":api-token" (a token as the password).
        masks(
            "Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l\r\n",
            "YWxhZGRpbjpvcGVuc2VzYW1l",
            "basic_auth",
        );
        masks(
            "authorization: basic OmFwaS10b2tlbg==",
            "OmFwaS10b2tlbg==",
            "basic_auth",
        );
        leaves("Basic authentication");
        leaves("basic usage");
        leaves("Basic info");
        // Base64, but of no `user:password`; "user:" has no password; inside a word.
        leaves("Basic aGVsbG8gd29ybGQ=");
        leaves("Basic dXNlcjo=");
        leaves("HTTPBasic YWxhZGRpbjpvcGVuc2VzYW1l");
    }

    #[test]
    fn env_names_must_end_in_the_word() {
        leaves("XSSWORD=hunter2");
        leaves("NO_SECRETS=hunter2");
        masks("PASSWD=hunter2", "hunter2", "password");
    }

    #[test]
    fn private_keys_and_not_certificates() {
        let text = "a\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----\nb";
        masks(text, &text[2..text.len() - 2], "private_key");
        leaves("-----BEGIN CERTIFICATE-----\nMIIB");
    }
}
