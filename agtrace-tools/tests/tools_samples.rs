//! Every trace tool on the bundled samples: answers, filters and every error code.

mod tools_support;

use serde_json::{Value, json};
use tools_support::*;

#[tokio::test]
async fn the_server_has_one_tool_per_file_without_design_warnings() {
    let s = samples().await;
    let server = agtrace_tools::server::build(s.store.clone()).unwrap();
    assert_eq!(server.lint_warnings(), &[]);
    // A tool whose `family` is mistyped would be left out of the server without a word.
    assert_eq!(server.unserved_tools(), &[]);
    let mut defs: Vec<_> = server
        .definitions()
        .map(|d| (d.name, d.family, d.read_only))
        .collect();
    defs.sort();
    // The tools are the files of src/tools/, each named after its tool (build.rs declares
    // every file there as a module), and each tool is defined in its own file.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tools");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .filter(|stem| stem != "mod")
        .collect();
    files.sort();
    let names: Vec<&str> = defs.iter().map(|(name, _, _)| *name).collect();
    assert_eq!(names, files, "one file per tool in src/tools/");
    for d in server.definitions() {
        assert!(
            d.file.ends_with(&format!("tools/{}.rs", d.name)),
            "{} is defined in {}",
            d.name,
            d.file
        );
    }
    assert!(
        defs.iter()
            .all(|(_, family, read_only)| *family == "trace" && *read_only),
        "{defs:?}"
    );
    let listed = s.client.list_tools().await;
    for tool in &listed {
        assert!(tool.output_schema.is_some(), "{}", tool.name);
        let props = tool.input_schema["properties"].as_object().unwrap();
        for (name, prop) in props {
            assert!(
                prop.get("description").is_some()
                    || prop.get("$ref").is_some()
                    || prop.get("anyOf").is_some(),
                "{}.{name}",
                tool.name
            );
        }
    }
}

#[tokio::test]
async fn list_sessions_is_newest_first_and_filters() {
    let s = samples().await;
    let c = &s.client;
    let all = c.call("list_sessions", json!({})).await;
    c.assert_within_size_hint(&all);
    let ids: Vec<&str> = all
        .expect_ok()
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["session_id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "019b88e0-0b0f-7bb0-a9ba-5cc2d8dffde9",
            CODEX_ID,
            GEMINI_ID,
            CLAUDE_ID,
            "parent-spawn-001"
        ]
    );
    let codex = &all.data()[1];
    assert_eq!(codex["provider"], "codex");
    assert_eq!(codex["project_root"], SAMPLE_ROOT);
    assert_eq!(codex["turns"], 2);
    assert_eq!(codex["total_tokens"], 27_148);
    assert_eq!(codex["model"], "gpt-5.1-codex-max");
    assert_eq!(
        codex["first_prompt"]["text"],
        "add myapp directory and create myapp/hoge.py which shows result of print(1+1)."
    );
    assert_eq!(codex["start"], "2025-12-09T19:55:16.336Z");

    let with_sub = c
        .call(
            "list_sessions",
            json!({"include_subagents": true, "limit": 50}),
        )
        .await;
    assert_eq!(with_sub.expect_ok().as_array().unwrap().len(), 10);
    let agent = with_sub
        .data()
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["session_id"] == "agent-0c4c3cf8")
        .unwrap();
    assert_eq!(agent["parent_session_id"], CLAUDE_ID);

    let only = c.call("list_sessions", json!({"provider": "codex"})).await;
    assert!(
        only.expect_ok()
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["provider"] == "codex")
    );
    assert_eq!(only.data().as_array().unwrap().len(), 3);

    let by_root = c
        .call("list_sessions", json!({"project": SAMPLE_ROOT}))
        .await;
    let by_hash = c
        .call(
            "list_sessions",
            json!({"project": agtrace_tools::model::project_hash(SAMPLE_ROOT)}),
        )
        .await;
    assert_eq!(by_root.expect_ok(), by_hash.expect_ok());
    assert_eq!(by_root.data().as_array().unwrap().len(), 3);

    let window = c
        .call(
            "list_sessions",
            json!({"since": "2025-12-09T19:50:00Z", "until": "2025-12-31T00:00:00+00:00"}),
        )
        .await;
    let ids: Vec<&str> = window
        .expect_ok()
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["session_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [CODEX_ID, GEMINI_ID]);

    let none = c
        .call("list_sessions", json!({"project": "/nowhere"}))
        .await;
    assert_eq!(none.expect_ok(), &json!([]));
    assert!(
        none.envelope["hint"]
            .as_str()
            .unwrap()
            .contains("get_project_info")
    );
}

