//! The transport a session is served over, which decides when the session ends: once its
//! input has ended and every request read before that is answered, or at once when nobody
//! can read the answers any more.
//!
//! rmcp ends a session as soon as its input ends, then waits at most 5 s for the answers of
//! calls in flight and drops the rest. A client that pipes a batch of requests and closes its
//! input (`printf '...' | agtrace serve`) would lose every answer slower than that; so the end
//! of input is held back from rmcp until no request read is left unanswered. A client that
//! wants a call stopped says so with `notifications/cancelled`. A client that went away (a
//! write failed, or the caller's watch saw the output closed) ends the session at once,
//! cancelling its calls: their answers could reach nobody.

use rmcp::RoleServer;
use rmcp::model::{ClientNotification, ErrorData, JsonRpcMessage, RequestId};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::{IntoTransport, Transport};
use std::collections::HashSet;
use tokio_util::sync::CancellationToken;

/// A transport to be served by a [`Handler`](super::Handler), which ends the handler's session
/// (and with it the calls still in flight) when the session is over; see the module docs.
pub(crate) struct SessionTransport<T> {
    transport: T,
    session: CancellationToken,
}

impl<T> SessionTransport<T> {
    pub fn new(transport: T, session: CancellationToken) -> Self {
        Self { transport, session }
    }
}

impl<T, E, A> IntoTransport<RoleServer, E, A> for SessionTransport<T>
where
    T: IntoTransport<RoleServer, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    fn into_transport(self) -> impl Transport<RoleServer, Error = E> + 'static {
        EndsSession {
            inner: self.transport.into_transport(),
            session: self.session,
            input_ended: false,
            unanswered: HashSet::new(),
            asked: HashSet::new(),
        }
    }
}

/// The running transport of a [`SessionTransport`]. rmcp calls `receive` and `send` from one
/// task, never at once, so the bookkeeping needs no lock; `receive` futures are dropped
/// whenever another event wins rmcp's `select!`, so all state lives here, not in them.
struct EndsSession<T> {
    inner: T,
    session: CancellationToken,
    input_ended: bool,
    /// Requests read from the client and not answered yet.
    unanswered: HashSet<RequestId>,
    /// Requests sent to the client (sampling, elicitation) it has not answered yet.
    asked: HashSet<RequestId>,
}

impl<T> EndsSession<T> {
    fn note_received(&mut self, message: &RxJsonRpcMessage<RoleServer>) {
        match message {
            JsonRpcMessage::Request(request) => {
                self.unanswered.insert(request.id.clone());
            }
            JsonRpcMessage::Notification(notification) => {
                // rmcp drops the answer of a cancelled request: none is waited for.
                if let ClientNotification::CancelledNotification(cancelled) =
                    &notification.notification
                    && let Some(id) = &cancelled.params.request_id
                {
                    self.unanswered.remove(id);
                }
            }
            JsonRpcMessage::Response(response) => {
                self.asked.remove(&response.id);
            }
            JsonRpcMessage::Error(error) => {
                if let Some(id) = &error.id {
                    self.asked.remove(id);
                }
            }
        }
    }

    fn note_sent(&mut self, message: &TxJsonRpcMessage<RoleServer>) {
        match message {
            JsonRpcMessage::Response(response) => {
                self.unanswered.remove(&response.id);
            }
            JsonRpcMessage::Error(error) => {
                if let Some(id) = &error.id {
                    self.unanswered.remove(id);
                }
            }
            JsonRpcMessage::Request(request) => {
                self.asked.insert(request.id.clone());
            }
            JsonRpcMessage::Notification(_) => {}
        }
    }
}

impl<T: Transport<RoleServer>> Transport<RoleServer> for EndsSession<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.note_sent(&item);
        let sent = self.inner.send(item);
        let session = self.session.clone();
        async move {
            let outcome = sent.await;
            if outcome.is_err() {
                tracing::debug!("writing to the client failed: ending the session");
                session.cancel();
            }
            outcome
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        if !self.input_ended {
            let message = tokio::select! {
                message = self.inner.receive() => message,
                () = self.session.cancelled() => return None,
            };
            match message {
                Some(message) => {
                    self.note_received(&message);
                    return Some(message);
                }
                None => {
                    tracing::debug!(
                        unanswered = self.unanswered.len(),
                        "input ended: answering the requests read before the session ends"
                    );
                    self.input_ended = true;
                }
            }
        }
        // The client can no longer answer the server's questions: each fails, so that the
        // call that asked goes on (and ends) instead of waiting for ever.
        if let Some(id) = self.asked.iter().next().cloned() {
            self.asked.remove(&id);
            return Some(JsonRpcMessage::error(
                ErrorData::internal_error(
                    "The client's input ended before it answered this request.",
                    None,
                ),
                Some(id),
            ));
        }
        if !self.unanswered.is_empty() {
            // rmcp drops this future when an answer comes to be sent (`send` above) and asks
            // again: the end is reported once the last one has gone.
            self.session.cancelled().await;
        }
        None
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.session.cancel();
        self.inner.close()
    }
}

