//! Masks that hold (issue 28): the index never holds a secret an answer would mask, so no
//! search rebuilds or confirms one; `--show-secrets` chosen when indexing keeps the raw text,
//! the choice is recorded, and opening the index with the other choice rebuilds it (sessions
//! whose log is gone re-read from their archived copy). Archived copies are private.

mod common;

use std::path::{Path, PathBuf};

use agtrace_tools::config::Config;
use agtrace_tools::index::SearchQuery;
use agtrace_tools::store::TraceStore;
use serde_json::json;

const SESSION: &str = "mask-ingest-session-0001";

/// The AWS access key id an attacker rebuilt character by character with prefix queries.
const AWS_KEY_ID: &str = "AKIAQ7RZ5XK2MBN4TW3P";

/// One planted secret per format the secrets module masks: the text written to the log, and
/// the distinctive part that must not be found (in the index file, or by a search).
const SECRETS: [(&str, &str); 10] = [
    ("export AWS_ACCESS_KEY_ID=AKIAQ7RZ5XK2MBN4TW3P", AWS_KEY_ID),
    (
        "aws_secret_access_key = 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",
        "bPxRfiQzPLANTEDKEY",
    ),
    (
        "token ghp_Zq8RtY2uVw4xKpL6mN0bC3dF5gH7jS9aE1iO",
        "Zq8RtY2uVw4xKpL6mN0bC3dF5gH7jS9aE1iO",
    ),
    (
        "OPENAI_API_KEY=sk-proj-Qw3rTy7uIo9pAs2dFg4hJk6lZx8cVb",
        "Qw3rTy7uIo9pAs2dFg4hJk6lZx8cVb",
    ),
    (
        "id_token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwbGFudGVkIn0.Kx7Rq2Lm9Zt4Wv8Yp3Nb6Hc1Jd5Fg0Qs;",
        "Kx7Rq2Lm9Zt4Wv8Yp3Nb6Hc1Jd5Fg0Qs",
    ),
    (
        "DATABASE_URL=postgres://app:Pl4ntedDbPassw0rd@db:5432/app",
        "Pl4ntedDbPassw0rd",
    ),
    (
        "curl https://hooks.slack.com/services/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",
        "Wb7Kq2Xz9Lm4Rt6Yv8Np3Sd1",
    ),
    (
        "stripe key=sk_live_9mQz4Rt7Yp2Wx6Kv3Lb8Nc5D",
        "9mQz4Rt7Yp2Wx6Kv3Lb8Nc5D",
    ),
    (
        "maps AIzaSyQ7w2E4r6T8y0U1i3O5p7A9s1D3f5G7h9J",
        "AIzaSyQ7w2E4r6T8y0U1i3O5p7A9s1D3f5G7h9J",
    ),
    (
        "Authorization: Bearer Tk9Qm2Wr7Xz4Lp6Vb3Ns8Hd1Fy5",
        "Tk9Qm2Wr7Xz4Lp6Vb3Ns8Hd1Fy5",
    ),
];

/// Names that share a secret's prefix and are not secrets: they stay as they are, searchable.
const ORDINARY: [(&str, &str); 3] = [
    ("sk-payments-worker-7d9f8b6c5-x2k4p-blue", "x2k4p"),
    ("ASIAPACIFICNORTH2024", "ASIAPACIFICNORTH2024"),
    (
        "Bearer authentication_scheme_documentation",
        "\"authentication_scheme_documentation\"",
    ),
];

fn user(i: usize, content: serde_json::Value) -> String {
    json!({"type":"user","sessionId":SESSION,"cwd":"/work/masks","uuid":format!("u{i}"),
        "timestamp":format!("2026-03-01T10:00:{i:02}Z"),"message":{"role":"user","content":content}})
    .to_string()
}

fn tool_call(i: usize, id: &str, command: &str) -> String {
    json!({"type":"assistant","sessionId":SESSION,"cwd":"/work/masks","uuid":format!("a{i}"),
        "timestamp":format!("2026-03-01T10:00:{i:02}Z"),
        "message":{"id":format!("msg{i}"),"role":"assistant","model":"claude-sonnet-4-5",
            "content":[{"type":"tool_use","id":id,"name":"Bash","input":{"command":command}}]}})
    .to_string()
}

