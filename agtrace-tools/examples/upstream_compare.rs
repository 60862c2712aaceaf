//! Side-by-side latency of this agtrace and upstream agtrace (lanegrid/agtrace) over MCP stdio,
//! on the same log tree: spawn to `initialize` and `tools/list` answers (cold and warm data
//! dir), then every upstream tool that has an agtrace equivalent, all pages of the same
//! content, as the first call of a fresh server and warm (after the first call).
//!
//! Driven by `scripts/bench/upstream-compare.sh`, which builds both, generates the corpus and
//! indexes it for both; run alone:
//!
//!     cargo run --release -p agtrace-tools --example upstream_compare -- \
//!         --agtrace BIN --upstream BIN --corpus DIR --agtrace-data DIR --upstream-data DIR \
//!         [--runs 5] [--calls 30] [--cold-runs 3]
//!
//! The corpus dir holds `.claude/projects`, `.codex/sessions` and `.gemini/tmp` (upstream
//! recognises a provider by those names in a path). Times are client-side: from writing a
//! request line to reading its answer line; parsing answers is not counted.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, PartialEq)]
enum Side {
    Agtrace,
    Upstream,
}

struct Opts {
    agtrace: PathBuf,
    upstream: PathBuf,
    corpus: PathBuf,
    agtrace_data: PathBuf,
    upstream_data: PathBuf,
    runs: usize,
    calls: usize,
    cold_runs: usize,
}

impl Opts {
    fn parse() -> Opts {
        let all: Vec<String> = std::env::args().collect();
        let get = |name: &str| -> Option<String> {
            all.iter()
                .position(|a| a == name)
                .and_then(|i| all.get(i + 1).cloned())
        };
        let path = |v: Option<String>, name: &str| {
            PathBuf::from(v.unwrap_or_else(|| panic!("{name} is required")))
        };
        let num = |v: Option<String>, default| v.map_or(default, |v| v.parse().expect("a number"));
        Opts {
            agtrace: path(get("--agtrace"), "--agtrace"),
            upstream: path(get("--upstream"), "--upstream"),
            corpus: path(get("--corpus"), "--corpus"),
            agtrace_data: path(get("--agtrace-data"), "--agtrace-data"),
            upstream_data: path(get("--upstream-data"), "--upstream-data"),
            runs: num(get("--runs"), 5),
            calls: num(get("--calls"), 30),
            cold_runs: num(get("--cold-runs"), 3),
        }
    }

