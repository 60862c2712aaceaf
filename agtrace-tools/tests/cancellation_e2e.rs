//! The real `agtrace serve` over stdio, on a session log large enough that parsing it takes
//! seconds: a cancelled call stops burning CPU and the server answers the next call; a call in
//! flight when stdin closes is answered, then the server exits; a server whose client hangs
//! up (closes stdout too) with a call in flight exits within a second.
//!
//! CPU is read from `/proc/PID/stat`, so these run on Linux only.
#![cfg(target_os = "linux")]

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

const SESSION: &str = "11111111-2222-3333-4444-555555555555";
/// Copies of the bundled Claude session in the one large log: about 60 MB, seconds of CPU to
/// parse in a debug build.
const COPIES: usize = 2600;

/// Three log roots (only Claude's has a file) and a data dir, in a temp dir.
struct Tree {
    dir: tempfile::TempDir,
}

impl Tree {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join(
            "samples/claude/projects/-Users-test_user-agent-sample/7f2abd2d-7cfc-4447-9ddd-3ca8d14e02e9.jsonl",
        );
        let sample = std::fs::read(sample).unwrap();
        let project = dir.path().join("claude/-tmp-big");
        std::fs::create_dir_all(&project).unwrap();
        let mut log = std::io::BufWriter::new(
            std::fs::File::create(project.join(format!("{SESSION}.jsonl"))).unwrap(),
        );
        for _ in 0..COPIES {
            log.write_all(&sample).unwrap();
        }
        log.flush().unwrap();
        for root in ["codex", "gemini"] {
            std::fs::create_dir_all(dir.path().join(root)).unwrap();
        }
        Tree { dir }
    }

    /// `agtrace serve` with no session cache (each call parses the log again) and no
    /// background re-index, initialized; its stdout a pipe.
    fn serve(&self) -> Server {
        self.serve_to(None)
    }

    /// [`serve`](Self::serve), its stdout a Unix socket (as Node makes them), whose end here
    /// the test can shut down while a thread reads it: a client hanging up.
    fn serve_to_socket(&self) -> Server {
        let (ours, theirs) = UnixStream::pair().unwrap();
        self.serve_to(Some((ours, theirs)))
    }

    fn serve_to(&self, socket: Option<(UnixStream, UnixStream)>) -> Server {
        let d = self.dir.path();
        let mut command = Command::new(env!("CARGO_BIN_EXE_agtrace"));
        command
            .arg(format!("--claude-dir={}", d.join("claude").display()))
            .arg(format!("--codex-dir={}", d.join("codex").display()))
            .arg(format!("--gemini-dir={}", d.join("gemini").display()))
            .arg(format!("--data-dir={}", d.join("data").display()))
            .args(["--session-cache-mb=0", "serve", "--refresh-secs=0"])
            .stdin(Stdio::piped())
            .stderr(Stdio::null());
        let hang_up = socket.map(|(ours, theirs)| {
            command.stdout(std::os::fd::OwnedFd::from(theirs));
            ours
        });
        if hang_up.is_none() {
            command.stdout(Stdio::piped());
        }
        let mut child = command.spawn().unwrap();
        let output: Box<dyn Read + Send> = match (child.stdout.take(), &hang_up) {
            (Some(pipe), _) => Box::new(pipe),
            (None, Some(socket)) => Box::new(socket.try_clone().unwrap()),
            (None, None) => unreachable!("stdout is a pipe or a socket"),
        };
        let stdout = BufReader::new(output);
        let (tx, messages) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines() {
                let Ok(line) = line else { break };
                if tx
                    .send(serde_json::from_str::<Value>(&line).unwrap())
                    .is_err()
                {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        let mut server = Server {
            child,
            stdin,
            hang_up,
            messages,
        };
        server.send(
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "cancellation-e2e", "version": "1"}}}),
        );
        server.answer(0, Duration::from_secs(10));
        server.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        // The index is built in the background; the first call waits for it, so that the
        // CPU the tests measure is the calls' own.
        server.call(99, "list_sessions", json!({}));
        server.answer(99, Duration::from_secs(120));
        server
    }
}

struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    /// This side of a socket stdout ([`Tree::serve_to_socket`]).
    hang_up: Option<UnixStream>,
    messages: Receiver<Value>,
}

