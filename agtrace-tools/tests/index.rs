//! The index over the bundled samples: listing, resolving, search, events, projects,
//! incremental updates and schema versioning.

mod common;

use agtrace_tools::config::Config;
use agtrace_tools::error::Error;
use agtrace_tools::index::{SearchQuery, SessionFilter};
use agtrace_tools::model::{EventKind, Provider};
use agtrace_tools::store::TraceStore;
use common::{dump, sample_store};

const CLAUDE_ID: &str = "7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9";
const CODEX_ID: &str = "019b04ae-b1c6-7c72-a134-a4c2de66058c";
const GEMINI_ID: &str = "f0a689a6-b0ac-407f-afcc-4fafa9e14e8a";

#[test]
fn indexes_the_samples_with_their_token_numbers() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, store) = sample_store(tmp.path());
    let stats = store.refresh().unwrap();
    assert_eq!(stats.files_seen, 10);
    assert_eq!(stats.files_parsed, 10);
    assert_eq!(stats.malformed_lines, 0);
    assert!(stats.notes.is_empty(), "{:?}", stats.notes);

    let claude = store.session_summary(CLAUDE_ID).unwrap();
    assert_eq!(claude.provider, Provider::ClaudeCode);
    assert_eq!(claude.turn_count, 2);
    assert_eq!(claude.model.as_deref(), Some("claude-sonnet-4-5-20250929"));
    assert_eq!(
        claude.project.root.as_deref(),
        Some("/Users/test_user/agent-sample")
    );
    assert_eq!(
        claude.project.hash.as_deref(),
        Some(agtrace_tools::model::project_hash("/Users/test_user/agent-sample").as_str())
    );
    assert_eq!(claude.tokens.output, 436 + 126 + 112 + 123 + 1 + 46);
    let codex = store.session_summary(CODEX_ID).unwrap();
    assert_eq!(
        (codex.tokens.input, codex.tokens.output, codex.tokens.total),
        (26_740, 408, 27_148)
    );
    assert_eq!(codex.tool_errors, 2);
    let gemini = store.session_summary(GEMINI_ID).unwrap();
    assert_eq!(
        gemini.project.hash.as_deref(),
        Some("9126eddec7f67e038794657b4d517dd9cb5226468f30b5ee7296c27d65e84fde")
    );
    assert_eq!(
        gemini.first_prompt.as_deref(),
        Some("add myapp directory and create myapp/hoge.py which shows result of print(1+1).")
    );

    // Sub-agents: Claude sidechain under its session; Codex reviews linked by spawn time.
    let agent = store.session_summary("agent-0c4c3cf8").unwrap();
    assert!(agent.is_subagent);
    assert_eq!(agent.parent_id.as_deref(), Some(CLAUDE_ID));
    assert_eq!(
        store
            .session_summary("subagent-matched-001")
            .unwrap()
            .parent_id
            .as_deref(),
        Some("parent-spawn-001")
    );
    assert_eq!(
        store
            .session_summary("subagent-matched-002")
            .unwrap()
            .parent_id
            .as_deref(),
        Some("parent-spawn-001")
    );
    assert_eq!(
        store
            .session_summary("subagent-orphan-001")
            .unwrap()
            .parent_id,
        None
    );
    assert_eq!(
        store
            .session_summary("019b88e5-a2e4-7b90-8953-38fce393c653")
            .unwrap()
            .parent_id
            .as_deref(),
        Some("019b88e0-0b0f-7bb0-a9ba-5cc2d8dffde9")
    );
    let detail = store.load_session("parent-spawn-001").unwrap();
    assert_eq!(
        detail.children,
        vec!["subagent-matched-001", "subagent-matched-002"]
    );
}

