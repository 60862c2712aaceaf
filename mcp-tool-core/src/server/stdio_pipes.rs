//! stdio as non-blocking pipes or sockets, read and written by the runtime's own threads.
//!
//! rmcp's stdio (tokio's `Stdin` and `Stdout`) reads and writes on the blocking pool, so every
//! message in is a hand-off from a pool thread to a worker, and every answer out one more.
//! When both ends are pipes (a client that spawned the server with pipes, as Python's does) or
//! Unix stream sockets (as Node's `child_process` makes them), they are put in non-blocking
//! mode and polled by the runtime's reactor instead: a warm call of agtrace was answered
//! 0.05-0.15 ms sooner (docs/benchmarks.md, "stdio on pipes"). Anything else (a terminal, a
//! file) keeps rmcp's stdio.
//!
//! Non-blocking mode belongs to the open pipe or socket, which another process may share (a
//! shell that writes to the same pipe after the server exits): [`Restore`] turns it off again
//! when the session ends. While it runs, nothing else in the process may read stdin or write
//! stdout, which carries only the protocol anyway.
//!
//! Served this way, stdout is also watched ([`output_closed`]): a client that closed its end
//! (it exited) will read no answer, so its session ends at once instead of after the calls
//! it left running.

use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd, RawFd};
use std::os::unix::fs::FileTypeExt;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::unix::pipe;

pub(super) type Reader = Box<dyn AsyncRead + Unpin + Send>;
pub(super) type Writer = Box<dyn AsyncWrite + Unpin + Send>;

/// stdin and stdout read and written without blocking, with what turns them back; `None`
/// when either is neither a pipe nor a Unix stream socket, or cannot be made non-blocking
/// (then both are as they were).
pub(super) fn open() -> Option<(Reader, Writer, Restore)> {
    let input = Endpoint::of(io::stdin().as_fd())?;
    let output = Endpoint::of(io::stdout().as_fd())?;
    let restore = Restore::record([io::stdin().as_raw_fd(), io::stdout().as_raw_fd()])?;
    let reader: Reader = match input {
        Endpoint::Pipe(file) => Box::new(pipe::Receiver::from_file(file).ok()?),
        Endpoint::Socket(socket) => Box::new(socket.into_tokio()?),
    };
    let writer: Writer = match output {
        Endpoint::Pipe(file) => Box::new(pipe::Sender::from_file(file).ok()?),
        Endpoint::Socket(socket) => Box::new(socket.into_tokio()?),
    };
    Some((reader, writer, restore))
}

/// Resolves once nobody can read stdout any more (the client closed its end of the pipe or
/// socket, most likely because it exited); `None` where that cannot be watched. Call after
/// [`open`] succeeded: stdout is then a pipe or a Unix stream socket.
pub(super) fn output_closed() -> Option<impl Future<Output = ()> + Send + 'static> {
    hung_up(io::stdout().as_fd().try_clone_to_owned().ok()?)
}

/// Resolves once the other end of the pipe or socket `fd` writes to is closed.
///
/// A pipe whose readers are all gone polls as `POLLERR`, a socket whose peer closed as
/// `POLLHUP`; epoll reports both whatever the interest. The interest is writability, edge
/// triggered: it wakes this when the client reads (cheap, and confirmed with `poll(2)`
/// before anything is concluded) and when the other end closes, but not, unlike readability,
/// for a socket whose peer only stopped writing, which tokio would then keep reporting.
fn hung_up(fd: OwnedFd) -> Option<impl Future<Output = ()> + Send + 'static> {
    use tokio::io::Interest;
    use tokio::io::unix::AsyncFd;
    let interest = Interest::WRITABLE | Interest::ERROR;
    let watched = AsyncFd::with_interest(fd, interest).ok()?;
    Some(async move {
        loop {
            let Ok(mut ready) = watched.ready(interest).await else {
                return std::future::pending().await;
            };
            if peer_closed(watched.get_ref().as_fd()) {
                return;
            }
            ready.clear_ready();
            // Should a wake-up ever repeat without a new edge, other tasks still run.
            tokio::task::yield_now().await;
        }
    })
}

