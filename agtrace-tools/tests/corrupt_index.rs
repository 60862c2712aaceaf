//! A code column the index cannot decode is an error all the way to the tool, never a default
//! (which would, say, list a Codex session as a Claude Code one).

mod tools_support;

use agtrace_tools::error::Error;
use serde_json::json;
use tools_support::*;

/// Writes `sql` into the index of `served` behind the store's back, as damage would.
fn damage(served: &Served, sql: &str) {
    let conn = rusqlite::Connection::open(served.store.config().index_path()).unwrap();
    let changed = conn.execute(sql, []).unwrap();
    assert_eq!(changed, 1, "{sql}");
}

fn assert_corrupt(e: Error, want_table: &str, want_column: &str, want_value: &str) {
    match e {
        Error::CorruptIndex {
            table,
            column,
            value,
        } => assert_eq!(
            (table, column, value.as_str()),
            (want_table, want_column, want_value)
        ),
        other => panic!("expected CorruptIndex, got {other:?}"),
    }
}

#[tokio::test]
async fn an_unknown_provider_code_is_a_corrupt_index_error() {
    let served = samples().await;
    damage(
        &served,
        &format!("UPDATE sessions SET provider = 7 WHERE id = '{CODEX_ID}'"),
    );

    let e = served.store.session_summary(CODEX_ID).unwrap_err();
    assert_corrupt(e, "sessions", "provider", "7");
    let e = served
        .store
        .list_sessions(&Default::default(), None, 50)
        .unwrap_err();
    assert_corrupt(e, "sessions", "provider", "7");

    for (tool, args) in [
        ("get_session_summary", json!({"session_id": CODEX_ID})),
        ("list_sessions", json!({})),
        (
            "search_event_previews",
            json!({"query": "the", "session_id": CODEX_ID}),
        ),
    ] {
        let answer = served.client.call(tool, args).await;
        assert_eq!(
            answer.error_code(),
            Some("internal"),
            "{tool}: {}",
            answer.envelope
        );
        let message = answer.error()["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("sessions.provider holds 7"),
            "{tool}: {message}"
        );
        assert_eq!(answer.error()["retryable"], json!(false), "{tool}");
    }
}

#[tokio::test]
async fn an_unknown_event_kind_code_is_a_corrupt_index_error() {
    let served = samples().await;
    let sid: i64 = rusqlite::Connection::open(served.store.config().index_path())
        .unwrap()
        .query_row("SELECT sid FROM sessions WHERE id = ?1", [CODEX_ID], |r| {
            r.get(0)
        })
        .unwrap();
    // Event 0 of a session has the session's sid in the high bits of its eid.
    let eid = sid << 24;
    damage(
        &served,
        &format!("UPDATE events SET kind = 99 WHERE eid = {eid}"),
    );

    let e = served.store.get_event(CODEX_ID, 0).unwrap_err();
    assert_corrupt(e, "events", "kind", "99");

    let answer = served
        .client
        .call(
            "get_event_details",
            json!({"session_id": CODEX_ID, "event_index": 0}),
        )
        .await;
    assert_eq!(answer.error_code(), Some("internal"), "{}", answer.envelope);
    let message = answer.error()["message"].as_str().unwrap_or_default();
    assert!(message.contains("events.kind holds 99"), "{message}");
}
