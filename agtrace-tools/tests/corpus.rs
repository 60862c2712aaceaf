//! The corpus generator, and the parsers' resilience on what it generates (property tests).

mod common;

use std::path::Path;

use agtrace_tools::config::Config;
use agtrace_tools::corpus::{CorpusSpec, generate};
use agtrace_tools::index::SearchQuery;
use agtrace_tools::model::{Event, Provider};
use agtrace_tools::providers::{FileHint, ParseState, parse_file, parse_jsonl};
use agtrace_tools::store::TraceStore;
use proptest::prelude::*;

fn small_spec(sessions: usize, seed: u64) -> CorpusSpec {
    CorpusSpec {
        turns: (1, 3),
        steps: (1, 3),
        max_tool_output: 4096,
        ..CorpusSpec::new(sessions, seed)
    }
}

fn hash_tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    common::files_under(dir)
        .into_iter()
        .map(|p| {
            let name = p.strip_prefix(dir).unwrap().display().to_string();
            (name, std::fs::read(&p).unwrap())
        })
        .collect()
}

#[test]
fn generation_is_deterministic_and_parses_cleanly() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let sa = generate(&small_spec(9, 7), a.path()).unwrap();
    let sb = generate(&small_spec(9, 7), b.path()).unwrap();
    // Spread evenly over the providers that have a generator (not every provider has one).
    let made: Vec<u64> = sa.sessions.iter().copied().filter(|&n| n > 0).collect();
    assert_eq!(made.iter().sum::<u64>(), 9);
    assert!(made.len() >= 3 && made.iter().max().unwrap() - made.iter().min().unwrap() <= 1);
    assert_eq!(sa.bytes, sb.bytes);
    assert_eq!(hash_tree(a.path()), hash_tree(b.path()));
    let other = tempfile::tempdir().unwrap();
    generate(&small_spec(9, 8), other.path()).unwrap();
    assert_ne!(hash_tree(a.path()), hash_tree(other.path()));

    let store = TraceStore::open(Config::for_tree(
        a.path(),
        &a.path().join("../idx-corpus-a"),
    ))
    .unwrap();
    let stats = store.refresh().unwrap();
    std::fs::remove_dir_all(a.path().join("../idx-corpus-a")).ok();
    assert_eq!(stats.files_parsed, 9);
    assert_eq!(stats.malformed_lines, 0);
    let all = store
        .list_sessions(&Default::default(), None, 100)
        .unwrap()
        .sessions;
    assert_eq!(all.len(), 9);
    for s in &all {
        assert!(
            s.turn_count >= 1 && s.tokens.total > 0 && s.tool_calls > 0,
            "{s:?}"
        );
        let d = store.load_session(&s.id).unwrap();
        assert_eq!(d.turns.len() as u32, s.turn_count);
        assert_eq!(d.tokens, s.tokens);
        assert!(
            d.turns
                .iter()
                .flat_map(|t| &t.steps)
                .flat_map(|s| &s.tool_calls)
                .all(|c| c.result_event.is_some())
        );
    }
    assert!(
        !store
            .search(&SearchQuery {
                text: "données".into(),
                limit: 5,
                ..Default::default()
            })
            .unwrap()
            .hits
            .is_empty()
    );
}

fn jsonl_events(bytes: &[u8]) -> (ParseState, Vec<Event>) {
    let mut st = ParseState::new(
        Provider::ClaudeCode,
        &FileHint {
            session_id: "s".into(),
            ..FileHint::default()
        },
    );
    let chunk = parse_jsonl(&mut st, bytes, 0, false);
    (st, chunk.events)
}

/// Events of a parse, minus position-dependent fields, keyed by their source line. Token
/// events are left out: a streamed message's usage is emitted by its first surviving line, so
/// losing that line moves (not loses) the usage.
fn by_line(events: &[Event], line_starts: &[usize]) -> Vec<(usize, String)> {
    events
        .iter()
        .filter(|e| e.kind != agtrace_tools::model::EventKind::TokenUsage)
        .map(|e| {
            let off = e.source.unwrap().offset as usize;
            let line = line_starts.partition_point(|&s| s <= off) - 1;
            (
                line,
                format!("{:?}|{}|{:?}|{:?}", e.kind, e.text, e.tool_name, e.call_id),
            )
        })
        .collect()
}

