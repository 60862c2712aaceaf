//! stdio as non-blocking pipes or sockets, read and written by the runtime's own threads.
//!
//! rmcp's stdio (tokio's `Stdin` and `Stdout`) reads and writes on the blocking pool, so every
//! message in is a hand-off from a pool thread to a worker, and every answer out one more.
//! When both ends are pipes (a client that spawned the server with pipes, as Python's does) or
//! Unix stream sockets (as Node's `child_process` makes them), they are put in non-blocking
//! mode and polled by the runtime's reactor instead: a warm call of agtrace was answered
//! 0.05-0.15 ms sooner (docs/benchmarks.md). Anything else (a terminal, a file) keeps rmcp's
//! stdio.
//!
//! Non-blocking mode belongs to the open pipe or socket, which another process may share (a
//! shell that writes to the same pipe after the server exits): [`Restore`] turns it off again
//! when the session ends. While it runs, nothing else in the process may read stdin or write
//! stdout, which carries only the protocol anyway.

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