#[tokio::test]
async fn bad_arguments_are_invalid_parameter_naming_the_field() {
    let s = samples().await;
    let c = &s.client;
    for field in ["since", "until"] {
        let a = c.call("list_sessions", json!({field: "yesterday"})).await;
        assert_eq!(error_code(&a), "invalid_parameter");
        assert_eq!(a.error()["details"]["path"], field);
        assert!(a.error()["message"].as_str().unwrap().contains("RFC 3339"));
    }
    let a = c.call("list_sessions", json!({"provider": "claude"})).await;
    assert_eq!(error_code(&a), "invalid_parameter");
    assert_eq!(
        a.error()["details"]["allowed"],
        json!(agtrace_tools::model::Provider::ALL.map(|p| p.as_str()))
    );
    let a = c
        .call(
            "search_event_previews",
            json!({"query": "x", "event_type": "tool"}),
        )
        .await;
    assert_eq!(a.error()["details"]["path"], "event_type");
    assert_eq!(
        a.error()["details"]["allowed"],
        json!([
            "user",
            "message",
            "reasoning",
            "tool_call",
            "tool_result",
            "token_usage",
            "notification"
        ])
    );
    let a = c.call("list_sessions", json!({"limit": 51})).await;
    assert_eq!(a.error()["details"]["path"], "limit");
    let a = c
        .call("search_event_previews", json!({"query": " -- !! "}))
        .await;
    assert_eq!(error_code(&a), "invalid_parameter");
    assert_eq!(a.error()["details"]["path"], "query");
}

#[tokio::test]
async fn session_ids_resolve_whole_or_by_unique_prefix_with_clear_errors() {
    let s = samples().await;
    let c = &s.client;
    // Every tool taking a session resolves it the same way.
    let tools = [
        ("get_session_summary", json!({})),
        ("get_session_turns", json!({})),
        ("get_turn_steps", json!({"turn_index": 0})),
        ("get_session_full", json!({})),
        ("get_event_details", json!({"event_index": 0})),
        ("analyze_session", json!({})),
        ("get_session_costs", json!({})),
        ("search_event_previews", json!({"query": "hoge"})),
    ];
    let taking_a_session = s.server.tools().filter(|t| {
        t.input_schema
            .get("properties")
            .is_some_and(|p| p.get("session_id").is_some())
    });
    assert_rows_cover(
        "tools taking a session_id",
        tools.iter().map(|(tool, _)| *tool),
        taking_a_session.map(|t| t.name.as_ref()),
    );
    for (tool, base) in tools {
        let with = |id: &str| {
            let mut a = base.clone();
            a["session_id"] = json!(id);
            a
        };
        assert!(c.call(tool, with(CODEX_ID)).await.is_ok(), "{tool}");
        assert!(c.call(tool, with("019b04ae-b1")).await.is_ok(), "{tool}");

        let a = c.call(tool, with("subagent")).await;
        assert_eq!(error_code(&a), "ambiguous_session_prefix", "{tool}");
        assert_eq!(a.error()["details"]["prefix"], "subagent");
        assert_eq!(
            a.error()["details"]["matches"],
            json!([
                "subagent-matched-001",
                "subagent-matched-002",
                "subagent-orphan-001"
            ])
        );
        assert!(
            a.error()["message"]
                .as_str()
                .unwrap()
                .contains("matches 3 sessions")
        );

        // LIKE wildcards are plain characters.
        for id in ["subagent%", "subagent_matched", "ffffffffffff"] {
            let a = c.call(tool, with(id)).await;
            assert_eq!(error_code(&a), "session_not_found", "{tool} {id}");
            assert_eq!(a.error()["details"]["session_id"], id);
        }

        let a = c.call(tool, with("019b")).await;
        assert_eq!(error_code(&a), "invalid_parameter", "{tool}");
        assert_eq!(a.error()["details"]["path"], "session_id");
        assert_eq!(a.error()["details"]["min_length"], 8);
    }
}