#[test]
fn lists_sessions_newest_first_with_filters_and_keyset_pages() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, store) = sample_store(tmp.path());
    store.refresh().unwrap();
    let all = store
        .list_sessions(&SessionFilter::default(), None, 100)
        .unwrap();
    let ids: Vec<_> = all.sessions.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(
        ids,
        vec![
            "019b88e0-0b0f-7bb0-a9ba-5cc2d8dffde9",
            CODEX_ID,
            GEMINI_ID,
            CLAUDE_ID,
            "parent-spawn-001"
        ]
    );
    assert!(all.next.is_none());
    let with_sub = store
        .list_sessions(
            &SessionFilter {
                include_subagents: true,
                ..Default::default()
            },
            None,
            100,
        )
        .unwrap();
    assert_eq!(with_sub.sessions.len(), 10);

    let mut paged = Vec::new();
    let mut after = None;
    loop {
        let page = store
            .list_sessions(
                &SessionFilter {
                    include_subagents: true,
                    ..Default::default()
                },
                after.as_ref(),
                3,
            )
            .unwrap();
        assert!(page.sessions.len() <= 3);
        paged.extend(page.sessions.into_iter().map(|s| s.id));
        match page.next {
            Some(n) => after = Some(n),
            None => break,
        }
    }
    assert_eq!(
        paged,
        with_sub
            .sessions
            .iter()
            .map(|s| s.id.clone())
            .collect::<Vec<_>>()
    );

    let codex = store
        .list_sessions(
            &SessionFilter {
                provider: Some(Provider::Codex),
                ..Default::default()
            },
            None,
            100,
        )
        .unwrap();
    assert!(codex.sessions.iter().all(|s| s.provider == Provider::Codex));
    assert_eq!(codex.sessions.len(), 3);
    let by_root = SessionFilter {
        project: Some("/Users/test_user/agent-sample/".into()),
        ..Default::default()
    };
    let by_hash = SessionFilter {
        project: Some(agtrace_tools::model::project_hash(
            "/Users/test_user/agent-sample",
        )),
        ..Default::default()
    };
    let a = store.list_sessions(&by_root, None, 100).unwrap();
    assert_eq!(a, store.list_sessions(&by_hash, None, 100).unwrap());
    assert_eq!(a.sessions.len(), 3);
    let since = SessionFilter {
        since: Some("2025-12-09T19:50:00Z".parse().unwrap()),
        until: Some("2025-12-31T00:00:00Z".parse().unwrap()),
        ..Default::default()
    };
    let ids: Vec<_> = store
        .list_sessions(&since, None, 100)
        .unwrap()
        .sessions
        .into_iter()
        .map(|s| s.id)
        .collect();
    assert_eq!(ids, vec![CODEX_ID, GEMINI_ID]);
}

#[test]
fn resolves_ids_and_prefixes() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, store) = sample_store(tmp.path());
    store.refresh().unwrap();
    assert_eq!(store.resolve_session(CODEX_ID).unwrap(), CODEX_ID);
    assert_eq!(store.resolve_session("019b04ae-b1").unwrap(), CODEX_ID);
    assert!(matches!(
        store.resolve_session("019b"),
        Err(Error::PrefixTooShort { .. })
    ));
    match store.resolve_session("subagent") {
        Err(Error::AmbiguousSession { candidates, .. }) => {
            assert_eq!(
                candidates,
                vec![
                    "subagent-matched-001",
                    "subagent-matched-002",
                    "subagent-orphan-001"
                ]
            )
        }
        other => panic!("expected ambiguity, got {other:?}"),
    }
    // LIKE wildcards are plain characters.
    assert!(matches!(
        store.resolve_session("subagent%"),
        Err(Error::SessionNotFound(_))
    ));
    assert!(matches!(
        store.resolve_session("subagent_matched"),
        Err(Error::SessionNotFound(_))
    ));
    assert!(matches!(
        store.resolve_session("ffffffffffff"),
        Err(Error::SessionNotFound(_))
    ));
}