/// A session whose prompts and tool outputs hold every planted secret and ordinary name.
fn write_session(logs: &Path) -> PathBuf {
    let dir = logs.join("claude/projects/-work-masks");
    std::fs::create_dir_all(&dir).unwrap();
    let mut lines = Vec::new();
    for (n, (text, _)) in SECRETS.iter().enumerate() {
        let i = lines.len();
        lines.push(user(i, json!(format!("please use {text} for the deploy"))));
        let id = format!("toolu_{n:02}");
        lines.push(tool_call(i + 1, &id, "cat .env"));
        lines.push(user(
            i + 2,
            json!([{"type":"tool_result","tool_use_id":id,"content":format!("loaded {text}\nok")}]),
        ));
    }
    for (text, _) in ORDINARY {
        let i = lines.len();
        lines.push(user(i, json!(format!("kubectl describe {text}"))));
    }
    let path = dir.join(format!("{SESSION}.jsonl"));
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

type Tree = common::OneLogTree;

fn tree() -> Tree {
    Tree::new(write_session)
}

impl common::OneLogTree {
    /// The bytes of the index and its companions, ASCII lower-cased (the word index keeps its
    /// terms lower-cased).
    fn index_bytes(&self) -> Vec<(String, Vec<u8>)> {
        ["index.sqlite", "index.sqlite-wal", "index.sqlite-shm"]
            .into_iter()
            .filter_map(|name| {
                let bytes = std::fs::read(self.data.join(name)).ok()?;
                Some((name.to_string(), bytes.to_ascii_lowercase()))
            })
            .collect()
    }
}

fn hits(store: &TraceStore, text: &str) -> usize {
    store
        .search(&SearchQuery {
            text: text.to_string(),
            limit: 50,
            ..Default::default()
        })
        .unwrap()
        .hits
        .len()
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    let needle = needle.to_ascii_lowercase();
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

/// Every search an attacker would try for each secret: the secret as words, as a phrase, and
/// each prefix of the AWS key id from 4 characters up, as a prefix query and as a word.
fn attacks() -> Vec<String> {
    let mut out = Vec::new();
    for (_, secret) in SECRETS {
        out.push(secret.to_string());
        out.push(format!("\"{secret}\""));
    }
    for n in 4..=AWS_KEY_ID.len() {
        out.push(format!("{}*", &AWS_KEY_ID[..n]));
        out.push(AWS_KEY_ID[..n].to_string());
    }
    out
}

fn assert_index_holds_no_secret(tree: &Tree) {
    for (name, bytes) in tree.index_bytes() {
        for (_, secret) in SECRETS {
            // The last characters too: the word index stores a term after the prefix it shares
            // with the term before it.
            let tail = &secret[secret.len() - 10..];
            assert!(
                !contains(&bytes, secret) && !contains(&bytes, tail),
                "{name} holds the secret {secret}"
            );
        }
    }
}

fn assert_no_search_finds_a_secret(store: &TraceStore) {
    for q in attacks() {
        assert_eq!(hits(store, &q), 0, "the search {q} finds a masked secret");
    }
}

fn assert_ordinary_names_searchable(store: &TraceStore) {
    for (name, query) in ORDINARY {
        assert_eq!(hits(store, query), 1, "{name} is not found by {query}");
    }
}

#[test]
fn the_index_holds_no_secret_and_no_search_finds_one() {
    let tree = tree();
    let store = tree.store(false, false);
    // The prompts and outputs are indexed: a word beside each secret is found.
    assert_eq!(hits(&store, "deploy"), SECRETS.len());
    assert_eq!(hits(&store, "loaded"), SECRETS.len());
    assert_no_search_finds_a_secret(&store);
    assert_ordinary_names_searchable(&store);
    let summary = store.session_summary(SESSION).unwrap();
    assert!(
        summary.first_prompt.unwrap().contains("[REDACTED:"),
        "the first prompt is masked"
    );
    drop(store);
    assert_index_holds_no_secret(&tree);
}

#[test]
fn masked_ordinary_names_stay_as_they_are_in_the_index() {
    let tree = tree();
    drop(tree.store(false, false));
    let all: Vec<u8> = tree
        .index_bytes()
        .into_iter()
        .flat_map(|(_, b)| b)
        .collect();
    for (name, _) in ORDINARY {
        assert!(contains(&all, name), "{name} was masked in the index");
    }
}

#[test]
fn secrets_shown_when_indexing_are_searchable_and_a_switch_rebuilds_the_index() {
    let tree = tree();
    let store = tree.store(true, false);
    for (_, secret) in SECRETS {
        // In its prompt and in its tool output.
        assert_eq!(hits(&store, secret), 2, "{secret} is not found");
    }
    assert_eq!(hits(&store, &format!("{}*", &AWS_KEY_ID[..6])), 2);
    drop(store);
    // The check of the file's bytes finds what is there: every secret of a text the index
    // stores plain (the longer texts are read back from the log, not stored).
    let all: Vec<u8> = tree
        .index_bytes()
        .into_iter()
        .flat_map(|(_, b)| b)
        .collect();
    let plain: Vec<String> = rusqlite::Connection::open(tree.data.join("index.sqlite"))
        .unwrap()
        .prepare("SELECT text FROM events WHERE typeof(text) = 'text'")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let stored: Vec<&str> = SECRETS
        .iter()
        .map(|(_, secret)| *secret)
        .filter(|secret| plain.iter().any(|t| t.contains(secret)))
        .collect();
    assert!(
        stored.len() >= 3,
        "the short texts hold secrets: {stored:?}"
    );
    for secret in stored {
        assert!(contains(&all, secret), "{secret} is not in the raw index");
    }

    // Opened masking: rebuilt, and the raw text is gone from the file too.
    let store = tree.store(false, false);
    assert_no_search_finds_a_secret(&store);
    assert_ordinary_names_searchable(&store);
    assert_eq!(hits(&store, "deploy"), SECRETS.len());
    drop(store);
    assert_index_holds_no_secret(&tree);

    // And back: the secrets are found again.
    let store = tree.store(true, false);
    for (_, secret) in SECRETS {
        assert_eq!(
            hits(&store, secret),
            2,
            "{secret} is not found after the switch"
        );
    }
}

#[test]
fn a_store_opened_with_the_other_choice_never_searches_the_old_index() {
    let tree = tree();
    drop(tree.store(true, false));
    // No refresh: opening is enough.
    let mut cfg = Config::for_tree(&tree.logs, &tree.data);
    cfg.show_secrets = false;
    let store = TraceStore::open(cfg).unwrap();
    assert_no_search_finds_a_secret(&store);
    assert_eq!(hits(&store, "deploy"), SECRETS.len());
}

#[test]
fn a_session_whose_log_is_gone_is_rebuilt_from_its_archived_copy() {
    let tree = tree();
    drop(tree.store(true, true));
    std::fs::remove_file(&tree.log).unwrap();
    let store = tree.store(true, true);
    assert!(store.session_summary(SESSION).unwrap().archived);
    assert_eq!(hits(&store, AWS_KEY_ID), 2);
    drop(store);

    let store = tree.store(false, true);
    let summary = store.session_summary(SESSION).unwrap();
    assert!(summary.archived, "the session is kept, from its copy");
    assert_no_search_finds_a_secret(&store);
    assert_eq!(hits(&store, "deploy"), SECRETS.len());
    assert_ordinary_names_searchable(&store);
    drop(store);
    assert_index_holds_no_secret(&tree);
}

#[cfg(unix)]
fn mode(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

#[cfg(unix)]
fn set_mode(p: &Path, m: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
}

/// The archive folder and everything below it.
#[cfg(unix)]
fn archive_entries(data: &Path) -> Vec<PathBuf> {
    let mut out = vec![data.join("archive")];
    let mut i = 0;
    while i < out.len() {
        if out[i].is_dir() {
            let mut more: Vec<PathBuf> = std::fs::read_dir(&out[i])
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            out.append(&mut more);
        }
        i += 1;
    }
    out
}

#[cfg(unix)]
fn assert_archive_private(data: &Path) {
    let entries = archive_entries(data);
    assert!(entries.len() >= 3, "{entries:?}");
    for p in entries {
        let want = if p.is_dir() { 0o700 } else { 0o600 };
        assert_eq!(mode(&p), want, "{} has mode {:o}", p.display(), mode(&p));
    }
}

#[cfg(unix)]
#[test]
fn archived_copies_are_0600_in_0700_folders_and_loose_ones_are_tightened() {
    let tree = tree();
    drop(tree.store(false, true));
    assert_archive_private(&tree.data);

    // Left readable by an older agtrace: tightened when the copy is next written.
    for p in archive_entries(&tree.data) {
        set_mode(&p, if p.is_dir() { 0o755 } else { 0o644 });
    }
    let mut log = std::fs::OpenOptions::new()
        .append(true)
        .open(&tree.log)
        .unwrap();
    std::io::Write::write_all(
        &mut log,
        (user(99, json!("one more prompt")) + "\n").as_bytes(),
    )
    .unwrap();
    drop(tree.store(false, true));
    assert_archive_private(&tree.data);
}
