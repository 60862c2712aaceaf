//! Private by default: the index of private logs is readable by its owner only, errors name
//! logs relative to their root, and the data dir can never be put inside a log root.

mod common;

use std::path::Path;

use agtrace_tools::config::Config;
use agtrace_tools::store::TraceStore;
use common::copy_tree;

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

/// Every file in the data dir, with its mode, after an index run.
#[cfg(unix)]
fn modes_in(dir: &Path) -> Vec<(String, u32)> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                mode(&e.path()),
            )
        })
        .collect();
    out.sort();
    out
}

#[cfg(unix)]
#[test]
fn a_new_data_dir_is_0700_and_its_index_files_0600() {
    let tmp = tempfile::tempdir().unwrap();
    let logs = tmp.path().join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    copy_tree(&common::samples(), &logs);
    let data = tmp.path().join("share/agtrace");
    let store = TraceStore::open(Config::for_tree(&logs, &data)).unwrap();
    store.refresh().unwrap();
    // The writer's and a reader's connections are open: the -wal and -shm files exist now.
    store.list_sessions(&Default::default(), None, 5).unwrap();
    assert_eq!(mode(&data), 0o700);
    let files = modes_in(&data);
    let names: Vec<_> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert!(names.contains(&"index.sqlite"), "{files:?}");
    assert!(names.contains(&"index.sqlite-wal"), "{files:?}");
    assert!(names.contains(&"index.sqlite-shm"), "{files:?}");
    for (name, m) in &files {
        assert_eq!(*m, 0o600, "{name} has mode {m:o}");
    }
}

#[cfg(unix)]
#[test]
fn an_existing_readable_data_dir_and_index_are_tightened() {
    let tmp = tempfile::tempdir().unwrap();
    let logs = tmp.path().join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    copy_tree(&common::samples(), &logs);
    let data = tmp.path().join("data");
    // What a umask of 0o022 gives a dir and files made without care.
    std::fs::create_dir_all(&data).unwrap();
    set_mode(&data, 0o755);
    {
        let store = TraceStore::open(Config::for_tree(&logs, &data)).unwrap();
        store.refresh().unwrap();
    }
    for name in ["index.sqlite", "index.sqlite-wal", "index.sqlite-shm"] {
        let p = data.join(name);
        if !p.exists() {
            std::fs::write(&p, b"").unwrap();
        }
        set_mode(&p, 0o644);
    }
    set_mode(&data, 0o755);

    let store = TraceStore::open(Config::for_tree(&logs, &data)).unwrap();
    assert_eq!(mode(&data), 0o700);
    for (name, m) in modes_in(&data) {
        assert_eq!(m, 0o600, "{name} has mode {m:o}");
    }
    // Still the same index, readable.
    assert!(store.refresh().unwrap().files_seen > 0);
}

/// Every path under `dir`, for checking that nothing was written there.
fn tree(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p.clone());
            }
            out.push(p);
        }
    }
    out.sort();
    out
}