impl Server {
    fn send(&mut self, message: Value) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    }

    fn call(&mut self, id: u32, tool: &str, arguments: Value) {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments}}));
    }

    /// The answer to request `id`, and the ids of the answers that came before it.
    fn answer(&mut self, id: u32, within: Duration) -> (Value, Vec<Value>) {
        let deadline = Instant::now() + within;
        let mut others = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.messages.recv_timeout(left) {
                Ok(m) if m.get("id") == Some(&json!(id)) => return (m, others),
                Ok(m) => others.extend(m.get("id").cloned()),
                Err(RecvTimeoutError::Timeout) => panic!("no answer to {id} within {within:?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("the server hung up"),
            }
        }
    }

    /// CPU time (user + system) the server has used so far.
    fn cpu(&self) -> Duration {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap();
        // Fields after the command name, which is in parentheses and may hold spaces.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .unwrap()
            .1
            .split_whitespace()
            .collect();
        let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
        // USER_HZ is 100 on every Linux ABI in use.
        Duration::from_millis(ticks * 10)
    }

    /// Waits until the server exits, at most `within` after `since`: its status and when.
    fn exit(&mut self, since: Instant, within: Duration) -> (std::process::ExitStatus, Instant) {
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return (status, Instant::now());
            }
            assert!(
                since.elapsed() < within,
                "the server still runs {within:?} later"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Waits until the server has burnt `amount` of CPU beyond `from`: the call is at work.
    fn busy_for(&self, from: Duration, amount: Duration) {
        let t = Instant::now();
        while self.cpu() < from + amount {
            assert!(
                t.elapsed() < Duration::from_secs(60),
                "the call never got to work"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn a_cancelled_call_stops_its_work_and_the_server_answers_the_next_call() {
    let tree = Tree::new();
    let mut server = tree.serve();
    let idle = server.cpu();
    server.call(1, "get_session_summary", json!({"session_id": SESSION}));
    server.busy_for(idle, Duration::from_millis(300));
    server.send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 1, "reason": "the user gave up"}}),
    );

    // A moment for the work to notice, then a window in which an uncancelled parse would
    // have used most of a core.
    std::thread::sleep(Duration::from_millis(300));
    let before = server.cpu();
    std::thread::sleep(Duration::from_secs(2));
    let used = server.cpu() - before;
    assert!(
        used < Duration::from_millis(300),
        "the server used {used:?} of CPU in the 2 s after the call was cancelled"
    );

    server.call(2, "list_sessions", json!({}));
    let (answer, before_it) = server.answer(2, Duration::from_secs(10));
    assert_eq!(
        answer["result"]["structuredContent"]["data"][0]["session_id"],
        SESSION
    );
    assert!(
        !before_it.contains(&json!(1)),
        "a cancelled call is not answered: {before_it:?}"
    );
}

/// A client that sent its last request and closed stdin still reads the answers: the call
/// in flight is answered with its data, then the server exits.
#[test]
fn a_call_in_flight_when_stdin_closes_is_answered_then_the_server_exits() {
    let tree = Tree::new();
    let mut server = tree.serve();
    let idle = server.cpu();
    server.call(1, "get_session_summary", json!({"session_id": SESSION}));
    server.busy_for(idle, Duration::from_millis(300));

    drop(server.stdin.take());
    let (answer, _) = server.answer(1, Duration::from_secs(120));
    let answered_at = Instant::now();
    let envelope = &answer["result"]["structuredContent"];
    assert_eq!(envelope["status"], "ok", "{answer}");
    assert_eq!(envelope["data"]["session_id"], SESSION, "{answer}");
    let (status, exited_at) = server.exit(answered_at, Duration::from_secs(30));
    assert!(status.success(), "{status}");
    let took = exited_at - answered_at;
    assert!(
        took < Duration::from_secs(1),
        "the server exited {took:?} after its last answer"
    );
}

/// A client that exits closes stdin and its end of stdout: nobody will read the answer, so the
/// call stops and the server exits at once.
#[test]
fn the_server_exits_within_a_second_of_its_client_hanging_up_with_a_call_in_flight() {
    let tree = Tree::new();
    let mut server = tree.serve_to_socket();
    let idle = server.cpu();
    server.call(1, "get_session_summary", json!({"session_id": SESSION}));
    server.busy_for(idle, Duration::from_millis(300));

    let closed_at = Instant::now();
    drop(server.stdin.take());
    let socket = server.hang_up.take().unwrap();
    socket.shutdown(std::net::Shutdown::Both).unwrap();
    drop(socket);
    let (status, exited_at) = server.exit(closed_at, Duration::from_secs(30));
    assert!(status.success(), "{status}");
    let took = exited_at - closed_at;
    assert!(
        took < Duration::from_secs(1),
        "the server exited {took:?} after its client hung up"
    );
}
