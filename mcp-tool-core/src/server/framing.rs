//! Newline-delimited JSON-RPC over a pair of byte streams (stdio), where every line is
//! answered: rmcp's own line transport drops lines it cannot decode without a word.
//!
//! Each line is read with a length limit (a longer one is answered as soon as it crosses the
//! limit, then skipped up to its newline, never buffered) and run through [`wire::check`];
//! what passes goes to rmcp, what does not is answered here. Answers and rmcp's messages go
//! through one writer, a line at a time, so they never interleave.

use super::wire::{self, Refusal};
use futures::SinkExt;
use rmcp::RoleServer;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::Transport;
use std::collections::VecDeque;
use std::io;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, BufReader};
use tokio::sync::Mutex;
use tokio_util::bytes::Bytes;
use tokio_util::codec::{BytesCodec, FramedWrite};

/// How long closing waits for output still buffered, should the client have stopped reading.
const CLOSE_FLUSH_LIMIT: Duration = Duration::from_secs(1);

/// A line buffer this large is given back after use instead of kept for the next line.
const KEPT_LINE_CAPACITY: usize = 64 * 1024;

type Writer<W> = Arc<Mutex<Option<FramedWrite<W, BytesCodec>>>>;

/// The server's end of a newline-delimited JSON-RPC connection; see the module docs.
pub(crate) struct LineTransport<R, W> {
    read: BufReader<R>,
    /// The line being read. It survives a cancelled `receive` (rmcp polls it in a `select!`),
    /// so the next call resumes the same line.
    line: Vec<u8>,
    /// Skipping the rest of a line that crossed the limit.
    skipping: bool,
    max_message_bytes: usize,
    writer: Writer<W>,
    /// Refusals not yet handed to the writer; kept here so a cancelled `receive` loses none.
    answers: VecDeque<Bytes>,
    /// Output handed to the writer whose flush was cancelled.
    unflushed: bool,
}

/// What reading one line gave.
enum Line {
    /// A whole line (its newline, or the end of input, reached) is in `line`.
    Complete,
    /// The line crossed the limit; what was read of it is dropped.
    TooLarge,
    /// The input ended.
    End,
}

impl<R, W> LineTransport<R, W>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    pub fn new(read: R, write: W, max_message_bytes: usize) -> Self {
        Self {
            read: BufReader::new(read),
            line: Vec::new(),
            skipping: false,
            max_message_bytes,
            writer: Arc::new(Mutex::new(Some(FramedWrite::new(write, BytesCodec::new())))),
            answers: VecDeque::new(),
            unflushed: false,
        }
    }

    /// Reads up to the next newline without holding more than `max_message_bytes` of it.
    /// Cancel-safe: bytes are consumed from the reader only as they are moved into `line`.
    async fn next_line(&mut self) -> io::Result<Line> {
        loop {
            let available = self.read.fill_buf().await?;
            if available.is_empty() {
                // A last line without its newline is still a message.
                self.skipping = false;
                return Ok(if self.line.is_empty() {
                    Line::End
                } else {
                    Line::Complete
                });
            }
            let newline = available.iter().position(|&b| b == b'\n');
            let content = &available[..newline.unwrap_or(available.len())];
            let consumed = newline.map_or(available.len(), |at| at + 1);
            let outcome = if self.skipping {
                self.skipping = newline.is_none();
                None
            } else if self.line.len() + content.len() > self.max_message_bytes {
                self.line.clear();
                self.skipping = newline.is_none();
                Some(Line::TooLarge)
            } else {
                self.line.extend_from_slice(content);
                newline.map(|_| Line::Complete)
            };
            self.read.consume(consumed);
            if let Some(outcome) = outcome {
                return Ok(outcome);
            }
        }
    }

    /// The message in `line`, or why it is refused; `None` for a blank line.
    fn take_line(&mut self) -> Option<Result<ClientJsonRpcMessage, Refusal>> {
        let line = self.line.strip_suffix(b"\r").unwrap_or(&self.line);
        let checked = (!line.trim_ascii().is_empty()).then(|| wire::check(line));
        self.line.clear();
        if self.line.capacity() > KEPT_LINE_CAPACITY {
            self.line = Vec::new();
        }
        checked
    }

    /// Writes the queued refusals; false when the output is gone.
    async fn write_answers(&mut self) -> bool {
        if self.answers.is_empty() && !self.unflushed {
            return true;
        }
        let mut writer = self.writer.lock().await;
        let Some(sink) = writer.as_mut() else {
            return false;
        };
        while let Some(answer) = self.answers.front() {
            if sink.feed(answer.clone()).await.is_err() {
                return false;
            }
            self.answers.pop_front();
            self.unflushed = true;
        }
        if SinkExt::<Bytes>::flush(sink).await.is_err() {
            return false;
        }
        self.unflushed = false;
        true
    }

    fn refuse(&mut self, refusal: Refusal) {
        refusal.log();
        if !refusal.notification {
            let mut answer = refusal.answer();
            answer.push(b'\n');
            self.answers.push_back(Bytes::from(answer));
        }
    }
}

impl<R, W> Transport<RoleServer> for LineTransport<R, W>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), io::Error>> + Send + 'static {
        let writer = Arc::clone(&self.writer);
        let line = serde_json::to_vec(&item).map(|mut line| {
            line.push(b'\n');
            Bytes::from(line)
        });
        async move {
            let line = line.map_err(io::Error::other)?;
            let mut writer = writer.lock().await;
            let sink = writer.as_mut().ok_or_else(|| {
                io::Error::new(io::ErrorKind::NotConnected, "the transport is closed")
            })?;
            sink.send(line).await
        }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            if !self.write_answers().await {
                tracing::debug!("the output closed: ending the session");
                return None;
            }
            let line = match self.next_line().await {
                Ok(line) => line,
                Err(e) => {
                    tracing::error!(error = %e, "reading the input failed: ending the session");
                    return None;
                }
            };
            match line {
                Line::End => return None,
                Line::TooLarge => self.refuse(Refusal::too_large(self.max_message_bytes)),
                Line::Complete => match self.take_line() {
                    Some(Ok(message)) => return Some(message),
                    Some(Err(refusal)) => self.refuse(refusal),
                    None => {}
                },
            }
        }
    }

    async fn close(&mut self) -> Result<(), io::Error> {
        let sink = self.writer.lock().await.take();
        if let Some(mut sink) = sink {
            // Output left by a cancelled flush; a client that stopped reading must not keep
            // the process from exiting.
            let _ =
                tokio::time::timeout(CLOSE_FLUSH_LIMIT, SinkExt::<Bytes>::flush(&mut sink)).await;
        }
        Ok(())
    }
}
