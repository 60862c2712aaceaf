//! Pagination of the trace tools on the samples: first, middle and last pages cover every item
//! once; a mangled cursor, or one used with other arguments or another tool, is `invalid_cursor`.

mod tools_support;

use serde_json::{Value, json};
use tools_support::*;

/// Paginated tools whose pages cut event text by size rather than end between items: the tables
/// below leave them out; `tools_budgets` checks that their pages reassemble the texts exactly.
const PAGED_BY_TEXT: [&str; 2] = ["get_session_full", "get_event_details"];

/// Panics unless the rows of `table` and [`PAGED_BY_TEXT`] name exactly the paginated tools.
fn assert_every_paginated_tool(s: &Served, table: &str, rows: &[&str]) {
    let paginated = s
        .server
        .definitions()
        .filter(|d| d.paginated)
        .map(|d| d.name);
    assert_rows_cover(table, rows.iter().copied().chain(PAGED_BY_TEXT), paginated);
}

fn field(items: &[Value], key: &str) -> Vec<Value> {
    items.iter().map(|i| i[key].clone()).collect()
}

#[tokio::test]
async fn small_pages_cover_the_same_items_as_one_big_page() {
    let s = samples().await;
    let c = &s.client;
    let cases: [(&str, Value, &str); 7] = [
        (
            "list_sessions",
            json!({"include_subagents": true}),
            "session_id",
        ),
        (
            "get_session_turns",
            json!({"session_id": CODEX_ID}),
            "turn_index",
        ),
        (
            "get_turn_steps",
            json!({"session_id": CODEX_ID, "turn_index": 1}),
            "step_index",
        ),
        (
            "search_event_previews",
            json!({"query": "hoge"}),
            "event_index",
        ),
        ("get_project_info", json!({}), "hash"),
        (
            "get_project_costs",
            json!({"group_by": "session"}),
            "session_id",
        ),
        ("list_file_history", json!({"path": "**/*"}), "path"),
    ];
    let rows: Vec<&str> = cases.iter().map(|(tool, _, _)| *tool).collect();
    assert_every_paginated_tool(&s, "pages of items", &rows);
    for (tool, args, key) in cases {
        let mut small = args.clone();
        small["limit"] = json!(1);
        let pages = all_pages(c, tool, small).await;
        assert!(pages.len() >= 2, "{tool}: {} pages", pages.len());
        // First and middle pages hand on a cursor, the last does not.
        assert!(
            pages[..pages.len() - 1]
                .iter()
                .all(|p| p.next_cursor().is_some())
        );
        assert!(pages.last().unwrap().next_cursor().is_none());
        let mut big = args.clone();
        big["limit"] = json!(50);
        let whole = items(&all_pages(c, tool, big).await);
        let paged = items(&pages);
        if tool == "search_event_previews" {
            // Hits of several sessions share event indexes: compare whole coordinates.
            let coords = |v: &[Value]| {
                v.iter()
                    .map(|h| (h["session_id"].clone(), h["event_index"].clone()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(coords(&paged), coords(&whole));
        } else {
            assert_eq!(field(&paged, key), field(&whole, key), "{tool}");
        }
        assert_eq!(
            paged, whole,
            "{tool}: the same items, whatever the page size"
        );
    }
}

#[tokio::test]
async fn the_page_size_may_change_between_pages() {
    let s = samples().await;
    let c = &s.client;
    let first = c
        .call(
            "list_sessions",
            json!({"include_subagents": true, "limit": 2}),
        )
        .await;
    let cursor = first.next_cursor().unwrap().to_owned();
    let rest = c
        .call(
            "list_sessions",
            json!({"include_subagents": true, "limit": 50, "cursor": cursor}),
        )
        .await;
    assert_eq!(
        first.expect_ok().as_array().unwrap().len() + rest.expect_ok().as_array().unwrap().len(),
        10
    );
    assert!(rest.next_cursor().is_none());
}

#[tokio::test]
async fn mangled_and_misused_cursors_are_invalid_cursor() {
    let s = samples().await;
    let c = &s.client;
    // `get_project_info` has no argument besides the page's own: no "other query" to try.
    let cases: [(&str, Value, Option<Value>); 7] = [
        (
            "list_sessions",
            json!({"include_subagents": true, "limit": 1}),
            Some(json!({"provider": "codex", "limit": 1})),
        ),
        (
            "get_session_turns",
            json!({"session_id": CODEX_ID, "limit": 1}),
            Some(json!({"session_id": CLAUDE_ID, "limit": 1})),
        ),
        (
            "get_turn_steps",
            json!({"session_id": CODEX_ID, "turn_index": 1, "limit": 1}),
            Some(json!({"session_id": CODEX_ID, "turn_index": 0, "limit": 1})),
        ),
        (
            "search_event_previews",
            json!({"query": "hoge", "limit": 1}),
            Some(json!({"query": "python", "limit": 1})),
        ),
        ("get_project_info", json!({"limit": 1}), None),
        (
            "get_project_costs",
            json!({"group_by": "session", "limit": 1}),
            Some(json!({"group_by": "day", "limit": 1})),
        ),
        (
            "list_file_history",
            json!({"path": "**/*", "limit": 1}),
            Some(json!({"path": "**/*.py", "limit": 1})),
        ),
    ];
    let rows: Vec<&str> = cases.iter().map(|(tool, _, _)| *tool).collect();
    assert_every_paginated_tool(&s, "cursor checks", &rows);
    for (tool, args, other) in cases {
        let first = c.call(tool, args.clone()).await;
        let cursor = first
            .next_cursor()
            .unwrap_or_else(|| panic!("{tool} has a second page"))
            .to_owned();

        let mut mangled = args.clone();
        let mut bytes = cursor.clone().into_bytes();
        let mid = bytes.len() / 2;
        bytes[mid] = if bytes[mid] == b'A' { b'B' } else { b'A' };
        mangled["cursor"] = json!(String::from_utf8(bytes).unwrap());
        assert_eq!(
            error_code(&c.call(tool, mangled).await),
            "invalid_cursor",
            "{tool}"
        );

        let mut shortened = args.clone();
        shortened["cursor"] = json!(&cursor[..cursor.len() - 5]);
        assert_eq!(
            error_code(&c.call(tool, shortened).await),
            "invalid_cursor",
            "{tool}"
        );

        if let Some(mut reused) = other {
            reused["cursor"] = json!(cursor);
            let answer = c.call(tool, reused).await;
            assert_eq!(error_code(&answer), "invalid_cursor", "{tool}");
            assert!(
                answer.error()["message"]
                    .as_str()
                    .unwrap()
                    .contains("other arguments")
            );
        }

        // A cursor is bound to the tool that made it.
        let foreign = c
            .call(
                "get_session_full",
                json!({"session_id": CODEX_ID, "cursor": cursor}),
            )
            .await;
        assert_eq!(error_code(&foreign), "invalid_cursor", "{tool}");
    }
}

/// Clients that make every parameter required (OpenAI strict mode) send `"cursor": ""` for
/// the first page: it is the first page, as an omitted cursor is, for every paginated tool.
#[tokio::test]
async fn an_empty_cursor_is_the_first_page() {
    let s = samples().await;
    let c = &s.client;
    let cases: [(&str, Value); 9] = [
        ("list_sessions", json!({"limit": 2})),
        (
            "get_session_turns",
            json!({"session_id": CODEX_ID, "limit": 1}),
        ),
        (
            "get_turn_steps",
            json!({"session_id": CODEX_ID, "turn_index": 1, "limit": 1}),
        ),
        (
            "search_event_previews",
            json!({"query": "hoge", "limit": 1}),
        ),
        ("get_project_info", json!({"limit": 1})),
        (
            "get_project_costs",
            json!({"group_by": "session", "limit": 1}),
        ),
        ("list_file_history", json!({"path": "**/*", "limit": 1})),
        ("get_session_full", json!({"session_id": CODEX_ID})),
        (
            "get_event_details",
            json!({"session_id": CODEX_ID, "event_index": 0}),
        ),
    ];
    let paginated = s
        .server
        .definitions()
        .filter(|d| d.paginated)
        .map(|d| d.name);
    assert_rows_cover("empty cursors", cases.iter().map(|(t, _)| *t), paginated);
    for (tool, args) in cases {
        let omitted = c.call(tool, args.clone()).await;
        for blank in ["", "  "] {
            let mut with_blank = args.clone();
            with_blank["cursor"] = json!(blank);
            let answer = c.call(tool, with_blank).await;
            assert!(
                answer.is_ok(),
                "{tool} with cursor {blank:?}: {}",
                answer.envelope
            );
            assert_eq!(
                answer.data(),
                omitted.data(),
                "{tool} with cursor {blank:?}"
            );
            assert_eq!(
                answer.envelope["pagination"], omitted.envelope["pagination"],
                "{tool} with cursor {blank:?}"
            );
        }
    }
}