fn generated_claude_file() -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let stats = generate(&small_spec(1, 42), dir.path()).unwrap();
    std::fs::read(&stats.paths[0]).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    /// Corrupting one line loses that line only: every other line gives the same events.
    #[test]
    fn corrupting_a_line_never_loses_the_others(line_pick in any::<prop::sample::Index>(), cut in any::<prop::sample::Index>(), garbage in "[^\n]{0,20}") {
        let file = generated_claude_file();
        let starts: Vec<usize> = std::iter::once(0).chain(file.iter().enumerate().filter(|(_, b)| **b == b'\n').map(|(i, _)| i + 1)).filter(|&s| s < file.len()).collect();
        let victim = line_pick.index(starts.len());
        let (ls, le) = (starts[victim], file[starts[victim]..].iter().position(|b| *b == b'\n').map_or(file.len(), |p| starts[victim] + p));
        let keep = cut.index(le - ls);
        let mut bad = file[..ls + keep].to_vec();
        bad.extend_from_slice(garbage.as_bytes());
        let new_len = bad.len() - ls;
        bad.extend_from_slice(&file[le..]);
        let (_, clean) = jsonl_events(&file);
        let (st, broken) = jsonl_events(&bad);
        prop_assert!(st.malformed <= 1);
        let shift = new_len as isize - (le - ls) as isize;
        let bad_starts: Vec<usize> = starts.iter().map(|&s| if s > ls { (s as isize + shift) as usize } else { s }).collect();
        let want: Vec<_> = by_line(&clean, &starts).into_iter().filter(|(l, _)| *l != victim).collect();
        let got: Vec<_> = by_line(&broken, &bad_starts).into_iter().filter(|(l, _)| *l != victim).collect();
        prop_assert_eq!(got, want);
    }

    /// Truncating the file anywhere never panics, never reports the partial last line as
    /// malformed, and resuming from where it stopped gives exactly the full parse.
    #[test]
    fn truncation_then_resume_equals_a_full_parse(cut in any::<prop::sample::Index>()) {
        let file = generated_claude_file();
        let at = cut.index(file.len() + 1);
        let mut st = ParseState::new(Provider::ClaudeCode, &FileHint { session_id: "s".into(), ..FileHint::default() });
        let first = parse_jsonl(&mut st, &file[..at], 0, false);
        prop_assert_eq!(st.malformed, 0);
        let persisted: ParseState = serde_json::from_str(&serde_json::to_string(&st).unwrap()).unwrap();
        let mut st2 = persisted;
        let off = first.end_offset as usize;
        let second = parse_jsonl(&mut st2, &file[off..], off as u64, false);
        let (full_state, full) = jsonl_events(&file);
        let mut joined = first.events;
        joined.extend(second.events);
        prop_assert_eq!(joined, full);
        prop_assert_eq!(st2.tokens.total(), full_state.tokens.total());
        prop_assert_eq!(st2.meta, full_state.meta);
    }

    /// Any bytes at all: no panic.
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let _ = jsonl_events(&bytes);
        let mut st = ParseState::new(Provider::Codex, &FileHint::default());
        let _ = parse_jsonl(&mut st, &bytes, 0, false);
        let mut st = ParseState::new(Provider::Gemini, &FileHint::default());
        let _ = agtrace_tools::providers::gemini::parse_document(&mut st, &bytes, false);
    }
}

#[test]
fn a_truncated_gemini_document_is_incomplete_not_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let stats = generate(&small_spec(3, 1), dir.path()).unwrap();
    let gemini = &stats.paths[2];
    let bytes = std::fs::read(gemini).unwrap();
    std::fs::write(gemini, &bytes[..bytes.len() / 2]).unwrap();
    assert!(matches!(
        parse_file(Provider::Gemini, gemini, false),
        Err(agtrace_tools::error::Error::Incomplete(_))
    ));
    let data = tempfile::tempdir().unwrap();
    let store = TraceStore::open(Config::for_tree(dir.path(), data.path())).unwrap();
    let s = store.refresh().unwrap();
    assert_eq!((s.files_parsed, s.files_incomplete), (2, 1));
    std::fs::write(gemini, &bytes).unwrap();
    let s = store.refresh().unwrap();
    assert_eq!((s.files_parsed, s.files_skipped), (1, 2));
}
