//! The search syntax through `search_event_previews`: OR, exclusion, prefix and phrase work;
//! unsupported forms are `invalid_parameter` saying what is supported; no query is `internal`.

use std::collections::BTreeSet;

use agtrace_tools::config::Config;
use agtrace_tools::index::search_syntax::SUPPORTED;
use agtrace_tools::store::TraceStore;
use mcp_tool::testing::{Answer, TestClient};
use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, TestRunner};
use serde_json::json;

/// One event per text, in this order (event index = position).
const TEXTS: [&str; 7] = [
    "alpha build failed",
    "beta build passed",
    "gamma deploy failed",
    "alphabet soup",
    "failed build alpha",
    "text error here",
    "unrelated words only",
];

struct Served {
    _tmp: tempfile::TempDir,
    client: TestClient,
}

async fn served() -> Served {
    let tmp = tempfile::tempdir().unwrap();
    let logs = tmp.path().join("logs");
    let dir = logs.join("claude/projects/-work-demo");
    std::fs::create_dir_all(&dir).unwrap();
    let lines: Vec<String> = TEXTS
        .iter()
        .enumerate()
        .map(|(i, text)| {
            json!({"type":"user","sessionId":"syntax-session-0001","cwd":"/work/demo","uuid":format!("u{i}"),
                "timestamp":format!("2026-02-01T10:00:0{i}Z"),"message":{"role":"user","content":text}})
            .to_string()
        })
        .collect();
    std::fs::write(
        dir.join("syntax-session-0001.jsonl"),
        lines.join("\n") + "\n",
    )
    .unwrap();
    let store = TraceStore::open(Config::for_tree(&logs, &tmp.path().join("data"))).unwrap();
    store.refresh().unwrap();
    let server = agtrace_tools::server::build(store).unwrap();
    let client = TestClient::in_process(&server).await;
    Served { _tmp: tmp, client }
}

async fn call(c: &TestClient, query: &str) -> Answer {
    c.call(
        "search_event_previews",
        json!({"query": query, "limit": 50}),
    )
    .await
}

/// The texts a query finds.
async fn found(c: &TestClient, query: &str) -> BTreeSet<&'static str> {
    let a = call(c, query).await;
    a.expect_ok()
        .as_array()
        .unwrap()
        .iter()
        .map(|h| TEXTS[h["event_index"].as_u64().unwrap() as usize])
        .collect()
}