#[tokio::test]
async fn get_session_summary_gives_counts_tokens_and_snippets() {
    let s = samples().await;
    let c = &s.client;
    let a = c
        .call("get_session_summary", json!({"session_id": CODEX_ID}))
        .await;
    c.assert_within_size_hint(&a);
    let d = a.expect_ok();
    assert_eq!(d["session_id"], CODEX_ID);
    assert_eq!(d["provider"], "codex");
    assert_eq!(d["project_root"], SAMPLE_ROOT);
    assert_eq!(d["turns"], 2);
    assert_eq!(d["tool_calls"], 5);
    assert_eq!(d["failed_tool_calls"], 2);
    assert_eq!(
        (
            d["tokens"]["input"].as_u64(),
            d["tokens"]["output"].as_u64(),
            d["tokens"]["total"].as_u64()
        ),
        (Some(26_740), Some(408), Some(27_148))
    );
    assert_eq!(d["models"], json!(["gpt-5.1-codex-max"]));
    assert_eq!(
        d["first_prompt"]["text"],
        "add myapp directory and create myapp/hoge.py which shows result of print(1+1)."
    );
    assert!(
        d["last_answer"]["text"]
            .as_str()
            .unwrap()
            .contains("python3")
    );
    assert!(d["duration_ms"].as_i64().unwrap() > 0);

    let parent = c
        .call(
            "get_session_summary",
            json!({"session_id": "parent-spawn-001"}),
        )
        .await;
    assert_eq!(
        parent.expect_ok()["subagent_session_ids"],
        json!(["subagent-matched-001", "subagent-matched-002"])
    );
    assert_eq!(parent.data()["subagents_left_out"], 0);
    let child = c
        .call(
            "get_session_summary",
            json!({"session_id": "agent-0c4c3cf8"}),
        )
        .await;
    assert_eq!(child.expect_ok()["parent_session_id"], CLAUDE_ID);

    let claude = c
        .call("get_session_summary", json!({"session_id": CLAUDE_ID}))
        .await;
    assert_eq!(
        claude.expect_ok()["tokens"]["output"],
        436 + 126 + 112 + 123 + 1 + 46
    );
}

#[tokio::test]
async fn get_session_turns_names_key_actions_and_outcomes() {
    let s = samples().await;
    let c = &s.client;
    let a = c
        .call("get_session_turns", json!({"session_id": CODEX_ID}))
        .await;
    c.assert_within_size_hint(&a);
    let turns = a.expect_ok().as_array().unwrap();
    assert_eq!(turns.len(), 2);
    assert_eq!(a.envelope["pagination"]["total"], 2);
    assert_eq!(turns[0]["turn_index"], 0);
    assert_eq!(turns[0]["actions"][0], "shell_command `mkdir -p myapp`");
    assert_eq!(
        turns[1]["prompt"]["text"],
        "cd to myapp and run python hoge.py"
    );
    assert_eq!(
        turns[1]["actions"],
        json!([
            "shell_command `python hoge.py` failed ×2",
            "shell_command `python3 hoge.py`"
        ])
    );
    assert_eq!(turns[1]["failed_tool_calls"], 2);
    assert_eq!(turns[1]["outcome"], "answered");
    assert!(
        turns[1]["final_message"]["text"]
            .as_str()
            .unwrap()
            .contains("python3")
    );
    let tokens: u64 = turns
        .iter()
        .map(|t| t["tokens"]["total"].as_u64().unwrap())
        .sum();
    assert_eq!(tokens, 27_148);
}

