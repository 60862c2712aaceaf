//! What the commands print, on a stdout or stderr whose reader may go away first
//! (`agtrace call list_sessions | head -c 300`).
//!
//! `println!` and `eprintln!` panic when they cannot write. Here a closed stdout ends the
//! command quietly with status 141, what a shell reports for a program killed by SIGPIPE
//! (128 + 13), as C tools end in a pipeline whose reader is done; stderr, where there is
//! nowhere left to report to, is written as far as it goes.

use super::Failure;
use std::io::{self, Write};

/// Exit status of a command whose stdout was closed: SIGPIPE's, as a shell shows it.
pub const CLOSED_STATUS: u8 = 128 + 13;

/// A line on stdout: [`write_out`] with a newline.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::output::write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// A line on stderr, as far as stderr takes it.
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::output::write_err(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {errln, outln};

/// Writes `text` to stdout; a closed stdout is [`Failure::output_closed`].
pub fn write_out(text: std::fmt::Arguments<'_>) -> Result<(), Failure> {
    written(io::stdout().lock(), text)
}

fn written(mut out: impl Write, text: std::fmt::Arguments<'_>) -> Result<(), Failure> {
    out.write_fmt(text)
        .and_then(|()| out.flush())
        .map_err(|e| match e.kind() {
            io::ErrorKind::BrokenPipe => Failure::output_closed(),
            _ => Failure::from(format!("cannot write the output: {e}")),
        })
}

/// Writes `text` to stderr, ignoring a failure: there is nowhere left to report it.
pub fn write_err(text: std::fmt::Arguments<'_>) {
    let _ = io::stderr().lock().write_fmt(text);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer whose reader is gone, or that fails otherwise.
    struct Failing(io::ErrorKind);

    impl Write for Failing {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(self.0.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_output_is_a_quiet_failure_with_sigpipes_status_and_others_say_why() {
        let closed = written(Failing(io::ErrorKind::BrokenPipe), format_args!("x")).unwrap_err();
        assert_eq!((closed.message.as_str(), closed.code), ("", CLOSED_STATUS));
        let full = written(Failing(io::ErrorKind::StorageFull), format_args!("x")).unwrap_err();
        assert_eq!(full.code, 1);
        assert!(
            full.message.starts_with("cannot write the output"),
            "{}",
            full.message
        );
        let mut text = Vec::new();
        assert!(written(&mut text, format_args!("a {}\n", 1)).is_ok());
        assert_eq!(text, b"a 1\n");
    }
}
