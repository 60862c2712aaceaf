//! What agtrace makes of the real-log test set, per provider, beside what the raw records say.
//!
//! `cargo run -p agtrace-tools --example real_logs_report` indexes `tests/real_logs/` into a
//! temp data dir and prints one markdown table per provider of `provider_table!`: files found
//! (named like the agent's logs), files indexed, files skipped and why, sessions, turns,
//! prompts, token totals from agtrace, the same totals computed here from the raw records by the
//! provider's own rule (`n/a` for a provider without one here), and how many of the prompts
//! `search_event_previews` finds by a phrase of their first words.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use agtrace_tools::config::Config;
use agtrace_tools::index::SessionFilter;
use agtrace_tools::model::{EventKind, Provider, TokenUsage};
use agtrace_tools::store::TraceStore;
use mcp_tool::testing::TestClient;
use serde_json::{Value, json};

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(report());
}

async fn report() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/real_logs");
    let tmp = tempfile::tempdir().expect("a temp dir");
    let store = TraceStore::open(Config::for_tree(&root, &tmp.path().join("data")))
        .expect("the store opens");
    let stats = store.refresh().expect("the set indexes");
    let server = agtrace_tools::server::build(store.clone()).expect("the server builds");
    let client = TestClient::in_process(&server).await;
    println!("# agtrace on tests/real_logs\n");
    for p in Provider::ALL {
        let spec = p.spec();
        let files = log_files(&root.join(spec.tree_root), spec.is_log);
        let tag = format!("<{} root>", p.as_str());
        let mut skipped: BTreeMap<String, u32> = BTreeMap::new();
        for s in stats.skipped.iter().filter(|s| s.path.starts_with(&tag)) {
            *skipped.entry(s.reason.as_str().to_string()).or_default() += 1;
        }
        let sessions = sessions(&store, p);
        let (mut turns, mut prompts, mut found) = (0u64, 0u64, 0u64);
        let mut tokens = TokenUsage::default();
        for s in &sessions {
            turns += u64::from(s.turn_count);
            prompts += u64::from(s.prompt_count);
            tokens.add(&s.tokens);
            let detail = store.load_session(&s.id).expect("a listed session loads");
            for e in detail.events.iter().filter(|e| e.kind == EventKind::User) {
                found += u64::from(search_finds(&client, &s.id, e.index, &e.text).await);
            }
        }
        let raw = raw_totals(p, &files);
        let skipped_text = if skipped.is_empty() {
            "0".to_string()
        } else {
            let reasons: Vec<String> = skipped.iter().map(|(r, n)| format!("{n} {r}")).collect();
            format!("{} ({})", skipped.values().sum::<u32>(), reasons.join(", "))
        };
        println!("## {} (`{}`)\n", spec.title, p.as_str());
        println!("| measure | agtrace | raw records |");
        println!("| --- | --- | --- |");
        println!("| files found | {} | |", files.len());
        println!(
            "| files indexed | {} | |",
            files
                .len()
                .saturating_sub(skipped.values().sum::<u32>() as usize)
        );
        println!("| skipped | {skipped_text} | |");
        println!("| sessions (incl. sub-agents) | {} | |", sessions.len());
        let subagents = sessions.iter().filter(|s| s.is_subagent);
        println!(
            "| sub-agents (with a parent) | {} ({}) | |",
            subagents.clone().count(),
            subagents.filter(|s| s.parent_id.is_some()).count()
        );
        let forks = sessions
            .iter()
            .filter(|s| !s.is_subagent && s.parent_id.is_some());
        println!("| forks (a parent, no sub-agent) | {} | |", forks.count());
        println!("| turns | {turns} | |");
        println!("| prompts | {prompts} | |");
        let cell = |f: Count| match &raw {
            Some(r) => f(r).to_string(),
            None => "n/a".to_string(),
        };
        let rows: [(&str, Count); 6] = [
            ("input", |t| t.input),
            ("cached input", |t| t.cached_input),
            ("cache write", |t| t.cache_creation_input),
            ("output", |t| t.output),
            ("reasoning", |t| t.reasoning_output),
            ("total", |t| t.total),
        ];
        for (name, f) in rows {
            println!("| tokens: {name} | {} | {} |", f(&tokens), cell(f));
        }
        println!("| prompts found by search_event_previews | {found} / {prompts} | |\n");
    }
}

/// One of a [`TokenUsage`]'s counts.
type Count = fn(&TokenUsage) -> u64;