impl<T> Drop for EndsSession<T> {
    fn drop(&mut self) {
        self.session.cancel();
    }
}

#[cfg(test)]
mod tests {
    use crate::client_requests::SamplingRequest;
    use crate::registry::{BoxFuture, Invocation, ToolDef};
    use crate::server::{Handler, ToolServer};
    use crate::{Output, ToolError};
    use rmcp::ServiceExt;
    use serde_json::{Value, json};
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf};
    use tokio::io::{WriteHalf, split};
    use tokio::task::JoinHandle;

    /// A tool of these tests: `name`, calling `call`.
    macro_rules! tool {
        ($name:literal, $call:expr) => {
            ToolDef {
                name: $name,
                family: "session_test",
                title: None,
                description: "A tool for the session tests.",
                size_hint: 1024,
                read_only: true,
                destructive: false,
                idempotent: true,
                open_world: false,
                paginated: false,
                input_schema: || json!({"type": "object", "properties": {}}),
                output_schema: None,
                injected: &[],
                exceptions: Vec::new,
                call: $call,
                file: file!(),
                line: line!(),
            }
        };
    }

    /// Set by a test to let `finish_when_released` answer.
    static RELEASED: AtomicBool = AtomicBool::new(false);
    /// Whether `finish_when_released` is running, and whether it saw its call cancelled.
    static WAITING: AtomicBool = AtomicBool::new(false);
    static WAIT_CANCELLED: AtomicBool = AtomicBool::new(false);

    fn finish_when_released(inv: Invocation) -> BoxFuture<Result<Output, ToolError>> {
        let cancel = inv.context().cancel_token();
        Box::pin(async move {
            WAITING.store(true, Ordering::SeqCst);
            while !RELEASED.load(Ordering::SeqCst) {
                if cancel.is_cancelled() {
                    WAIT_CANCELLED.store(true, Ordering::SeqCst);
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            Output::value("released")
        })
    }

    /// When the blocking loop of `compute_until_cancelled` started and stopped.
    static SPIN: Mutex<(Option<Instant>, Option<Instant>)> = Mutex::new((None, None));

    fn spin_until_cancelled(inv: Invocation) -> BoxFuture<Result<Output, ToolError>> {
        let cancel = inv.context().cancel_token();
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                SPIN.lock().unwrap().0 = Some(Instant::now());
                let deadline = Instant::now() + Duration::from_secs(60);
                while !cancel.is_cancelled() && Instant::now() < deadline {
                    std::hint::spin_loop();
                }
                SPIN.lock().unwrap().1 = Some(Instant::now());
            })
            .await
            .map_err(|e| ToolError::internal(e.to_string()))?;
            Output::value("done")
        })
    }

    fn ask_the_model(inv: Invocation) -> BoxFuture<Result<Output, ToolError>> {
        Box::pin(async move {
            let answer = inv.context().sample(SamplingRequest::user("Well?")).await?;
            Output::value(answer.text())
        })
    }

    /// A session served over a duplex pipe, and the client's end of it, raw.
    struct Session {
        ended: JoinHandle<Instant>,
        lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
        write: WriteHalf<DuplexStream>,
    }

    impl Session {
        async fn start(tools: Vec<&'static ToolDef>, capabilities: Value) -> Self {
            Self::start_with_pipe(tools, capabilities, 1 << 16).await
        }

        /// [`start`](Self::start) over a pipe that holds `pipe_bytes` unread.
        async fn start_with_pipe(
            tools: Vec<&'static ToolDef>,
            capabilities: Value,
            pipe_bytes: usize,
        ) -> Self {
            let server = ToolServer::builder()
                .with_definitions(tools)
                .build()
                .unwrap();
            let (client_io, server_io) = tokio::io::duplex(pipe_bytes);
            let handler = Handler::new(server);
            let ended = tokio::spawn(async move {
                let running = handler
                    .clone()
                    .serve(handler.session_transport(server_io))
                    .await
                    .unwrap();
                running.waiting().await.unwrap();
                Instant::now()
            });
            let (read, write) = split(client_io);
            let mut session = Session {
                ended,
                lines: BufReader::new(read).lines(),
                write,
            };
            session
                .send(
                    json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                    "protocolVersion": "2025-06-18", "capabilities": capabilities,
                    "clientInfo": {"name": "raw", "version": "1"}}}),
                )
                .await;
            assert_eq!(session.next().await["id"], 0);
            session
                .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
                .await;
            session
        }

        async fn send(&mut self, message: Value) {
            self.write
                .write_all(format!("{message}\n").as_bytes())
                .await
                .unwrap();
        }

        async fn call(&mut self, id: u32, tool: &str) {
            self.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": {"name": tool, "arguments": {}}}))
                .await;
        }

        async fn next(&mut self) -> Value {
            let line = tokio::time::timeout(Duration::from_secs(10), self.lines.next_line())
                .await
                .expect("no message within 10 s")
                .unwrap()
                .expect("the server hung up");
            serde_json::from_str(&line).unwrap()
        }
    }

    async fn until(what: &str, done: impl Fn() -> bool) {
        let t = Instant::now();
        while !done() {
            assert!(
                t.elapsed() < Duration::from_secs(10),
                "{what} never happened"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    static SLOW_TOOL: ToolDef = tool!("finish_when_released", finish_when_released);
    static SPIN_TOOL: ToolDef = tool!("compute_until_cancelled", spin_until_cancelled);
    static SAMPLING_TOOL: ToolDef = tool!("ask_the_model", ask_the_model);

    /// rmcp alone answers what is in flight at the end of input for 5 s, then drops it: the
    /// call here outlasts that.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_call_in_flight_when_the_input_ends_is_answered_however_long_it_takes() {
        let mut session = Session::start(vec![&SLOW_TOOL], json!({})).await;
        session.call(1, "finish_when_released").await;
        until("the call's start", || WAITING.load(Ordering::SeqCst)).await;

        // The client has sent all it had: its end of the input closes, it keeps reading.
        session.write.shutdown().await.unwrap();
        tokio::time::sleep(Duration::from_millis(5500)).await;
        assert!(
            !session.ended.is_finished(),
            "the session ended with a call unanswered"
        );
        assert!(
            !WAIT_CANCELLED.load(Ordering::SeqCst),
            "the end of input cancelled the call"
        );

        RELEASED.store(true, Ordering::SeqCst);
        let answer = session.next().await;
        let answered_at = Instant::now();
        assert_eq!(answer["id"], 1);
        assert_eq!(
            answer["result"]["structuredContent"],
            json!({"status": "ok", "data": "released",
                "meta": answer["result"]["structuredContent"]["meta"].clone()}),
            "{answer}"
        );
        let ended_at = tokio::time::timeout(Duration::from_secs(10), session.ended)
            .await
            .expect("the session did not end once every call was answered")
            .unwrap();
        assert!(
            ended_at.saturating_duration_since(answered_at) < Duration::from_secs(1),
            "the session ended {:?} after the last answer",
            ended_at.saturating_duration_since(answered_at)
        );
    }

    /// The end of input with nothing in flight ends the session at once.
    #[tokio::test]
    async fn the_end_of_input_with_nothing_in_flight_ends_the_session_at_once() {
        let mut session = Session::start(vec![&SPIN_TOOL], json!({})).await;
        session
            .send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}))
            .await;
        assert_eq!(session.next().await["id"], 1);
        let closed_at = Instant::now();
        session.write.shutdown().await.unwrap();
        let ended_at = tokio::time::timeout(Duration::from_secs(10), session.ended)
            .await
            .expect("the session did not end")
            .unwrap();
        assert!(
            ended_at - closed_at < Duration::from_secs(1),
            "{:?}",
            ended_at - closed_at
        );
    }

    /// A client gone altogether (its answers cannot be written) stops the work it left: the
    /// loop of a call still in flight stops as soon as an answer fails to go out.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_client_that_went_away_ends_the_session_and_its_calls_at_once() {
        // A pipe too small for the answer to 2: it cannot be written before the client has
        // gone, whatever the timing (a roomier one could take it, and then no write fails).
        let mut session = Session::start_with_pipe(vec![&SPIN_TOOL], json!({}), 32).await;
        session.call(1, "compute_until_cancelled").await;
        until("the loop's start", || SPIN.lock().unwrap().0.is_some()).await;
        session.call(2, "no_such_tool").await;
        // Both ends close before the answer to 2 can be written.
        let Session {
            ended,
            lines,
            write,
        } = session;
        drop(lines);
        drop(write);
        let gone_at = Instant::now();
        let ended_at = tokio::time::timeout(Duration::from_secs(10), ended)
            .await
            .expect("the session did not end within 10 s of its client going away")
            .unwrap();
        until("the loop's end", || SPIN.lock().unwrap().1.is_some()).await;
        let stopped_at = SPIN.lock().unwrap().1.unwrap();
        for (what, at) in [("session ended", ended_at), ("loop stopped", stopped_at)] {
            let after = at.saturating_duration_since(gone_at);
            assert!(
                after < Duration::from_secs(1),
                "the {what} {after:?} after the client went away"
            );
        }
    }

    /// A question to the client that the end of its input leaves unanswered fails, so the
    /// call that asked it answers instead of waiting for ever.
    #[tokio::test]
    async fn a_question_left_unanswered_by_the_end_of_input_fails_and_the_call_answers() {
        let mut session = Session::start(vec![&SAMPLING_TOOL], json!({"sampling": {}})).await;
        session.call(1, "ask_the_model").await;
        let question = session.next().await;
        assert_eq!(question["method"], "sampling/createMessage", "{question}");
        session.write.shutdown().await.unwrap();
        let answer = session.next().await;
        assert_eq!(answer["id"], 1, "{answer}");
        let envelope = &answer["result"]["structuredContent"];
        assert_eq!(envelope["status"], "error", "{answer}");
        let message = envelope["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("input ended before it answered"),
            "{message}"
        );
        tokio::time::timeout(Duration::from_secs(2), session.ended)
            .await
            .expect("the session did not end once the call was answered")
            .unwrap();
    }
}