#[tokio::test]
async fn get_turn_steps_shows_calls_with_results_and_rejects_unknown_turns() {
    let s = samples().await;
    let c = &s.client;
    let a = c
        .call(
            "get_turn_steps",
            json!({"session_id": CODEX_ID, "turn_index": 1}),
        )
        .await;
    c.assert_within_size_hint(&a);
    let steps = a.expect_ok().as_array().unwrap();
    assert!(!steps.is_empty());
    let events: Vec<&Value> = steps
        .iter()
        .flat_map(|s| s["events"].as_array().unwrap())
        .collect();
    let call = events.iter().find(|e| e["kind"] == "tool_call").unwrap();
    assert!(
        call["text"]["text"]
            .as_str()
            .unwrap()
            .contains("python hoge.py")
    );
    assert_eq!(call["tool_name"], "shell_command");
    let result = events
        .iter()
        .find(|e| e["kind"] == "tool_result" && e["call_id"] == call["call_id"])
        .unwrap();
    assert_eq!(result["is_error"], true);
    assert!(steps.iter().any(|s| s["failed"] == true));
    assert!(events.iter().all(|e| e["kind"] != "token_usage"));
    for e in &events {
        assert_eq!(e["text"]["truncated"], false);
        assert_eq!(
            e["text"]["original_chars"].as_u64().unwrap() as usize,
            e["text"]["text"].as_str().unwrap().chars().count()
        );
    }

    let a = c
        .call(
            "get_turn_steps",
            json!({"session_id": CODEX_ID, "turn_index": 7}),
        )
        .await;
    assert_eq!(error_code(&a), "turn_not_found");
    assert_eq!(a.error()["details"]["turn_count"], 2);
    assert_eq!(a.error()["details"]["turn_index"], 7);
}

#[tokio::test]
async fn get_session_full_pages_reproduce_every_event_of_every_sample() {
    let s = samples().await;
    let listed = s
        .client
        .call(
            "list_sessions",
            json!({"include_subagents": true, "limit": 50}),
        )
        .await;
    for row in listed.expect_ok().as_array().unwrap() {
        let id = row["session_id"].as_str().unwrap();
        let pages = all_pages(&s.client, "get_session_full", json!({"session_id": id})).await;
        let texts = reassemble(&items(&pages));
        let detail = s.store.load_session(id).unwrap();
        assert_eq!(texts.len(), detail.events.len(), "{id}");
        for ((index, text), event) in texts.iter().zip(&detail.events) {
            assert_eq!(
                (*index, text.as_str()),
                (u64::from(event.index), event.text.as_str()),
                "{id}"
            );
        }
    }
}

#[tokio::test]
async fn search_event_previews_finds_hits_with_coordinates_and_filters() {
    let s = samples().await;
    let c = &s.client;
    // Pages end early to stay within 10KB: walk them all.
    let pages = all_pages(
        c,
        "search_event_previews",
        json!({"query": "HOGE.py", "limit": 50}),
    )
    .await;
    assert!(pages.len() > 1);
    let hits = &items(&pages);
    assert!(hits.len() >= 3);
    let providers: std::collections::BTreeSet<&str> = hits
        .iter()
        .map(|h| h["provider"].as_str().unwrap())
        .collect();
    assert_eq!(providers.len(), 3, "{providers:?}");
    for h in hits {
        assert!(
            h["preview"]
                .as_str()
                .unwrap()
                .to_lowercase()
                .contains("hoge"),
            "{h}"
        );
        // The coordinates lead to the very event.
        let e = s
            .store
            .get_event(
                h["session_id"].as_str().unwrap(),
                h["event_index"].as_u64().unwrap() as u32,
            )
            .unwrap();
        assert_eq!(e.event.turn as u64, h["turn_index"].as_u64().unwrap());
        assert_eq!(e.event.kind.as_str(), h["kind"]);
        assert_eq!(
            e.event.text.chars().count() as u64,
            h["text_chars"].as_u64().unwrap()
        );
    }
    let a = c
        .call(
            "search_event_previews",
            json!({"query": "hoge", "provider": "gemini", "event_type": "tool_call"}),
        )
        .await;
    let hits = a.expect_ok().as_array().unwrap();
    assert!(!hits.is_empty());
    assert!(
        hits.iter()
            .all(|h| h["provider"] == "gemini" && h["kind"] == "tool_call")
    );
    let a = c
        .call(
            "search_event_previews",
            json!({"query": "hoge", "session_id": "019b04ae-b1"}),
        )
        .await;
    let hits = a.expect_ok().as_array().unwrap();
    assert!(!hits.is_empty() && hits.iter().all(|h| h["session_id"] == CODEX_ID));
    let a = c
        .call(
            "search_event_previews",
            json!({"query": "nothing-like-this-anywhere"}),
        )
        .await;
    assert_eq!(a.expect_ok(), &json!([]));
}

