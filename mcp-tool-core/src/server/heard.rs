//! What `build()` and the schema lints find must reach the author, who may not have
//! installed a `tracing` subscriber (the README's `main` does not): then it goes to stderr.

use std::io::Write;

/// Logs `message` as a warning, or writes it to stderr as `warning: <message>` when no
/// subscriber would hear it. stdout is never used: it may carry the protocol.
pub(crate) fn warn(message: &str) {
    warn_into(message, &mut std::io::stderr().lock());
}

fn warn_into(message: &str, unheard: &mut dyn Write) {
    let heard = tracing::dispatcher::get_default(|d| !d.is::<tracing::subscriber::NoSubscriber>());
    if heard {
        tracing::warn!("{message}");
    } else {
        // Nowhere left to report a failed write to stderr.
        let _ = writeln!(unheard, "warning: {message}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_subscriber_a_warning_goes_to_stderr_and_with_one_to_the_log() {
        let mut unheard = Vec::new();
        warn_into("tool `x`: a finding", &mut unheard);
        assert_eq!(
            String::from_utf8(unheard).unwrap(),
            "warning: tool `x`: a finding\n"
        );

        let subscriber = tracing_subscriber::fmt()
            .with_writer(std::io::sink)
            .finish();
        let mut unheard = Vec::new();
        tracing::subscriber::with_default(subscriber, || {
            warn_into("tool `x`: a finding", &mut unheard);
        });
        assert!(unheard.is_empty());
    }
}