    fn command(&self, side: Side, data: &Path) -> Command {
        let mut c;
        match side {
            Side::Agtrace => {
                c = Command::new(&self.agtrace);
                c.arg(format!(
                    "--claude-dir={}",
                    self.corpus.join(".claude/projects").display()
                ))
                .arg(format!(
                    "--codex-dir={}",
                    self.corpus.join(".codex/sessions").display()
                ))
                .arg(format!(
                    "--gemini-dir={}",
                    self.corpus.join(".gemini/tmp").display()
                ))
                .arg(format!("--data-dir={}", data.display()))
                .arg("serve");
            }
            Side::Upstream => {
                c = Command::new(&self.upstream);
                // Its config (log roots) is in the data dir; HOME only keeps it from finding
                // the real logs of this machine when it writes a default config.
                c.env("HOME", data)
                    .arg(format!("--data-dir={}", data.display()))
                    .args(["mcp", "serve"]);
            }
        }
        c.env_remove("RUST_LOG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        c
    }

    /// A data dir as a first start finds it: empty, except upstream's config (it has no flags
    /// for log roots).
    fn cold_data(&self, side: Side, n: usize) -> PathBuf {
        let base = match side {
            Side::Agtrace => &self.agtrace_data,
            Side::Upstream => &self.upstream_data,
        };
        let dir = base.with_file_name(format!(
            "{}-cold-{n}",
            base.file_name().unwrap().to_string_lossy()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        if side == Side::Upstream {
            std::fs::copy(base.join("config.toml"), dir.join("config.toml")).unwrap();
        }
        dir
    }
}

struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
    side: Side,
}

/// One answer: how long it took, its size, and its result.
struct Answer {
    took: Duration,
    at: Instant,
    bytes: usize,
    result: Value,
}

impl Server {
    fn spawn(opts: &Opts, side: Side, data: &Path) -> Server {
        let mut child = opts.command(side, data).spawn().expect("server starts");
        Server {
            stdin: child.stdin.take().unwrap(),
            stdout: BufReader::new(child.stdout.take().unwrap()),
            child,
            next_id: 1,
            side,
        }
    }

    fn send(&mut self, message: &Value) {
        let mut line = serde_json::to_vec(message).unwrap();
        line.push(b'\n');
        self.stdin.write_all(&line).unwrap();
        self.stdin.flush().unwrap();
    }

    /// Sends a request and waits for the answer with its id (other lines, such as upstream's
    /// answers to notifications, are skipped).
    fn request(&mut self, method: &str, params: Value) -> Answer {
        self.try_request(method, params)
            .unwrap_or_else(|e| panic!("{method} failed: {e}"))
    }

    /// [`Server::request`], with a JSON-RPC error as `Err`.
    fn try_request(&mut self, method: &str, params: Value) -> Result<Answer, Value> {
        let id = self.next_id;
        self.next_id += 1;
        let start = Instant::now();
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let mut line = String::new();
        loop {
            line.clear();
            let n = self.stdout.read_line(&mut line).unwrap();
            assert!(n > 0, "the server closed its output during {method}");
            let at = Instant::now();
            let took = at - start;
            let message: Value = serde_json::from_str(&line).expect("a JSON-RPC line");
            if message["id"] == json!(id) {
                if let Some(e) = message.get("error") {
                    return Err(e.clone());
                }
                return Ok(Answer {
                    took,
                    at,
                    bytes: line.len(),
                    result: message["result"].clone(),
                });
            }
        }
    }

    /// `initialize`, `notifications/initialized`, `tools/list`; when each answer arrived.
    fn handshake(&mut self) -> (Instant, Instant) {
        let init = self.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "upstream-compare", "version": "1"}}),
        );
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        let init_at = init.at;
        let list = self.request("tools/list", json!({}));
        (init_at, list.at)
    }

    /// A tool call; the tool's own answer (agtrace's envelope, upstream's JSON text).
    fn call(&mut self, tool: &str, args: &Value) -> (Answer, Value) {
        let answer = self.request("tools/call", json!({"name": tool, "arguments": args}));
        let r = &answer.result;
        assert!(
            r["isError"] != json!(true),
            "{tool} {args} failed: {}",
            r["content"][0]["text"]
        );
        let body = match r.get("structuredContent") {
            Some(v) => v.clone(),
            None => serde_json::from_str(r["content"][0]["text"].as_str().unwrap_or("null"))
                .unwrap_or(Value::Null),
        };
        if self.side == Side::Agtrace {
            assert_eq!(body["status"], "ok", "{tool} {args}: {body}");
        }
        (answer, body)
    }

    /// Every page of one tool's answer, following its cursor: total time, pages, bytes.
    fn all_pages(&mut self, tool: &str, args: &Value) -> (Duration, usize, usize, Vec<Value>) {
        self.pages(tool, args, usize::MAX)
    }

    /// The first `most` pages (or all, if fewer), following the cursors.
    fn pages(
        &mut self,
        tool: &str,
        args: &Value,
        most: usize,
    ) -> (Duration, usize, usize, Vec<Value>) {
        let (mut took, mut pages, mut bytes, mut bodies) = (Duration::ZERO, 0, 0, Vec::new());
        let mut args = args.clone();
        loop {
            let (answer, body) = self.call(tool, &args);
            took += answer.took;
            pages += 1;
            bytes += answer.bytes;
            let next = match self.side {
                Side::Agtrace => body["pagination"]["next_cursor"]
                    .as_str()
                    .map(str::to_owned),
                Side::Upstream => body["next_cursor"].as_str().map(str::to_owned),
            };
            bodies.push(body);
            match next {
                Some(c) if pages < most => args["cursor"] = json!(c),
                _ => return (took, pages, bytes, bodies),
            }
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// p50 and p99 (nearest rank) in milliseconds.
fn percentiles(mut times: Vec<Duration>) -> (f64, f64) {
    times.sort();
    let at = |q: f64| ms(times[((times.len() as f64 - 1.0) * q).round() as usize]);
    (at(0.5), at(0.99))
}

/// The log files of the corpus, largest first, with the session id written in each.
fn largest_sessions(corpus: &Path, n: usize) -> Vec<(String, u64)> {
    let mut files: Vec<(PathBuf, u64)> = Vec::new();
    let mut stack = vec![corpus.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let meta = entry.metadata().unwrap();
            if meta.is_dir() {
                stack.push(entry.path());
            } else if !entry.file_name().to_string_lossy().starts_with('.') {
                files.push((entry.path(), meta.len()));
            }
        }
    }
    files.sort_by_key(|f| std::cmp::Reverse(f.1));
    files.truncate(n);
    files
        .into_iter()
        .map(|(path, len)| (session_id(&path), len))
        .collect()
}

fn session_id(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let first: Value = if path.extension().is_some_and(|e| e == "json") {
        serde_json::from_str(&text).unwrap()
    } else {
        serde_json::from_str(text.lines().next().unwrap()).unwrap()
    };
    let id = first["sessionId"]
        .as_str()
        .or(first["payload"]["id"].as_str())
        .unwrap_or_else(|| panic!("no session id in {}", path.display()));
    id.to_owned()
}

/// One comparison: the same content asked of both servers.
struct Case {
    label: String,
    /// Pages fetched per call: 1 for a "first page" row, else all of them.
    pages: usize,
    agtrace: (&'static str, Value),
    upstream: (&'static str, Value),
}

struct Row {
    label: String,
    first: [(f64, f64); 2],
    /// Agtrace's first call on the session once its startup refresh is done (a cheap
    /// `list_sessions` call first waits for it): the cost of loading the session alone.
    first_fresh: (f64, f64),
    warm: [(f64, f64); 2],
    pages: [usize; 2],
    bytes: [usize; 2],
}

fn measure(opts: &Opts, case: &Case) -> Row {
    let mut row = Row {
        label: case.label.clone(),
        first: [(0.0, 0.0); 2],
        first_fresh: (0.0, 0.0),
        warm: [(0.0, 0.0); 2],
        pages: [0; 2],
        bytes: [0; 2],
    };
    for (i, side) in [Side::Agtrace, Side::Upstream].into_iter().enumerate() {
        let (data, (tool, args)) = match side {
            Side::Agtrace => (&opts.agtrace_data, &case.agtrace),
            Side::Upstream => (&opts.upstream_data, &case.upstream),
        };
        let mut firsts = Vec::new();
        for _ in 0..opts.runs {
            let mut server = Server::spawn(opts, side, data);
            server.handshake();
            firsts.push(server.pages(tool, args, case.pages).0);
        }
        if side == Side::Agtrace {
            let fresh = (0..opts.runs)
                .map(|_| {
                    let mut server = Server::spawn(opts, side, data);
                    server.handshake();
                    server.call("list_sessions", &json!({"limit": 1}));
                    server.pages(tool, args, case.pages).0
                })
                .collect();
            row.first_fresh = percentiles(fresh);
        }
        let mut server = Server::spawn(opts, side, data);
        server.handshake();
        let (_, pages, bytes, _) = server.pages(tool, args, case.pages);
        let warm: Vec<Duration> = (0..opts.calls)
            .map(|_| server.pages(tool, args, case.pages).0)
            .collect();
        row.first[i] = percentiles(firsts);
        row.warm[i] = percentiles(warm);
        row.pages[i] = pages;
        row.bytes[i] = bytes;
    }
    row
}

fn ratio(upstream: f64, agtrace: f64) -> String {
    format!("{:.1}×", upstream / agtrace.max(1e-6))
}

fn main() {
    let opts = Opts::parse();
    // The largest session both can read (upstream fails to assemble some generated sessions).
    let mut probe = Server::spawn(&opts, Side::Upstream, &opts.upstream_data);
    probe.handshake();
    let (session, session_bytes) = largest_sessions(&opts.corpus, 50)
        .into_iter()
        .find(|(id, _)| {
            let args = json!({"name": "list_turns", "arguments": {"session_id": id}});
            probe.try_request("tools/call", args).is_ok()
        })
        .expect("a session upstream can read among the 50 largest");
    drop(probe);

    // Which turn to show step by step: the one with the most steps, as agtrace lists them.
    let mut probe = Server::spawn(&opts, Side::Agtrace, &opts.agtrace_data);
    probe.handshake();
    let (_, _, _, pages) = probe.all_pages(
        "get_session_turns",
        &json!({"session_id": session, "limit": 50}),
    );
    let turns: Vec<Value> = pages
        .iter()
        .flat_map(|p| p["data"].as_array().cloned().unwrap_or_default())
        .collect();
    let turn = turns
        .iter()
        .max_by_key(|t| t["steps"].as_u64())
        .expect("the session has turns");
    let turn_index = turn["turn_index"].as_u64().unwrap();
    drop(probe);
    let mut probe = Server::spawn(&opts, Side::Upstream, &opts.upstream_data);
    probe.handshake();
    let (_, _, _, up) = probe.all_pages("list_turns", &json!({"session_id": session}));
    let up_turns = up[0]["total_turns"].as_u64().unwrap_or(0);
    let up_steps = up
        .iter()
        .flat_map(|p| p["turns"].as_array().cloned().unwrap_or_default())
        .find(|t| t["turn_index"].as_u64() == Some(turn_index))
        .map_or(0, |t| t["step_count"].as_u64().unwrap_or(0));
    drop(probe);
    println!(
        "largest session: {session}, {:.2} MB; turns: agtrace {}, upstream {up_turns}; \
         turn {turn_index}: agtrace {} steps, upstream {up_steps}",
        session_bytes as f64 / 1e6,
        turns.len(),
        turn["steps"],
    );

    // Spawn to the handshake's answers, cold (empty data dir) and warm (indexed).
    println!(
        "\n| start | agtrace p50 / p99 ms | upstream p50 / p99 ms | upstream / agtrace (p50) |\n| --- | ---: | ---: | ---: |"
    );
    for cold in [true, false] {
        if (cold && opts.cold_runs == 0) || (!cold && opts.runs == 0) {
            continue;
        }
        let runs = if cold { opts.cold_runs } else { opts.runs };
        let mut init = [Vec::new(), Vec::new()];
        let mut list = [Vec::new(), Vec::new()];
        let mut first_call = [Vec::new(), Vec::new()];
        for n in 0..runs {
            for (i, side) in [Side::Agtrace, Side::Upstream].into_iter().enumerate() {
                let data = match (cold, side) {
                    (true, side) => opts.cold_data(side, n),
                    (false, Side::Agtrace) => opts.agtrace_data.clone(),
                    (false, Side::Upstream) => opts.upstream_data.clone(),
                };
                let start = Instant::now();
                let mut server = Server::spawn(&opts, side, &data);
                let (init_at, list_at) = server.handshake();
                init[i].push(init_at - start);
                list[i].push(list_at - start);
                if !cold {
                    server.call("list_sessions", &json!({"limit": 20}));
                    first_call[i].push(start.elapsed());
                }
                drop(server);
                if cold {
                    let _ = std::fs::remove_dir_all(&data);
                }
            }
        }
        let kind = if cold {
            "cold data dir"
        } else {
            "warm data dir"
        };
        let mut rows = vec![
            (format!("spawn → `initialize` answer, {kind}"), init),
            (format!("spawn → `tools/list` answer, {kind}"), list),
        ];
        if !cold {
            rows.push((
                "spawn → first `list_sessions` answer, warm data dir".to_owned(),
                first_call,
            ));
        }
        for (label, [a, u]) in rows {
            let (a, u) = (percentiles(a), percentiles(u));
            println!(
                "| {label} | {:.1} / {:.1} | {:.1} / {:.1} | {} |",
                a.0,
                a.1,
                u.0,
                u.1,
                ratio(u.0, a.0)
            );
        }
    }

    let cases = [
        Case {
            label: "`list_sessions` first page (20)".into(),
            pages: 1,
            agtrace: ("list_sessions", json!({"limit": 20})),
            upstream: ("list_sessions", json!({"limit": 20})),
        },
        Case {
            label: "`get_project_info`".into(),
            pages: usize::MAX,
            agtrace: ("get_project_info", json!({})),
            upstream: ("get_project_info", json!({})),
        },
        Case {
            label: "`search_event_previews` / `search_events` `error`, first page (20)".into(),
            pages: 1,
            agtrace: (
                "search_event_previews",
                json!({"query": "error", "limit": 20}),
            ),
            upstream: ("search_events", json!({"query": "error", "limit": 20})),
        },
        Case {
            label: "`analyze_session`, largest session".into(),
            pages: usize::MAX,
            agtrace: ("analyze_session", json!({"session_id": session})),
            upstream: ("analyze_session", json!({"session_id": session})),
        },
        Case {
            label: "`get_session_turns` / `list_turns`, largest session, all pages".into(),
            pages: usize::MAX,
            agtrace: (
                "get_session_turns",
                json!({"session_id": session, "limit": 50}),
            ),
            upstream: ("list_turns", json!({"session_id": session, "limit": 100})),
        },
        Case {
            label: format!(
                "`get_turn_steps` / `get_turns`, largest session, turn {turn_index}, all pages"
            ),
            pages: usize::MAX,
            agtrace: (
                "get_turn_steps",
                json!({"session_id": session, "turn_index": turn_index, "limit": 50}),
            ),
            upstream: (
                "get_turns",
                json!({"session_id": session, "turn_indices": [turn_index]}),
            ),
        },
    ];
    println!(
        "\n| tool, content | warm: agtrace p50 / p99 ms | warm: upstream p50 / p99 ms | warm ratio (p50) | first call: agtrace p50 / p99 ms | first call: upstream p50 / p99 ms | first-call ratio (p50) | pages (agtrace / upstream) | bytes (agtrace / upstream) |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    );
    // `--only TEXT`: just the rows whose label holds TEXT (upstream's index-wide tools take
    // seconds a call on a large corpus).
    let only = std::env::args()
        .skip_while(|a| a != "--only")
        .nth(1)
        .unwrap_or_default();
    let mut fresh_rows = Vec::new();
    for case in cases.iter().filter(|c| c.label.contains(&only)) {
        let r = measure(&opts, case);
        fresh_rows.push((r.label.clone(), r.first_fresh, r.first[1]));
        println!(
            "| {} | {:.2} / {:.2} | {:.2} / {:.2} | {} | {:.2} / {:.2} | {:.2} / {:.2} | {} | {} / {} | {} / {} |",
            r.label,
            r.warm[0].0,
            r.warm[0].1,
            r.warm[1].0,
            r.warm[1].1,
            ratio(r.warm[1].0, r.warm[0].0),
            r.first[0].0,
            r.first[0].1,
            r.first[1].0,
            r.first[1].1,
            ratio(r.first[1].0, r.first[0].0),
            r.pages[0],
            r.pages[1],
            r.bytes[0],
            r.bytes[1],
        );
    }
    println!(
        "\n{} first-call runs (a fresh server each) and {} warm calls per row; all times in ms.",
        opts.runs, opts.calls
    );
    // A fresh agtrace server refreshes its index first (a stat of every log), and a call that
    // arrives meanwhile waits for it; upstream never indexes while serving.
    println!(
        "\n| tool, content | first call once the startup refresh is done: agtrace p50 / p99 ms | first call: upstream p50 / p99 ms | ratio (p50) |\n| --- | ---: | ---: | ---: |"
    );
    for (label, a, u) in fresh_rows {
        println!(
            "| {label} | {:.2} / {:.2} | {:.2} / {:.2} | {} |",
            a.0,
            a.1,
            u.0,
            u.1,
            ratio(u.0, a.0)
        );
    }
}