#[test]
fn full_text_search_is_safe_case_insensitive_and_unicode_aware() {
    let tmp = tempfile::tempdir().unwrap();
    let (logs, store) = sample_store(tmp.path());
    // A session of our own with tricky text.
    let dir = logs.join("claude/projects/-work-demo");
    std::fs::create_dir_all(&dir).unwrap();
    let line = |uuid: &str, text: &str| {
        serde_json::json!({"type":"user","sessionId":"demo-session-0001","cwd":"/work/demo","uuid":uuid,
            "timestamp":"2026-02-01T10:00:00Z","message":{"role":"user","content":text}})
        .to_string()
    };
    std::fs::write(
        dir.join("demo-session-0001.jsonl"),
        [
            line("u1", "A naïve approach to ZEBRA-4471 handling"),
            line("u2", "zebra and 4471 far apart: zebra 1 2 3 4471"),
        ]
        .join("\n")
            + "\n",
    )
    .unwrap();
    store.refresh().unwrap();
    let q = |text: &str| SearchQuery {
        text: text.into(),
        limit: 10,
        ..Default::default()
    };

    let hits = store.search(&q("NAÏVE")).unwrap().hits;
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].session_id, "demo-session-0001");
    assert_eq!(hits[0].event_index, 0);
    assert_eq!(hits[0].match_start, Some(2));
    assert!(hits[0].preview.contains("naïve"));
    // Tokens like ZEBRA-4471 match whole, not as two loose words.
    let hits = store.search(&q("zebra-4471")).unwrap().hits;
    assert_eq!(
        hits.iter().map(|h| h.event_index).collect::<Vec<_>>(),
        vec![0]
    );
    // FTS syntax in user input is plain text, never a syntax error.
    for weird in [
        "\"",
        "-",
        "*",
        "NEAR(a b)",
        "a AND",
        "(",
        "col:val",
        "OR",
        "\"unbalanced",
        "^x",
        "a:b:c",
        "NOT",
        "{x}",
    ] {
        store
            .search(&q(weird))
            .unwrap_or_else(|e| panic!("{weird}: {e}"));
    }
    assert!(store.search(&q("***")).unwrap().hits.is_empty());

    // Filters and pages.
    let shim = store.search(&q("shim")).unwrap().hits;
    assert!(shim.len() >= 4, "{shim:?}");
    let providers: std::collections::BTreeSet<_> = shim.iter().map(|h| h.provider).collect();
    assert_eq!(providers.len(), 3);
    let gemini = store
        .search(&SearchQuery {
            provider: Some(Provider::Gemini),
            ..q("shim")
        })
        .unwrap()
        .hits;
    assert!(!gemini.is_empty() && gemini.iter().all(|h| h.provider == Provider::Gemini));
    let results = store
        .search(&SearchQuery {
            kind: Some(EventKind::ToolResult),
            ..q("shim")
        })
        .unwrap()
        .hits;
    assert!(!results.is_empty() && results.iter().all(|h| h.kind == EventKind::ToolResult));
    let in_codex = store
        .search(&SearchQuery {
            session: Some(CODEX_ID[..10].into()),
            ..q("shim")
        })
        .unwrap()
        .hits;
    assert!(!in_codex.is_empty() && in_codex.iter().all(|h| h.session_id == CODEX_ID));
    let mut paged = Vec::new();
    let mut after = None;
    loop {
        let page = store
            .search(&SearchQuery {
                after,
                limit: 2,
                ..q("shim")
            })
            .unwrap();
        paged.extend(
            page.hits
                .iter()
                .map(|h| (h.session_id.clone(), h.event_index)),
        );
        match page.next {
            Some(n) => after = Some(n),
            None => break,
        }
    }
    let all: Vec<_> = store
        .search(&SearchQuery {
            limit: 100,
            ..q("shim")
        })
        .unwrap()
        .hits
        .into_iter()
        .map(|h| (h.session_id, h.event_index))
        .collect();
    assert_eq!(paged, all);
}

#[test]
fn gets_one_event_with_its_raw_record() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, store) = sample_store(tmp.path());
    store.refresh().unwrap();
    // One event re-read alone equals the same event of a whole-file parse, down to the model
    // that Codex names only once per turn.
    for id in [CLAUDE_ID, CODEX_ID] {
        let full = store.load_session(id).unwrap();
        for ev in &full.events {
            // A loaded session keeps no raw records; `get_event` reads the event's own.
            assert!(ev.raw.is_null());
            let brief = store.get_event_without_raw(id, ev.index).unwrap().event;
            assert_eq!(&brief, ev, "{id} event {}", ev.index);
            let mut got = store.get_event(id, ev.index).unwrap().event;
            assert!(got.raw.is_object(), "{id} event {}", ev.index);
            got.raw = serde_json::Value::Null;
            assert_eq!(&got, ev, "{id} event {}", ev.index);
        }
        assert!(
            full.events
                .iter()
                .filter(|e| e.kind.is_generated())
                .all(|e| e.model.is_some()),
            "{id}"
        );
    }
    let g = store.load_session(GEMINI_ID).unwrap();
    let call = g
        .events
        .iter()
        .find(|e| e.kind == EventKind::ToolCall)
        .unwrap();
    let got = store.get_event(&GEMINI_ID[..8], call.index).unwrap();
    assert_eq!(got.event.raw["type"], "gemini");
    assert!(got.event.raw["toolCalls"].is_array());
    let mut without = got.event.clone();
    without.raw = serde_json::Value::Null;
    assert_eq!(
        store
            .get_event_without_raw(&GEMINI_ID[..8], call.index)
            .unwrap()
            .event,
        without
    );
    assert_eq!(&without, call);
    assert_eq!(got.event.tool_name.as_deref(), Some("run_shell_command"));
    assert!(matches!(
        store.get_event(CLAUDE_ID, 100_000),
        Err(Error::EventNotFound { .. })
    ));
}