#[tokio::test]
async fn get_event_details_returns_the_whole_event_or_event_not_found() {
    let s = samples().await;
    let c = &s.client;
    let detail = s.store.load_session(CLAUDE_ID).unwrap();
    let longest = detail.events.iter().max_by_key(|e| e.text.len()).unwrap();
    let a = c
        .call(
            "get_event_details",
            json!({"session_id": "7f2abd2d", "event_index": longest.index}),
        )
        .await;
    c.assert_within_size_hint(&a);
    let part = &a.expect_ok()[0];
    assert_eq!(part["text"], longest.text.as_str());
    assert_eq!(part["continues"], false);
    assert_eq!(part["session_id"], CLAUDE_ID);
    assert_eq!(part["provider"], "claude_code");
    assert_eq!(part["kind"], longest.kind.as_str());
    assert!(a.next_cursor().is_none());

    let a = c
        .call(
            "get_event_details",
            json!({"session_id": CLAUDE_ID, "event_index": 9999}),
        )
        .await;
    assert_eq!(error_code(&a), "event_not_found");
    assert_eq!(a.error()["details"]["event_index"], 9999);
}

#[tokio::test]
async fn analyze_session_reports_failures_with_turns_and_a_verdict() {
    let s = samples().await;
    let c = &s.client;
    let a = c
        .call("analyze_session", json!({"session_id": CODEX_ID}))
        .await;
    c.assert_within_size_hint(&a);
    let d = a.expect_ok();
    let failures = d["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 2);
    for f in failures {
        assert_eq!(f["turn_index"], 1);
        assert_eq!(f["call"], "shell_command `python hoge.py`");
        assert!(
            f["error"]["text"]
                .as_str()
                .unwrap()
                .contains("target shim binary not found")
        );
        assert_eq!(f["severity"], "warning");
    }
    assert_eq!(d["failures_left_out"], 0);
    let verdict = d["verdict"].as_str().unwrap();
    assert!(
        verdict.contains("2 failed tool calls") && verdict.contains("2 turns"),
        "{verdict}"
    );
    assert!(d["peak_context_tokens"].as_u64().unwrap() > 0);

    let clean = c
        .call(
            "analyze_session",
            json!({"session_id": "019b88e0-0b0f-7bb0-a9ba-5cc2d8dffde9"}),
        )
        .await;
    assert!(
        clean.expect_ok()["verdict"]
            .as_str()
            .unwrap()
            .starts_with("No failed tool calls")
    );
}

#[tokio::test]
async fn get_project_info_counts_sessions_per_provider() {
    let s = samples().await;
    let c = &s.client;
    let a = c.call("get_project_info", json!({})).await;
    c.assert_within_size_hint(&a);
    let projects = a.expect_ok().as_array().unwrap();
    let sample = projects.iter().find(|p| p["root"] == SAMPLE_ROOT).unwrap();
    assert_eq!(
        sample["hash"],
        agtrace_tools::model::project_hash(SAMPLE_ROOT)
    );
    let n = &sample["sessions"];
    assert_eq!(
        n["total"].as_u64().unwrap(),
        n["claude_code"].as_u64().unwrap()
            + n["codex"].as_u64().unwrap()
            + n["gemini"].as_u64().unwrap()
    );
    assert_eq!(
        (n["claude_code"].as_u64(), n["codex"].as_u64()),
        (Some(2), Some(5))
    );
    let gemini = projects
        .iter()
        .find(|p| p["hash"] == "9126eddec7f67e038794657b4d517dd9cb5226468f30b5ee7296c27d65e84fde")
        .unwrap();
    assert_eq!(gemini["root"], Value::Null);
    assert_eq!(gemini["sessions"]["gemini"], 1);
    let last: Vec<&str> = projects
        .iter()
        .filter_map(|p| p["last_activity"].as_str())
        .collect();
    assert!(
        last.windows(2).all(|w| w[0] >= w[1]),
        "most recent first: {last:?}"
    );
    let total: u64 = projects
        .iter()
        .map(|p| p["sessions"]["total"].as_u64().unwrap())
        .sum();
    let all = c
        .call(
            "list_sessions",
            json!({"include_subagents": true, "limit": 50}),
        )
        .await;
    let with_project = all
        .expect_ok()
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| !r["project_hash"].is_null())
        .count();
    assert_eq!(total as usize, with_project);
}
