//! Deterministic synthetic session logs in all three formats, for tests at scale and benchmarks.
//!
//! The same spec and seed always give byte-identical files. Shapes follow real logs: a few
//! turns per session, a few steps per turn, tool outputs whose sizes have a long tail (most a
//! few hundred bytes, a few up to `max_tool_output`), Unicode text, streamed Claude usage lines
//! and duplicated Codex event messages.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::error::{Error, Result};
use crate::model::{Provider, project_hash};

/// What to generate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CorpusSpec {
    /// Number of sessions, spread evenly over the three providers.
    pub sessions: usize,
    /// Seed: the same spec and seed write the same bytes.
    pub seed: u64,
    /// Inclusive range of person turns per session.
    pub turns: (u32, u32),
    /// Inclusive range of model steps per turn.
    pub steps: (u32, u32),
    /// Largest tool output in bytes (the tail of the size distribution).
    pub max_tool_output: usize,
    /// Number of distinct project roots.
    pub projects: usize,
}

impl CorpusSpec {
    /// `sessions` sessions from `seed`, with shapes like real logs.
    pub fn new(sessions: usize, seed: u64) -> Self {
        CorpusSpec {
            sessions,
            seed,
            turns: (2, 12),
            steps: (1, 6),
            max_tool_output: 1 << 20,
            projects: 12,
        }
    }
}

/// What was generated.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CorpusStats {
    /// Files written.
    pub files: u64,
    /// Bytes written.
    pub bytes: u64,
    /// Sessions per provider, in [`Provider::ALL`](crate::model::Provider::ALL) order.
    pub sessions: [u64; Provider::COUNT],
    /// Every file written, in generation order.
    pub paths: Vec<PathBuf>,
}

/// splitmix64: tiny, fast, and stable across versions (unlike a dependency's default RNG).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next() % n }
    }
    fn range(&mut self, (lo, hi): (u32, u32)) -> u32 {
        lo + self.below(u64::from(hi.saturating_sub(lo)) + 1) as u32
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn uuid(&mut self) -> String {
        let a = self.next();
        let b = self.next();
        format!(
            "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
            a >> 32,
            (a >> 16) & 0xffff,
            a & 0xffff,
            b >> 48,
            b & 0xffff_ffff_ffff
        )
    }
}

const WORDS: &[&str] = &[
    "the",
    "agent",
    "file",
    "build",
    "test",
    "error",
    "warning",
    "function",
    "module",
    "config",
    "index",
    "query",
    "session",
    "token",
    "parser",
    "render",
    "cache",
    "thread",
    "async",
    "buffer",
    "naïve",
    "café",
    "über",
    "résumé",
    "straße",
    "日本語",
    "données",
    "Ελληνικά",
    "emoji🙂",
    "fix",
    "refactor",
    "deploy",
    "compile",
    "cargo",
    "rust",
    "python",
    "stack",
    "trace",
    "panic",
    "unwrap",
    "result",
    "option",
    "vector",
    "string",
    "lifetime",
    "borrow",
];
const RARE: &[&str] = &["ZEBRA-4471", "quasar", "heliotrope", "Ångström"];
const TOOLS: &[&str] = &["Bash", "Read", "Edit", "Write", "Grep"];

/// A file of the project the words of a command are about: `src/<first word>/<n>.rs`, some
/// 500 names per project, so that file history has hot files, directories and globs to find.
/// Made of values already drawn: adding it did not change the rest of the corpus.
fn file_of(cmd: &str, n: usize) -> String {
    let word = cmd.split(' ').next().unwrap_or("main");
    format!("src/{word}/{n}.rs")
}

