//! stdio as non-blocking pipes, read and written by the runtime's own threads.
//!
//! rmcp's stdio (tokio's `Stdin` and `Stdout`) reads and writes on the blocking pool, so every
//! message in is a hand-off from a pool thread to a worker, and every answer out one more.
//! When both ends are pipes, as for a client that spawned the server, they are put in
//! non-blocking mode and polled by the runtime's reactor instead: a warm call of agtrace was
//! answered 0.05-0.15 ms sooner (docs/benchmarks.md). Anything else (a terminal, a file, a
//! socket) keeps rmcp's stdio.
//!
//! Non-blocking mode belongs to the open pipe, which another process may share (a shell that
//! writes to the same pipe after the server exits): [`Restore`] turns it off again when the
//! session ends. While it runs, nothing else in the process may read stdin or write stdout,
//! which carries only the protocol anyway.

use std::fs::File;
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, RawFd};
use std::os::unix::fs::FileTypeExt;
use tokio::net::unix::pipe;

/// stdin and stdout as non-blocking pipes, with what turns them back; `None` when either is
/// not a pipe or cannot be made non-blocking (then both are as they were).
pub(super) fn open() -> Option<(pipe::Receiver, pipe::Sender, Restore)> {
    let input = duplicate_if_pipe(io::stdin().as_fd())?;
    let output = duplicate_if_pipe(io::stdout().as_fd())?;
    let restore = Restore::record([io::stdin().as_raw_fd(), io::stdout().as_raw_fd()])?;
    match (
        pipe::Receiver::from_file(input),
        pipe::Sender::from_file(output),
    ) {
        (Ok(read), Ok(write)) => Some((read, write, restore)),
        _ => None,
    }
}

/// A descriptor of its own for `fd`'s open file, if that is a pipe.
fn duplicate_if_pipe(fd: BorrowedFd<'_>) -> Option<File> {
    let file = File::from(fd.try_clone_to_owned().ok()?);
    file.metadata().ok()?.file_type().is_fifo().then_some(file)
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
