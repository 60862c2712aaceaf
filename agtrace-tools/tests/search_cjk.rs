//! Search inside unspaced Chinese, Japanese and Korean text: a word within a run is found (the
//! word index alone keeps the whole run as one token), with the search syntax's operators and
//! filters; queries without CJK characters find what they found before.

use std::collections::BTreeSet;
use std::path::Path;

use agtrace_tools::config::Config;
use agtrace_tools::index::SearchQuery;
use agtrace_tools::model::{EventKind, Provider};
use agtrace_tools::store::TraceStore;
use serde_json::json;

const SESSION: &str = "cjk-session-0001";

/// One user event per text, in this order (event index = position).
const TEXTS: [&str; 8] = [
    "全文検索機能を追加しました",
    "我们需要修复搜索功能的错误",
    "한국어검색기능을추가",
    "alpha build failed",
    "beta build passed",
    "Rust製ツールの検索が遅い error",
    "日本語のテキスト",
    "plain words only",
];

fn write_session(logs: &Path, texts: &[&str]) {
    let dir = logs.join("claude/projects/-work-cjk");
    std::fs::create_dir_all(&dir).unwrap();
    let lines: Vec<String> = texts
        .iter()
        .enumerate()
        .map(|(i, text)| {
            json!({"type":"user","sessionId":SESSION,"cwd":"/work/cjk","uuid":format!("u{i}"),
                "timestamp":format!("2026-02-01T10:00:0{i}Z"),"message":{"role":"user","content":text}})
            .to_string()
        })
        .collect();
    std::fs::write(
        dir.join(format!("{SESSION}.jsonl")),
        lines.join("\n") + "\n",
    )
    .unwrap();
}

fn store(tmp: &Path) -> TraceStore {
    let logs = tmp.join("logs");
    write_session(&logs, &TEXTS);
    let store = TraceStore::open(Config::for_tree(&logs, &tmp.join("data"))).unwrap();
    store.refresh().unwrap();
    store
}

fn query(text: &str) -> SearchQuery {
    SearchQuery {
        text: text.to_string(),
        limit: 50,
        ..Default::default()
    }
}

/// The texts `q` finds.
fn found(store: &TraceStore, q: &SearchQuery) -> BTreeSet<&'static str> {
    store
        .search(q)
        .unwrap()
        .hits
        .iter()
        .map(|h| TEXTS[h.event_index as usize])
        .collect()
}