#[test]
fn projects_count_sessions_per_provider() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, store) = sample_store(tmp.path());
    store.refresh().unwrap();
    let projects = store.projects().unwrap();
    let sample = projects
        .iter()
        .find(|p| p.root.as_deref() == Some("/Users/test_user/agent-sample"))
        .unwrap();
    assert_eq!(
        (
            sample.sessions.get(Provider::ClaudeCode),
            sample.sessions.get(Provider::Codex),
            sample.sessions.get(Provider::Gemini)
        ),
        (2, 5, 0)
    );
    let gemini = projects
        .iter()
        .find(|p| p.hash.starts_with("9126edde"))
        .unwrap();
    assert_eq!(gemini.sessions.get(Provider::Gemini), 1);
    assert_eq!(gemini.root, None);
}

#[test]
fn incremental_updates_give_the_same_index_as_a_fresh_build() {
    let tmp = tempfile::tempdir().unwrap();
    let (logs, store) = sample_store(tmp.path());
    let claude = logs.join(format!(
        "claude/projects/-Users-test_user-agent-sample/{CLAUDE_ID}.jsonl"
    ));
    let gemini = std::fs::read_dir(logs.join("gemini/tmp"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path()
        .join("chats");
    let gemini = std::fs::read_dir(gemini)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let full_claude = std::fs::read(&claude).unwrap();
    let full_gemini = std::fs::read_to_string(&gemini).unwrap();

    // Start from a half-written Claude file and an early Gemini document.
    let cut = full_claude
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .nth(9)
        .unwrap()
        .0
        + 1;
    std::fs::write(&claude, &full_claude[..cut + 50]).unwrap();
    let mut doc: serde_json::Value = serde_json::from_str(&full_gemini).unwrap();
    doc["messages"].as_array_mut().unwrap().truncate(3);
    std::fs::write(&gemini, doc.to_string()).unwrap();
    store.refresh().unwrap();
    let before = store.session_summary(CLAUDE_ID).unwrap().event_count;

    // Append the rest, rewrite Gemini with the full document, delete a Codex file.
    let sleep = || std::thread::sleep(std::time::Duration::from_millis(20));
    sleep();
    std::fs::write(&claude, &full_claude).unwrap();
    std::fs::write(&gemini, &full_gemini).unwrap();
    std::fs::remove_file(
        logs.join(
            "codex/sessions/2025/01/01/rollout-2025-01-01T00-00-00-subagent-matched-001.jsonl",
        ),
    )
    .unwrap();
    let stats = store.refresh().unwrap();
    assert_eq!(
        (
            stats.files_appended,
            stats.files_parsed,
            stats.files_removed
        ),
        (1, 1, 1),
        "{stats:?}"
    );
    assert!(store.session_summary(CLAUDE_ID).unwrap().event_count > before);

    // A JSONL file rewritten with other content of greater size is re-read, not appended to.
    sleep();
    let codex = logs.join("codex/sessions/2026/01/04/rollout-2026-01-04T12-05-09-019b88e5-a2e4-7b90-8953-38fce393c653.jsonl");
    let text = std::fs::read_to_string(&codex).unwrap().replace(
        "Review the code changes",
        "Look over the changes, please, xylophonically",
    );
    std::fs::write(&codex, text).unwrap();
    let stats = store.refresh().unwrap();
    assert_eq!((stats.files_appended, stats.files_parsed), (0, 1));

    // Nothing changed: everything skipped.
    let stats = store.refresh().unwrap();
    assert_eq!(
        (
            stats.files_skipped,
            stats.files_parsed,
            stats.files_appended
        ),
        (9, 0, 0)
    );

    let fresh = TraceStore::open(Config::for_tree(&logs, &tmp.path().join("fresh"))).unwrap();
    fresh.refresh().unwrap();
    assert_eq!(
        dump(&tmp.path().join("data")),
        dump(&tmp.path().join("fresh"))
    );
    let careful = store
        .search(&SearchQuery {
            text: "xylophonically".into(),
            limit: 5,
            ..Default::default()
        })
        .unwrap()
        .hits;
    assert_eq!(careful.len(), 1, "{careful:?}");
    assert!(
        !store
            .search(&SearchQuery {
                text: "Orphan".into(),
                limit: 5,
                ..Default::default()
            })
            .unwrap()
            .hits
            .is_empty()
    );
    assert!(
        store
            .search(&SearchQuery {
                text: "Reviewing code".into(),
                limit: 5,
                ..Default::default()
            })
            .unwrap()
            .hits
            .is_empty()
    );
}

#[test]
fn an_index_of_another_schema_version_is_rebuilt() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    {
        let conn = rusqlite::Connection::open(data.join("index.sqlite")).unwrap();
        conn.execute_batch("CREATE TABLE sessions (x TEXT); INSERT INTO sessions VALUES ('old'); PRAGMA user_version = 1;").unwrap();
    }
    let logs = tmp.path().join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    common::copy_tree(&common::samples(), &logs);
    let store = TraceStore::open(Config::for_tree(&logs, &data)).unwrap();
    store.refresh().unwrap();
    assert_eq!(
        store
            .list_sessions(&SessionFilter::default(), None, 100)
            .unwrap()
            .sessions
            .len(),
        5
    );
}

#[test]
fn missing_roots_are_notes_and_the_index_stays_out_of_log_roots() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = Config::for_tree(&tmp.path().join("nothing"), &tmp.path().join("data"));
    let store = TraceStore::open(cfg).unwrap();
    let stats = store.refresh().unwrap();
    assert_eq!(stats.notes.len(), Provider::COUNT);
    assert_eq!(stats.files_seen, 0);

    let logs = tmp.path().join("logs");
    std::fs::create_dir_all(logs.join("claude/projects")).unwrap();
    let inside = Config::for_tree(&logs, &logs.join("claude/projects/.agtrace"));
    assert!(matches!(TraceStore::open(inside), Err(Error::Config(_))));
    assert!(!logs.join("claude/projects/.agtrace").exists());
}