/// Every file under `dir` named like one of the agent's logs.
fn log_files(dir: &Path, is_log: fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            if path.is_dir() {
                stack.push(path);
            } else if is_log(&path) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Every session of provider `p`, sub-agents included.
fn sessions(store: &TraceStore, p: Provider) -> Vec<agtrace_tools::index::SessionSummary> {
    let filter = SessionFilter {
        provider: Some(p),
        include_subagents: true,
        ..Default::default()
    };
    let mut out = Vec::new();
    let mut after = None;
    loop {
        let page = store
            .list_sessions(&filter, after.as_ref(), 200)
            .expect("sessions list");
        out.extend(page.sessions);
        match page.next {
            Some(next) => after = Some(next),
            None => return out,
        }
    }
}

/// Whether `search_event_previews` finds prompt event `index` of `session` by a phrase of its
/// first words (at most 8, letters and digits only).
async fn search_finds(client: &TestClient, session: &str, index: u32, text: &str) -> bool {
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(8)
        .collect();
    if words.is_empty() {
        return false;
    }
    let answer = client
        .call(
            "search_event_previews",
            json!({
                "query": format!("\"{}\"", words.join(" ")),
                "session_id": session,
                "event_type": "user",
                "limit": 50,
            }),
        )
        .await;
    let items = answer.data().as_array().cloned().unwrap_or_default();
    items
        .iter()
        .any(|h| h["event_index"] == index && h["session_id"] == session)
}

/// The provider's token totals computed from the raw records, `None` without a rule here.
fn raw_totals(p: Provider, files: &[PathBuf]) -> Option<TokenUsage> {
    let rule: fn(&[PathBuf]) -> TokenUsage = match p.as_str() {
        "claude_code" => claude,
        "codex" => codex,
        "gemini" => gemini,
        _ => return None,
    };
    Some(rule(files))
}

fn jsonl(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

fn num(v: &Value, key: &str) -> u64 {
    v.get(key).and_then(Value::as_u64).unwrap_or(0)
}

/// Claude Code: each `message.id`'s usage once, from its last streamed line (input = input +
/// cache creation + cache read), over every record (inline sidechains were billed too).
fn claude(files: &[PathBuf]) -> TokenUsage {
    let mut sum = TokenUsage::default();
    for f in files {
        let mut last: Vec<(Option<String>, TokenUsage)> = Vec::new();
        for r in jsonl(f) {
            let Some(u) = r
                .pointer("/message/usage")
                .filter(|_| r["type"] == "assistant")
            else {
                continue;
            };
            let (cc, cr) = (
                num(u, "cache_creation_input_tokens"),
                num(u, "cache_read_input_tokens"),
            );
            let usage = TokenUsage::new(
                num(u, "input_tokens") + cc + cr,
                cr,
                cc,
                num(u, "output_tokens"),
                0,
            );
            let id = r["message"]["id"].as_str().map(str::to_string);
            match last.iter_mut().find(|(k, _)| id.is_some() && *k == id) {
                Some(slot) => slot.1 = usage,
                None => last.push((id, usage)),
            }
        }
        last.iter().for_each(|(_, u)| sum.add(u));
    }
    sum
}

/// Codex: the cumulative `total_token_usage` (its last value plus the value before each reset);
/// a fork's copy of its parent (the records after its `session_meta` equal, but for their
/// time, to the start of the parent's rollout) is not its own, and its totals continue the
/// parent's, so the parent's total at the fork is taken off.
fn codex(files: &[PathBuf]) -> TokenUsage {
    let rollouts: Vec<Vec<Value>> = files.iter().map(|f| jsonl(f)).collect();
    let mut sum = TokenUsage::default();
    for recs in &rollouts {
        let Some(first) = recs.first() else { continue };
        let mut own = &recs[..];
        let mut inherited = TokenUsage::default();
        if let Some(parent_id) = first["payload"]["forked_from_id"].as_str()
            && let Some(parent) = rollouts
                .iter()
                .find(|p| p.first().is_some_and(|m| m["payload"]["id"] == parent_id))
        {
            let bare = |r: &Value| {
                let mut r = r.clone();
                if let Some(o) = r.as_object_mut() {
                    o.remove("timestamp");
                }
                r
            };
            let n = recs[1..]
                .iter()
                .zip(parent)
                .take_while(|(a, b)| bare(a) == bare(b))
                .count();
            inherited = cumulative(&parent[..n]);
            own = &recs[1 + n..];
        }
        let t = cumulative(own);
        sum.add(&TokenUsage::new(
            t.input - inherited.input,
            t.cached_input - inherited.cached_input,
            t.cache_creation_input - inherited.cache_creation_input,
            t.output - inherited.output,
            t.reasoning_output - inherited.reasoning_output,
        ));
    }
    sum
}

fn cumulative(recs: &[Value]) -> TokenUsage {
    let (mut done, mut last) = (TokenUsage::default(), TokenUsage::default());
    for r in recs {
        let Some(u) = r
            .pointer("/payload/info/total_token_usage")
            .filter(|_| r["payload"]["type"] == "token_count")
        else {
            continue;
        };
        let t = TokenUsage::new(
            num(u, "input_tokens"),
            num(u, "cached_input_tokens"),
            num(u, "cache_write_input_tokens"),
            num(u, "output_tokens"),
            num(u, "reasoning_output_tokens"),
        );
        if t.total < last.total {
            done.add(&last);
        }
        last = t;
    }
    done.add(&last);
    done
}

/// Gemini CLI documents: the sum of the messages' `tokens` (input holds cached; tool-use
/// prompt tokens are input; thoughts are output, and its reasoning part).
fn gemini(files: &[PathBuf]) -> TokenUsage {
    let mut sum = TokenUsage::default();
    for f in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "json"))
    {
        let Ok(doc) =
            serde_json::from_str::<Value>(&std::fs::read_to_string(f).unwrap_or_default())
        else {
            continue;
        };
        for m in doc["messages"].as_array().into_iter().flatten() {
            if let Some(k) = m.get("tokens").filter(|k| k.is_object()) {
                sum.add(&TokenUsage::new(
                    num(k, "input") + num(k, "tool"),
                    num(k, "cached"),
                    0,
                    num(k, "output") + num(k, "thoughts"),
                    num(k, "thoughts"),
                ));
            }
        }
    }
    sum
}