fn set(texts: &[&'static str]) -> BTreeSet<&'static str> {
    texts.iter().copied().collect()
}

#[test]
fn a_cjk_word_inside_an_unspaced_run_is_found() {
    let tmp = tempfile::tempdir().unwrap();
    let s = store(tmp.path());
    // Japanese: 2 characters (scanned), 4 characters (trigrams), kana.
    assert_eq!(found(&s, &query("検索")), set(&[TEXTS[0], TEXTS[5]]));
    assert_eq!(found(&s, &query("検索機能")), set(&[TEXTS[0]]));
    assert_eq!(found(&s, &query("追加しました")), set(&[TEXTS[0]]));
    assert_eq!(found(&s, &query("テキスト")), set(&[TEXTS[6]]));
    // Chinese, and Korean (Hangul runs without spaces too).
    assert_eq!(found(&s, &query("搜索")), set(&[TEXTS[1]]));
    assert_eq!(found(&s, &query("修复搜索功能")), set(&[TEXTS[1]]));
    assert_eq!(found(&s, &query("错误")), set(&[TEXTS[1]]));
    assert_eq!(found(&s, &query("검색")), set(&[TEXTS[2]]));
    // One character, and a word that is not there.
    assert_eq!(found(&s, &query("語")), set(&[TEXTS[6]]));
    assert!(found(&s, &query("機械")).is_empty());
    assert!(found(&s, &query("検索機能が")).is_empty());
}

#[test]
fn cjk_terms_keep_the_search_syntax() {
    let tmp = tempfile::tempdir().unwrap();
    let s = store(tmp.path());
    assert_eq!(
        found(&s, &query("搜索 OR 검색")),
        set(&[TEXTS[1], TEXTS[2]])
    );
    assert_eq!(found(&s, &query("検索 -追加")), set(&[TEXTS[5]]));
    assert_eq!(found(&s, &query("検索 NOT error")), set(&[TEXTS[0]]));
    assert_eq!(found(&s, &query("error 検索")), set(&[TEXTS[5]]));
    assert_eq!(found(&s, &query("build -失敗 -alpha")), set(&[TEXTS[4]]));
    assert_eq!(found(&s, &query("build -検索")), set(&[TEXTS[3], TEXTS[4]]));
    // A term mixing scripts: its CJK-bearing word inside a word, its other word as a word.
    assert_eq!(found(&s, &query("\"rust製 error\"")), set(&[TEXTS[5]]));
    assert_eq!(found(&s, &query("Rust製")), set(&[TEXTS[5]]));
    // Filters apply as for other queries.
    let mut q = query("検索");
    q.kind = Some(EventKind::User);
    q.provider = Some(Provider::ClaudeCode);
    assert_eq!(found(&s, &q).len(), 2);
    q.provider = Some(Provider::Codex);
    assert!(found(&s, &q).is_empty());
    q.provider = None;
    q.kind = Some(EventKind::ToolResult);
    assert!(found(&s, &q).is_empty());
    let mut q = query("検索");
    q.session = Some(SESSION.to_string());
    assert_eq!(found(&s, &q).len(), 2);
}

#[test]
fn cjk_hits_page_and_preview_at_the_word() {
    let tmp = tempfile::tempdir().unwrap();
    let s = store(tmp.path());
    let mut q = query("検索");
    q.limit = 1;
    let first = s.search(&q).unwrap();
    assert_eq!(first.hits.len(), 1);
    assert_eq!(first.hits[0].event_index, 5, "newest first");
    // The match is inside the run, at 検.
    assert_eq!(first.hits[0].match_start, Some(9));
    q.after = first.next;
    let second = s.search(&q).unwrap();
    assert_eq!(second.hits.len(), 1);
    assert_eq!(second.hits[0].event_index, 0);
    assert_eq!(second.hits[0].match_start, Some(2));
    assert!(second.next.is_none());
}

#[test]
fn queries_without_cjk_find_what_they_did() {
    let tmp = tempfile::tempdir().unwrap();
    let s = store(tmp.path());
    assert_eq!(found(&s, &query("build")), set(&[TEXTS[3], TEXTS[4]]));
    assert_eq!(found(&s, &query("build -alpha")), set(&[TEXTS[4]]));
    assert_eq!(
        found(&s, &query("alpha OR plain")),
        set(&[TEXTS[3], TEXTS[7]])
    );
    assert_eq!(found(&s, &query("error")), set(&[TEXTS[5]]));
    // A whole CJK run is one word of the word index, as before.
    assert_eq!(found(&s, &query("fail*")), set(&[TEXTS[3]]));
}

#[test]
fn a_rewritten_log_drops_its_old_cjk_words() {
    let tmp = tempfile::tempdir().unwrap();
    let s = store(tmp.path());
    assert_eq!(found(&s, &query("搜索")).len(), 1);
    // Rewritten with other texts (not an append): the session's rows are replaced.
    write_session(&tmp.path().join("logs"), &["新しい内容だけ"]);
    s.refresh().unwrap();
    assert!(s.search(&query("搜索")).unwrap().hits.is_empty());
    assert_eq!(s.search(&query("内容")).unwrap().hits.len(), 1);
}

#[test]
fn an_index_without_the_cjk_table_gets_it_filled_on_open() {
    let tmp = tempfile::tempdir().unwrap();
    drop(store(tmp.path()));
    let path = tmp.path().join("data/index.sqlite");
    {
        // The index as version 8 left it: no trigram table.
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch("DROP TABLE events_cjk; PRAGMA user_version = 8;")
            .unwrap();
    }
    let s = TraceStore::open(Config::for_tree(
        &tmp.path().join("logs"),
        &tmp.path().join("data"),
    ))
    .unwrap();
    assert_eq!(found(&s, &query("搜索")), set(&[TEXTS[1]]));
    let version: i64 = rusqlite::Connection::open(&path)
        .unwrap()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, 14, "migrated in place to the current version");
}

/// Many events, so that every lookup is read in several batches and the intersection leaps
/// over long runs of one term: each query's pages, walked to the end, give exactly the events
/// whose text holds what it asks, newest first.
#[test]
fn cjk_queries_over_many_events_page_through_exactly_their_matches() {
    let tmp = tempfile::tempdir().unwrap();
    let logs = tmp.path().join("logs");
    // Event i holds 日本語 when i % 3 == 0, error when i % 7 == 0 (or i > 180: a dense run),
    // 検索 when i % 11 == 0: the three overlap at different rates.
    let texts: Vec<String> = (0..240)
        .map(|i| {
            let mut t = format!("event{i}");
            if i % 3 == 0 {
                t.push_str(" これは日本語です");
            }
            if i % 7 == 0 || i > 180 {
                t.push_str(" error");
            }
            if i % 11 == 0 {
                t.push_str(" 全文検索");
            }
            t
        })
        .collect();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    write_session(&logs, &refs);
    let s = TraceStore::open(Config::for_tree(&logs, &tmp.path().join("data"))).unwrap();
    s.refresh().unwrap();
    let holds = |i: usize, w: &str| texts[i].contains(w);
    type Wanted<'a> = Box<dyn Fn(usize) -> bool + 'a>;
    let cases: Vec<(&str, Wanted)> = vec![
        (
            "日本語 error",
            Box::new(|i| holds(i, "日本語") && holds(i, "error")),
        ),
        (
            "error 日本語",
            Box::new(|i| holds(i, "日本語") && holds(i, "error")),
        ),
        (
            "日本語 検索 error",
            Box::new(|i| holds(i, "日本語") && holds(i, "検索") && holds(i, "error")),
        ),
        (
            "日本語 OR 検索",
            Box::new(|i| holds(i, "日本語") || holds(i, "検索")),
        ),
        (
            "日本語 -error",
            Box::new(|i| holds(i, "日本語") && !holds(i, "error")),
        ),
        // One character: the substring scan. `OR` binds tighter than the implied AND.
        (
            "本 error",
            Box::new(|i| holds(i, "本") && holds(i, "error")),
        ),
        (
            "検索 OR 日本語 error -本",
            Box::new(|i| {
                (holds(i, "検索") || holds(i, "日本語")) && holds(i, "error") && !holds(i, "本")
            }),
        ),
    ];
    for (text, wanted) in cases {
        let expected: Vec<u32> = (0..texts.len())
            .rev()
            .filter(|&i| wanted(i))
            .map(|i| i as u32)
            .collect();
        assert!(!expected.is_empty(), "{text}");
        let mut q = query(text);
        q.limit = 7;
        let mut got = Vec::new();
        loop {
            let page = s.search(&q).unwrap();
            got.extend(page.hits.iter().map(|h| h.event_index));
            match page.next {
                Some(next) => q.after = Some(next),
                None => break,
            }
        }
        assert_eq!(got, expected, "{text}");
    }
}