/// A Claude tool call's input naming its file the way Claude Code does (absolute paths).
fn claude_input(tool: &str, cmd: &str, cwd: &str, n: usize) -> Value {
    let file = format!("{cwd}/{}", file_of(cmd, n));
    match tool {
        "Read" => json!({"file_path": file}),
        "Edit" => json!({"file_path": file, "old_string": cmd, "new_string": cmd}),
        "Write" => json!({"file_path": file, "content": cmd}),
        "Grep" => json!({"pattern": cmd, "path": file.rsplit_once('/').map_or(cwd, |(d, _)| d)}),
        _ => json!({"command": format!("cat {} | grep -c '{cmd}'", file_of(cmd, n))}),
    }
}

fn sentence(rng: &mut Rng, words: usize) -> String {
    let mut s = String::with_capacity(words * 7);
    for i in 0..words {
        if i > 0 {
            s.push(' ');
        }
        if rng.below(2000) == 0 {
            s.push_str(RARE[rng.below(RARE.len() as u64) as usize]);
        } else {
            s.push_str(WORDS[rng.below(WORDS.len() as u64) as usize]);
        }
    }
    s
}

/// Tool output with a long-tailed size: Pareto-like, median a few hundred bytes.
fn tool_output(rng: &mut Rng, max: usize) -> String {
    let u = rng.unit().max(1e-9);
    let size = ((200.0 / u.powf(1.0 / 0.9)) as usize).clamp(16, max.max(16));
    let mut s = String::with_capacity(size + 80);
    let mut line = 0;
    while s.len() < size {
        line += 1;
        let n = 4 + rng.below(12) as usize;
        s.push_str(&format!("{line:>5}: {}\n", sentence(rng, n)));
    }
    s
}

fn iso(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string())
        .unwrap_or_default()
}

struct Ctx<'a> {
    rng: Rng,
    spec: &'a CorpusSpec,
    t: i64,
}

impl Ctx<'_> {
    fn tick(&mut self, max_ms: u64) -> String {
        self.t += 1 + self.rng.below(max_ms) as i64;
        iso(self.t)
    }
}

fn write_lines(path: &Path, lines: &[Value]) -> Result<u64> {
    let f = std::fs::File::create(path).map_err(|e| Error::io(path, e))?;
    let mut w = BufWriter::new(f);
    for l in lines {
        serde_json::to_writer(&mut w, l).map_err(|e| Error::io(path, e.into()))?;
        w.write_all(b"\n").map_err(|e| Error::io(path, e))?;
    }
    w.flush().map_err(|e| Error::io(path, e))?;
    Ok(std::fs::metadata(path)
        .map_err(|e| Error::io(path, e))?
        .len())
}