#[test]
fn progress_reports_bytes() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, store) = sample_store(tmp.path());
    let mut last = agtrace_tools::index::Progress::default();
    let mut calls = 0;
    let stats = store
        .refresh_with_progress(&mut |p| {
            assert!(p.bytes_done <= p.bytes_total);
            last = p;
            calls += 1;
        })
        .unwrap();
    assert_eq!(calls, 10);
    assert_eq!(last.bytes_done, last.bytes_total);
    assert_eq!(last.bytes_total, stats.bytes_read);
}

#[test]
fn many_stores_opening_a_new_index_at_once_all_succeed() {
    // Two connections that both switch a new file to WAL would deadlock, so SQLite answers
    // one of them SQLITE_BUSY without waiting: opening must absorb that, not report it.
    for round in 0..15 {
        let tmp = tempfile::tempdir().unwrap();
        let config = Config::for_tree(&tmp.path().join("logs"), &tmp.path().join("data"));
        let start = std::sync::Arc::new(std::sync::Barrier::new(6));
        let openers: Vec<_> = (0..6)
            .map(|_| {
                let (config, start) = (config.clone(), start.clone());
                std::thread::spawn(move || {
                    start.wait();
                    TraceStore::open(config).map(|s| {
                        s.list_sessions(&SessionFilter::default(), None, 1)
                            .map(|p| p.sessions.len())
                    })
                })
            })
            .collect();
        for opener in openers {
            let listed = opener.join().unwrap();
            assert!(matches!(listed, Ok(Ok(0))), "round {round}: {listed:?}");
        }
    }
}

#[test]
fn a_parsed_session_is_reused_until_its_file_or_its_index_row_changes() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, store) = sample_store(tmp.path());
    store.refresh().unwrap();
    let first = store.load_session(CODEX_ID).unwrap();
    let again = store.load_session(&CODEX_ID[..8]).unwrap();
    assert!(
        std::sync::Arc::ptr_eq(&first, &again),
        "same unchanged session: one parse"
    );
    assert_eq!(
        store.cached_sessions(),
        (1, std::fs::metadata(&first.summary.path).unwrap().len())
    );

    // The log grows: the next load parses the file as it is now, before any refresh.
    let path = first.summary.path.clone();
    let text = std::fs::read_to_string(&path).unwrap();
    let line = r#"{"timestamp":"2025-12-09T00:00:00Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"appended"}]}}"#;
    std::fs::write(&path, format!("{text}{line}\n")).unwrap();
    let grown = store.load_session(CODEX_ID).unwrap();
    assert!(!std::sync::Arc::ptr_eq(&first, &grown));
    assert_eq!(grown.events.len(), first.events.len() + 1);
    assert_eq!(grown.events.last().unwrap().text, "appended");

    // A refresh changes the index row: the parse made with the old row is not reused.
    store.refresh().unwrap();
    let refreshed = store.load_session(CODEX_ID).unwrap();
    assert!(!std::sync::Arc::ptr_eq(&grown, &refreshed));
    assert_eq!(
        refreshed.summary.event_count as usize,
        refreshed.events.len()
    );
    assert!(std::sync::Arc::ptr_eq(
        &refreshed,
        &store.load_session(CODEX_ID).unwrap()
    ));

    // A cached session whose file is gone is an error, not a stale answer.
    std::fs::remove_file(&path).unwrap();
    assert!(matches!(
        store.load_session(CODEX_ID),
        Err(Error::LogFileGone(_))
    ));
}