/// Whether `poll(2)` reports the other end of `fd` closed, without waiting.
fn peer_closed(fd: BorrowedFd<'_>) -> bool {
    let mut poll = libc::pollfd {
        fd: fd.as_raw_fd(),
        events: 0,
        revents: 0,
    };
    // SAFETY: one pollfd, valid for the call; a timeout of 0 only reads the state.
    let n = unsafe { libc::poll(&mut poll, 1, 0) };
    n == 1 && poll.revents & (libc::POLLERR | libc::POLLHUP) != 0
}

/// A descriptor of its own for stdin's or stdout's open file, by what it is.
enum Endpoint {
    Pipe(File),
    Socket(UnixSocket),
}

impl Endpoint {
    fn of(fd: BorrowedFd<'_>) -> Option<Self> {
        let file = File::from(fd.try_clone_to_owned().ok()?);
        let kind = file.metadata().ok()?.file_type();
        if kind.is_fifo() {
            Some(Endpoint::Pipe(file))
        } else if kind.is_socket() {
            UnixSocket::of(OwnedFd::from(file)).map(Endpoint::Socket)
        } else {
            None
        }
    }
}

/// A Unix stream socket (`socketpair`), the only kind of socket served this way.
struct UnixSocket(std::os::unix::net::UnixStream);

impl UnixSocket {
    fn of(fd: OwnedFd) -> Option<Self> {
        let mut kind: libc::c_int = 0;
        let mut len = std::mem::size_of::<libc::c_int>() as libc::socklen_t;
        // SAFETY: SO_TYPE writes one c_int into `kind`, whose size `len` gives.
        let read = unsafe {
            libc::getsockopt(
                fd.as_raw_fd(),
                libc::SOL_SOCKET,
                libc::SO_TYPE,
                (&mut kind as *mut libc::c_int).cast(),
                &mut len,
            )
        };
        let socket = std::os::unix::net::UnixStream::from(fd);
        // `local_addr` fails for a socket of another family (TCP from inetd, say).
        (read == 0 && kind == libc::SOCK_STREAM && socket.local_addr().is_ok())
            .then_some(UnixSocket(socket))
    }

    fn into_tokio(self) -> Option<tokio::net::UnixStream> {
        self.0.set_nonblocking(true).ok()?;
        tokio::net::UnixStream::from_std(self.0).ok()
    }
}

/// The status flags stdin and stdout had before, set again on drop.
pub(super) struct Restore {
    saved: [(RawFd, libc::c_int); 2],
}

impl Restore {
    fn record(fds: [RawFd; 2]) -> Option<Self> {
        let flags = |fd: RawFd| {
            // SAFETY: F_GETFL reads the flags of a descriptor the process holds open.
            let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
            (flags >= 0).then_some((fd, flags))
        };
        Some(Restore {
            saved: [flags(fds[0])?, flags(fds[1])?],
        })
    }
}

impl Drop for Restore {
    fn drop(&mut self) {
        for (fd, flags) in self.saved {
            // SAFETY: F_SETFL with the flags F_GETFL returned for the same descriptor, which
            // stdin and stdout keep open for the life of the process.
            unsafe { libc::fcntl(fd, libc::F_SETFL, flags) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Whether `closed` resolves within `within`.
    async fn resolves(closed: impl Future<Output = ()>, within: Duration) -> bool {
        tokio::time::timeout(within, closed).await.is_ok()
    }

    #[tokio::test]
    async fn a_pipe_is_closed_once_its_reader_is_gone_and_not_before() {
        let (reader, writer) = std::io::pipe().unwrap();
        let mut closed = Box::pin(hung_up(OwnedFd::from(writer)).unwrap());
        assert!(!resolves(closed.as_mut(), Duration::from_millis(200)).await);
        drop(reader);
        assert!(resolves(closed, Duration::from_secs(2)).await);
    }

    #[tokio::test]
    async fn a_socket_is_closed_once_its_peer_is_gone_and_not_when_it_only_stops_writing() {
        let (ours, theirs) = std::os::unix::net::UnixStream::pair().unwrap();
        let mut closed = Box::pin(hung_up(OwnedFd::from(ours)).unwrap());
        assert!(!resolves(closed.as_mut(), Duration::from_millis(200)).await);
        // Readable now (end of its input), but the peer still reads what is written.
        theirs.shutdown(std::net::Shutdown::Write).unwrap();
        assert!(!resolves(closed.as_mut(), Duration::from_millis(200)).await);
        drop(theirs);
        assert!(resolves(closed, Duration::from_secs(2)).await);
    }
}