fn refused(config: Config) -> String {
    match TraceStore::open(config) {
        Ok(_) => panic!("a data dir inside a log root was accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_data_dir_written_with_dot_dot_into_a_log_root_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let logs = tmp.path().join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    copy_tree(&common::samples(), &logs);
    let before = tree(&logs);
    let root = logs.join("claude/projects");
    // The second form does not even start with the root's text.
    for data in [
        root.join("../projects/data"),
        logs.join("claude/../claude/projects/data"),
    ] {
        let message = refused(Config::for_tree(&logs, &data));
        assert!(
            message.contains("inside the claude_code log root"),
            "{message}"
        );
        assert!(
            message.contains("never writes into a log root"),
            "{message}"
        );
        assert_eq!(
            tree(&logs),
            before,
            "something was written into the log roots"
        );
    }

    // `..` that really leaves the root is fine.
    let outside = root.join("../agtrace-data");
    TraceStore::open(Config::for_tree(&logs, &outside)).unwrap();
    assert!(logs.join("claude/agtrace-data/index.sqlite").is_file());
}

#[cfg(unix)]
#[test]
fn a_data_dir_given_through_a_symlink_into_a_log_root_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let logs = tmp.path().join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    copy_tree(&common::samples(), &logs);
    let before = tree(&logs);
    let link = tmp.path().join("innocent");
    std::os::unix::fs::symlink(logs.join("codex/sessions"), &link).unwrap();

    // A data dir not created yet, below the link, and the link itself.
    for data in [link.join("agtrace/data"), link.clone()] {
        let message = refused(Config::for_tree(&logs, &data));
        assert!(message.contains("inside the codex log root"), "{message}");
        assert_eq!(
            tree(&logs),
            before,
            "something was written into the log roots"
        );
    }

    // A log root given through a symlink is resolved too.
    let roots_link = tmp.path().join("roots");
    std::os::unix::fs::symlink(&logs, &roots_link).unwrap();
    let message = refused(Config::for_tree(
        &roots_link,
        &logs.join("gemini/tmp/x/../data"),
    ));
    assert!(message.contains("inside the gemini log root"), "{message}");
    assert_eq!(
        tree(&logs),
        before,
        "something was written into the log roots"
    );
}

/// Tool answers and index notes over logs that fail to read name them relative to their root:
/// the absolute path says where the logs are and whose they are.
#[tokio::test]
async fn errors_and_notes_never_carry_an_absolute_log_path() {
    use serde_json::json;

    const CLAUDE_ID: &str = "7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9";
    const GEMINI_ID: &str = "f0a689a6-b0ac-407f-afcc-4fafa9e14e8a";
    const CODEX_ID: &str = "019b04ae-b1c6-7c72-a134-a4c2de66058c";
    let tmp = tempfile::tempdir().unwrap();
    let (logs, store) = common::sample_store(tmp.path());
    store.refresh().unwrap();
    let absolute = tmp.path().to_str().unwrap().to_string();

    // A log that cannot be read (a directory took its place; permissions do not stop root),
    // and a Gemini document caught half-written.
    let claude_log = logs.join(format!(
        "claude/projects/-Users-test_user-agent-sample/{CLAUDE_ID}.jsonl"
    ));
    std::fs::remove_file(&claude_log).unwrap();
    std::fs::create_dir(&claude_log).unwrap();
    let gemini_log = logs.join(
        "gemini/tmp/9126eddec7f67e038794657b4d517dd9cb5226468f30b5ee7296c27d65e84fde/chats/session-2025-12-09T19-51-f0a689a6.json",
    );
    std::fs::write(&gemini_log, br#"{"sessionId": "f0a6"#).unwrap();

    let server = agtrace_tools::server::build(store.clone()).unwrap();
    let client = mcp_tool::testing::TestClient::in_process(&server).await;
    let mut texts = Vec::new();
    for def in server.definitions() {
        for id in [CLAUDE_ID, GEMINI_ID, CODEX_ID] {
            let args = match def.name {
                "list_sessions" | "get_project_info" => json!({}),
                "search_event_previews" => json!({"query": "the", "session_id": id}),
                "get_turn_steps" => json!({"session_id": id, "turn_index": 0}),
                "get_event_details" => json!({"session_id": id, "event_index": 0}),
                _ => json!({"session_id": id}),
            };
            let answer = client.call(def.name, args).await;
            assert!(
                !answer.text.contains(&absolute),
                "{} names an absolute path: {}",
                def.name,
                answer.text
            );
            texts.push(answer.text);
        }
    }
    let all = texts.join("\n");
    assert!(
        all.contains(&format!(
            "<claude_code root>/-Users-test_user-agent-sample/{CLAUDE_ID}.jsonl"
        )),
        "the unreadable log is named relative to its root: {all}"
    );
    assert!(
        all.contains("<gemini root>/9126eddec7f67e038794657b4d517dd9cb5226468f30b5ee7296c27d65e84fde/chats/session-2025-12-09T19-51-f0a689a6.json"),
        "the half-written document is named relative to its root: {all}"
    );

    // `agtrace index`'s notes: a missing root, and the half-written document among the skipped.
    std::fs::remove_dir_all(logs.join("codex")).unwrap();
    let stats = store.refresh().unwrap();
    let notes = stats.notes.join("\n");
    assert!(!notes.contains(&absolute), "{notes}");
    assert!(notes.contains("<codex root>"), "{notes}");
    let skipped: Vec<&str> = stats.skipped.iter().map(|s| s.path.as_str()).collect();
    assert!(
        skipped.iter().all(|p| !p.contains(&absolute)),
        "{skipped:?}"
    );
    assert!(
        skipped.iter().any(|p| p.starts_with("<gemini root>/")),
        "{skipped:?}"
    );
}

/// Every secret format masked by default, each marked `PLANTED` to be found in an answer.
/// (Basic credentials are base64, so no `PLANTED` shows in them; their kind is looked for.)
const PLANTED: &str = "sk-ant-api03-PLANTEDanthropic0000000000 sk-proj-PLANTEDopenai00000000000000 \
ghp_PLANTEDgithub000000000000000000000 github_pat_PLANTEDgithubpat0000000000 AKIAPLANTED2222AWS22 \
xoxb-PLANTED-slack-000 Authorization: Bearer PLANTEDbearer000000000 \
-----BEGIN RSA PRIVATE KEY----- MIIEPLANTEDkey -----END RSA PRIVATE KEY----- \
eyJhbGciOiJIUzI1NiJ9.eyJQTEFOVEVEIjoxfQ.PLANTEDjwtSignature000000 \
postgres://app:PLANTEDdbpw@db.internal/app DB_PASSWORD=PLANTEDenvpw \
aws_secret_access_key=PLANTEDawsSecret000000000000000000000000 \
AIzaPLANTEDgoogle0000000000000000000000 sk_live_PLANTEDstripe000000000000 \
https://hooks.slack.com/services/TPLANTED0/BPLANTED0/PLANTEDwebhook0000000000 \
npm_PLANTEDnpm00000000000000000000000000 hf_PLANTEDhuggingface0000000000000000 \
glpat-PLANTEDgitlab0000000 Authorization: Basic dXNlcjpwYXNzd29yZA==";

/// The text of every answer of every tool (all pages) over every sample session, with
/// secrets planted into text of all three providers' logs.
async fn every_answer(show_secrets: bool) -> Vec<String> {
    use mcp_tool::testing::TestClient;
    use serde_json::{Value, json};

    let tmp = tempfile::tempdir().unwrap();
    let logs = tmp.path().join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    copy_tree(&common::samples(), &logs);
    // "hoge" is in prompts, tool calls and results of the Claude, Codex and Gemini samples.
    let mut planted_in = 0;
    for file in tree(&logs).into_iter().filter(|p| p.is_file()) {
        let text = std::fs::read_to_string(&file).unwrap();
        if text.contains("hoge") {
            std::fs::write(&file, text.replace("hoge", &format!("hoge {PLANTED}"))).unwrap();
            planted_in += 1;
        }
    }
    assert_eq!(planted_in, 3, "one log of each provider");
    let mut config = Config::for_tree(&logs, &tmp.path().join("data"));
    config.show_secrets = show_secrets;
    let store = TraceStore::open(config).unwrap();
    store.refresh().unwrap();
    let server = agtrace_tools::server::build(store.clone()).unwrap();
    let client = TestClient::in_process(&server).await;

    let page_all = |tool: &'static str, args: Value| {
        let client = &client;
        async move {
            let mut texts = Vec::new();
            let mut args = args;
            loop {
                let answer = client.call(tool, args.clone()).await;
                assert!(answer.is_ok(), "{tool} {args}: {}", answer.text);
                texts.push(answer.text.clone());
                match answer.next_cursor() {
                    Some(c) => args["cursor"] = json!(c),
                    None => return texts,
                }
            }
        }
    };
    let mut texts = Vec::new();
    let sessions = store
        .list_sessions(&Default::default(), None, 100)
        .unwrap()
        .sessions;
    assert!(sessions.len() >= 3);
    texts.extend(page_all("list_sessions", json!({})).await);
    texts.extend(page_all("get_project_info", json!({})).await);
    texts.extend(page_all("search_event_previews", json!({"query": "hoge"})).await);
    texts.extend(
        page_all(
            "search_event_previews",
            json!({"query": "PLANTEDbearer000000000"}),
        )
        .await,
    );
    texts.extend(page_all("list_file_history", json!({"path": "**/*"})).await);
    texts.extend(page_all("get_project_costs", json!({"group_by": "session"})).await);
    let mut served: Vec<&str> = vec![
        "list_sessions",
        "get_project_info",
        "search_event_previews",
        "list_file_history",
        "get_project_costs",
    ];
    for s in &sessions {
        let id = s.id.as_str();
        for tool in [
            "get_session_summary",
            "get_session_turns",
            "get_session_full",
            "analyze_session",
            "get_session_costs",
        ] {
            texts.extend(page_all(tool, json!({"session_id": id})).await);
            served.push(tool);
        }
        for turn in 0..s.turn_count {
            texts.extend(
                page_all(
                    "get_turn_steps",
                    json!({"session_id": id, "turn_index": turn}),
                )
                .await,
            );
        }
        for index in 0..s.event_count {
            texts.extend(
                page_all(
                    "get_event_details",
                    json!({"session_id": id, "event_index": index}),
                )
                .await,
            );
        }
    }
    served.extend(["get_turn_steps", "get_event_details"]);
    for def in server.definitions() {
        assert!(served.contains(&def.name), "{} is not walked", def.name);
    }
    texts
}

#[tokio::test]
async fn planted_secrets_never_come_back_unmasked() {
    let texts = every_answer(false).await;
    let all = texts.join("\n");
    if let Some(at) = all.find("PLANTED") {
        let from = all.floor_char_boundary(at.saturating_sub(200));
        let to = all.floor_char_boundary((at + 100).min(all.len()));
        panic!("a secret came back unmasked: ...{}...", &all[from..to]);
    }
    for kind in [
        "anthropic_key",
        "openai_key",
        "github_token",
        "aws_access_key_id",
        "slack_token",
        "bearer_token",
        "private_key",
        "jwt",
        "password",
        "aws_secret_access_key",
        "google_api_key",
        "stripe_key",
        "slack_webhook",
        "npm_token",
        "huggingface_token",
        "gitlab_token",
        "basic_auth",
    ] {
        assert!(
            all.contains(&format!("[REDACTED:{kind}]")),
            "{kind} is never masked"
        );
    }
}

#[tokio::test]
async fn planted_secrets_come_back_when_asked_for() {
    let texts = every_answer(true).await;
    let all = texts.join("\n");
    assert!(!all.contains("[REDACTED:"), "masked although asked for");
    for secret in [
        "sk-ant-api03-PLANTEDanthropic",
        "AKIAPLANTED2222AWS22",
        "MIIEPLANTEDkey",
    ] {
        assert!(all.contains(secret), "{secret} is not shown");
    }
}