fn set(texts: &[&'static str]) -> BTreeSet<&'static str> {
    texts.iter().copied().collect()
}

#[tokio::test]
async fn plain_words_are_all_required_and_or_gives_the_union() {
    let s = served().await;
    let c = &s.client;
    assert_eq!(found(c, "build failed").await, set(&[TEXTS[0], TEXTS[4]]));
    let passed = found(c, "passed").await;
    let deploy = found(c, "deploy").await;
    assert_eq!(passed, set(&[TEXTS[1]]));
    assert_eq!(deploy, set(&[TEXTS[2]]));
    let union: BTreeSet<_> = passed.union(&deploy).copied().collect();
    assert_eq!(found(c, "passed OR deploy").await, union);
    // OR binds tighter than the implicit AND: failed and (alpha or gamma).
    assert_eq!(
        found(c, "failed alpha OR gamma").await,
        set(&[TEXTS[0], TEXTS[2], TEXTS[4]])
    );
    // Lower-case `or` and `AND` are a word and the implicit AND.
    assert_eq!(found(c, "build AND passed").await, set(&[TEXTS[1]]));
    assert!(found(c, "passed or deploy").await.is_empty());
}

#[tokio::test]
async fn minus_and_not_exclude() {
    let s = served().await;
    let c = &s.client;
    assert_eq!(
        found(c, "failed").await,
        set(&[TEXTS[0], TEXTS[2], TEXTS[4]])
    );
    assert_eq!(found(c, "failed -build").await, set(&[TEXTS[2]]));
    assert_eq!(found(c, "failed NOT build").await, set(&[TEXTS[2]]));
    assert_eq!(found(c, "-alpha failed -gamma").await, BTreeSet::new());
    assert_eq!(found(c, "build -alpha").await, set(&[TEXTS[1]]));
    // `--flag` is a word, not an exclusion.
    assert_eq!(found(c, "--build passed").await, set(&[TEXTS[1]]));
}

#[tokio::test]
async fn a_trailing_star_is_a_prefix_and_quotes_are_an_exact_phrase() {
    let s = served().await;
    let c = &s.client;
    assert_eq!(found(c, "alpha").await, set(&[TEXTS[0], TEXTS[4]]));
    assert_eq!(
        found(c, "alpha*").await,
        set(&[TEXTS[0], TEXTS[3], TEXTS[4]])
    );
    assert_eq!(found(c, "\"alphab\"*").await, set(&[TEXTS[3]]));
    assert_eq!(found(c, "\"build failed\"").await, set(&[TEXTS[0]]));
    assert_eq!(found(c, "\"failed build\"").await, set(&[TEXTS[4]]));
    assert!(found(c, "\"alpha failed\"").await.is_empty());
    // Quoted, operators and column-like words are plain text.
    assert_eq!(found(c, "\"text:error\"").await, set(&[TEXTS[5]]));
    assert_eq!(found(c, "\"OR\" build").await, BTreeSet::new());
}

#[tokio::test]
async fn unsupported_forms_are_invalid_parameter_saying_what_is_supported() {
    let s = served().await;
    let c = &s.client;
    for q in [
        "text:error",
        "tags:x alpha",
        "(alpha OR beta)",
        "NOT alpha",
        "-alpha",
        "*",
        "alpha *",
        "*pha",
        "al*ha",
        "alpha OR",
        "OR alpha",
        "alpha OR OR beta",
        "alpha NOT -beta",
        "alpha AND",
        " -- !! ",
    ] {
        let a = call(c, q).await;
        assert_eq!(
            a.error_code(),
            Some("invalid_parameter"),
            "{q}: {}",
            a.envelope
        );
        assert_eq!(a.error()["details"]["path"], "query", "{q}");
        let message = a.error()["message"].as_str().unwrap();
        assert!(message.ends_with(SUPPORTED), "{q}: {message}");
    }
    let a = call(c, "text:error").await;
    assert!(
        a.error()["message"]
            .as_str()
            .unwrap()
            .contains("column filters are not supported")
    );
    // URLs, paths and `a::b` are words, not column filters.
    for q in ["http://alpha", "std::alpha", "C:\\alpha"] {
        call(c, q).await.expect_ok();
    }
}

#[tokio::test]
async fn a_query_has_at_most_max_terms() {
    use agtrace_tools::index::search_syntax::MAX_TERMS;
    let s = served().await;
    let c = &s.client;
    let words = |n: usize| vec!["alpha"; n].join(" OR ");
    assert_eq!(
        found(c, &words(MAX_TERMS)).await,
        set(&[TEXTS[0], TEXTS[4]])
    );
    let a = call(c, &words(MAX_TERMS + 1)).await;
    assert_eq!(a.error_code(), Some("invalid_parameter"));
    assert!(
        a.error()["message"]
            .as_str()
            .unwrap()
            .starts_with(&format!("At most {MAX_TERMS} terms"))
    );
}

#[tokio::test]
async fn control_characters_separate_words() {
    let s = served().await;
    let c = &s.client;
    assert_eq!(found(c, "build\0failed").await, set(&[TEXTS[0], TEXTS[4]]));
    assert_eq!(
        found(c, "\u{1}\"build\u{7}failed\"\u{1b}").await,
        set(&[TEXTS[0]])
    );
    for q in ["\0", "\"\0", "\u{7f}*"] {
        assert_eq!(
            call(c, q).await.error_code(),
            Some("invalid_parameter"),
            "{q:?}"
        );
    }
}

#[test]
fn the_query_description_names_the_syntax() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let s = rt.block_on(served());
    let tools = rt.block_on(s.client.list_tools());
    let tool = tools
        .iter()
        .find(|t| t.name == "search_event_previews")
        .unwrap();
    let d = tool.input_schema["properties"]["query"]["description"]
        .as_str()
        .unwrap();
    for part in ["OR", "-word", "pre*", "\"exact phrase\""] {
        assert!(d.contains(part), "{d}");
    }
}

#[test]
fn no_query_string_is_an_internal_error() {
    let rt = tokio::runtime::Runtime::new().unwrap();
    let s = rt.block_on(served());
    let piece = prop_oneof![
        Just("OR".to_string()),
        Just("NOT".to_string()),
        Just("AND".to_string()),
        Just("NEAR".to_string()),
        Just("\"".to_string()),
        Just("*".to_string()),
        Just("-".to_string()),
        Just(":".to_string()),
        Just("(".to_string()),
        Just(")".to_string()),
        Just("^".to_string()),
        Just("\0".to_string()),
        Just(" ".to_string()),
        Just("alpha".to_string()),
        Just("text".to_string()),
        "\\PC{0,4}",
        any::<char>().prop_map(String::from),
    ];
    let query = prop::collection::vec(piece, 0..12).prop_map(|p| p.concat());
    let mut runner = TestRunner::new(ProptestConfig {
        cases: 400,
        failure_persistence: None,
        ..ProptestConfig::default()
    });
    runner
        .run(&query, |q| {
            let a = rt.block_on(call(&s.client, &q));
            let code = a.error_code();
            prop_assert!(
                code.is_none() || code == Some("invalid_parameter"),
                "{q:?}: {}",
                a.envelope
            );
            Ok(())
        })
        .unwrap();
}