fn claude(c: &mut Ctx, out: &Path, cwd: &str) -> Result<(PathBuf, u64)> {
    let id = c.rng.uuid();
    let dir = out.join("claude/projects").join(cwd.replace('/', "-"));
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let base = json!({"sessionId": id, "cwd": cwd, "version": "2.0.28", "gitBranch": "main", "isSidechain": false, "userType": "external"});
    let with = |extra: Value| {
        let mut v = base.clone();
        if let (Some(o), Value::Object(e)) = (v.as_object_mut(), extra) {
            o.extend(e);
        }
        v
    };
    let mut lines = Vec::new();
    let mut context = 3000u64;
    for _ in 0..c.rng.range(c.spec.turns) {
        let n = 5 + c.rng.below(30) as usize;
        let prompt = sentence(&mut c.rng, n);
        let ts = c.tick(60_000);
        lines.push(with(json!({"type": "user", "uuid": c.rng.uuid(), "timestamp": ts, "message": {"role": "user", "content": prompt}})));
        for _ in 0..c.rng.range(c.spec.steps) {
            let msg_id = format!("msg_{:016x}", c.rng.next());
            let call_id = format!("toolu_{:016x}", c.rng.next());
            context += 200 + c.rng.below(3000);
            let cache_read = context * 8 / 10;
            let usage = |out: u64| json!({"input_tokens": 10, "cache_creation_input_tokens": context - cache_read - 10, "cache_read_input_tokens": cache_read, "output_tokens": out});
            let nt = 10 + c.rng.below(60) as usize;
            let thinking = sentence(&mut c.rng, nt);
            let ts = c.tick(8_000);
            lines.push(with(json!({"type": "assistant", "uuid": c.rng.uuid(), "timestamp": ts,
                "message": {"id": msg_id, "model": "claude-sonnet-4-5-20250929", "role": "assistant", "content": [{"type": "thinking", "thinking": thinking}], "usage": usage(3)}})));
            let nx = 5 + c.rng.below(40) as usize;
            let text = sentence(&mut c.rng, nx);
            let ts = c.tick(2_000);
            lines.push(with(json!({"type": "assistant", "uuid": c.rng.uuid(), "timestamp": ts,
                "message": {"id": msg_id, "model": "claude-sonnet-4-5-20250929", "role": "assistant", "content": [{"type": "text", "text": text}], "usage": usage(3)}})));
            let tool = TOOLS[c.rng.below(TOOLS.len() as u64) as usize];
            let nc = 3 + c.rng.below(8) as usize;
            let cmd = sentence(&mut c.rng, nc);
            let out_tokens = 50 + c.rng.below(800);
            let ts = c.tick(2_000);
            lines.push(with(json!({"type": "assistant", "uuid": c.rng.uuid(), "timestamp": ts,
                "message": {"id": msg_id, "model": "claude-sonnet-4-5-20250929", "role": "assistant", "content": [{"type": "tool_use", "id": call_id, "name": tool, "input": claude_input(tool, &cmd, cwd, nc)}], "usage": usage(out_tokens)}})));
            let output = tool_output(&mut c.rng, c.spec.max_tool_output);
            let failed = c.rng.below(10) == 0;
            let ts = c.tick(20_000);
            lines.push(with(json!({"type": "user", "uuid": c.rng.uuid(), "timestamp": ts,
                "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call_id, "content": output, "is_error": failed}]}})));
        }
    }
    let path = dir.join(format!("{id}.jsonl"));
    let bytes = write_lines(&path, &lines)?;
    Ok((path, bytes))
}

fn codex(c: &mut Ctx, out: &Path, cwd: &str) -> Result<(PathBuf, u64)> {
    let id = c.rng.uuid();
    let start = c.t;
    let mut lines = Vec::new();
    let ts = c.tick(10);
    lines.push(json!({"timestamp": ts, "type": "session_meta", "payload": {"id": id, "timestamp": ts, "cwd": cwd, "originator": "codex_cli_rs", "cli_version": "0.66.0", "source": "cli", "model_provider": "openai"}}));
    lines.push(json!({"timestamp": ts, "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": format!("<environment_context>\n  <cwd>{cwd}</cwd>\n</environment_context>")}]}}));
    let (mut tin, mut tcached, mut tout, mut treason) = (0u64, 0u64, 0u64, 0u64);
    for _ in 0..c.rng.range(c.spec.turns) {
        let n = 5 + c.rng.below(30) as usize;
        let prompt = sentence(&mut c.rng, n);
        let ts = c.tick(60_000);
        lines.push(json!({"timestamp": ts, "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": prompt}]}}));
        lines.push(json!({"timestamp": ts, "type": "event_msg", "payload": {"type": "user_message", "message": prompt, "images": []}}));
        lines.push(json!({"timestamp": ts, "type": "turn_context", "payload": {"cwd": cwd, "model": "gpt-5.1-codex-max", "approval_policy": "on-request"}}));
        for _ in 0..c.rng.range(c.spec.steps) {
            let nr = 5 + c.rng.below(40) as usize;
            let summary = sentence(&mut c.rng, nr);
            let ts = c.tick(8_000);
            lines.push(json!({"timestamp": ts, "type": "event_msg", "payload": {"type": "agent_reasoning", "text": summary}}));
            lines.push(json!({"timestamp": ts, "type": "response_item", "payload": {"type": "reasoning", "summary": [{"type": "summary_text", "text": summary}], "content": null, "encrypted_content": "gAAAAB"}}));
            let call_id = format!("call_{:016x}", c.rng.next());
            let nc = 3 + c.rng.below(8) as usize;
            let cmd = sentence(&mut c.rng, nc);
            let ts = c.tick(3_000);
            lines.push(json!({"timestamp": ts, "type": "response_item", "payload": {"type": "function_call", "name": "shell_command", "arguments": json!({"command": format!("sed -n 1,80p {} # {cmd}", file_of(&cmd, nc)), "workdir": cwd}).to_string(), "call_id": call_id}}));
            let (i, ca, o, r) = (
                3000 + c.rng.below(20_000),
                2048 + c.rng.below(900),
                20 + c.rng.below(600),
                c.rng.below(20),
            );
            let (i, ca, o, r) = (i, ca.min(i), o + r, r);
            tin += i;
            tcached += ca;
            tout += o;
            treason += r;
            let usage = |a: u64, b: u64, c2: u64, d: u64| json!({"input_tokens": a, "cached_input_tokens": b, "output_tokens": c2, "reasoning_output_tokens": d, "total_tokens": a + c2});
            lines.push(json!({"timestamp": ts, "type": "event_msg", "payload": {"type": "token_count", "info": {"total_token_usage": usage(tin, tcached, tout, treason), "last_token_usage": usage(i, ca, o, r)}}}));
            let output = tool_output(&mut c.rng, c.spec.max_tool_output);
            let code = if c.rng.below(8) == 0 { 1 } else { 0 };
            let ts = c.tick(20_000);
            lines.push(json!({"timestamp": ts, "type": "response_item", "payload": {"type": "function_call_output", "call_id": call_id, "output": format!("Exit code: {code}\nWall time: 0.1 seconds\nOutput:\n{output}")}}));
            lines.push(json!({"timestamp": ts, "type": "event_msg", "payload": {"type": "token_count", "info": {"total_token_usage": usage(tin, tcached, tout, treason), "last_token_usage": usage(i, ca, o, r)}}}));
        }
        let nm = 5 + c.rng.below(40) as usize;
        let msg = sentence(&mut c.rng, nm);
        let ts = c.tick(5_000);
        lines.push(json!({"timestamp": ts, "type": "event_msg", "payload": {"type": "agent_message", "message": msg}}));
        lines.push(json!({"timestamp": ts, "type": "response_item", "payload": {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": msg}]}}));
    }
    let date = chrono::DateTime::from_timestamp_millis(start).unwrap_or_default();
    let dir = out
        .join("codex/sessions")
        .join(date.format("%Y/%m/%d").to_string());
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let path = dir.join(format!(
        "rollout-{}-{id}.jsonl",
        date.format("%Y-%m-%dT%H-%M-%S")
    ));
    let bytes = write_lines(&path, &lines)?;
    Ok((path, bytes))
}

fn gemini(c: &mut Ctx, out: &Path, cwd: &str) -> Result<(PathBuf, u64)> {
    let id = c.rng.uuid();
    let start = iso(c.t);
    let mut messages = Vec::new();
    for _ in 0..c.rng.range(c.spec.turns) {
        let n = 5 + c.rng.below(30) as usize;
        let prompt = sentence(&mut c.rng, n);
        let ts = c.tick(60_000);
        messages
            .push(json!({"id": c.rng.uuid(), "timestamp": ts, "type": "user", "content": prompt}));
        for _ in 0..c.rng.range(c.spec.steps) {
            let ns = 3 + c.rng.below(5) as usize;
            let subject = sentence(&mut c.rng, ns);
            let nd = 10 + c.rng.below(50) as usize;
            let description = sentence(&mut c.rng, nd);
            let nx = 5 + c.rng.below(40) as usize;
            let content = sentence(&mut c.rng, nx);
            let call_id = format!("run_shell_command-{}", c.rng.next());
            let nc = 3 + c.rng.below(8) as usize;
            let cmd = sentence(&mut c.rng, nc);
            let output = tool_output(&mut c.rng, c.spec.max_tool_output);
            let status = if c.rng.below(10) == 0 {
                "error"
            } else {
                "success"
            };
            let (input, cached, o, th) = (
                5000 + c.rng.below(20_000),
                4000 + c.rng.below(1000),
                10 + c.rng.below(300),
                c.rng.below(200),
            );
            let ts = c.tick(10_000);
            let ts2 = c.tick(20_000);
            messages.push(json!({"id": c.rng.uuid(), "timestamp": ts, "type": "gemini", "content": content, "model": "gemini-2.5-flash",
                "thoughts": [{"subject": subject, "description": description, "timestamp": ts}],
                "toolCalls": [{"id": call_id, "name": "run_shell_command", "args": {"command": format!("head -n 40 {} # {cmd}", file_of(&cmd, nc))},
                    "result": [{"functionResponse": {"id": call_id, "name": "run_shell_command", "response": {"output": output}}}],
                    "status": status, "timestamp": ts2}],
                "tokens": {"input": input, "output": o, "cached": cached.min(input), "thoughts": th, "tool": 0, "total": input + o + th}}));
        }
    }
    let hash = project_hash(cwd);
    let doc = json!({"sessionId": id, "projectHash": hash, "startTime": start, "lastUpdated": iso(c.t), "messages": messages});
    let dir = out.join("gemini/tmp").join(&hash).join("chats");
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let path = dir.join(format!(
        "session-{}-{}.json",
        &start[..16].replace(':', "-"),
        &id[..8]
    ));
    let f = std::fs::File::create(&path).map_err(|e| Error::io(&path, e))?;
    let mut w = BufWriter::new(f);
    serde_json::to_writer(&mut w, &doc).map_err(|e| Error::io(&path, e.into()))?;
    w.flush().map_err(|e| Error::io(&path, e))?;
    let bytes = std::fs::metadata(&path)
        .map_err(|e| Error::io(&path, e))?
        .len();
    Ok((path, bytes))
}

/// Writes one session of a provider: its file and size.
type Generator = fn(&mut Ctx, &Path, &str) -> Result<(PathBuf, u64)>;

/// The providers the corpus has sessions of, in turn (a provider without a generator is
/// simply not in the corpus).
const GENERATORS: &[(Provider, Generator)] = &[
    (Provider::ClaudeCode, claude),
    (Provider::Codex, codex),
    (Provider::Gemini, gemini),
];

/// Writes `spec.sessions` sessions under `out_dir` as `claude/projects/...`,
/// `codex/sessions/...` and `gemini/tmp/...` (use [`crate::config::Config::for_tree`] to index them).
pub fn generate(spec: &CorpusSpec, out_dir: &Path) -> Result<CorpusStats> {
    let mut stats = CorpusStats::default();
    let roots: Vec<String> = (0..spec.projects.max(1))
        .map(|i| format!("/home/dev/src/project-{i:02}"))
        .collect();
    for i in 0..spec.sessions {
        // One RNG per session: a session's content does not depend on how many came before.
        let mut rng = Rng(spec.seed ^ (i as u64).wrapping_mul(0xA076_1D64_78BD_642F));
        let cwd = roots[rng.below(roots.len() as u64) as usize].clone();
        let t = 1_735_689_600_000 + (i as i64) * 3_600_000 + rng.below(1_800_000) as i64;
        let mut c = Ctx { rng, spec, t };
        let (provider, write) = GENERATORS[i % GENERATORS.len()];
        let (path, bytes) = write(&mut c, out_dir, &cwd)?;
        stats.files += 1;
        stats.bytes += bytes;
        stats.sessions[provider.code() as usize] += 1;
        stats.paths.push(path);
    }
    Ok(stats)
}
