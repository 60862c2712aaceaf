//! A tracing subscriber that keeps the messages of `WARN` events, for tests that assert a log
//! line. Each test binary uses part of it.
#![allow(dead_code)]

use std::sync::{Arc, Mutex};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Level, Metadata, Subscriber};

/// The messages of the `WARN` events seen so far.
#[derive(Clone, Default)]
pub struct Warnings(Arc<Mutex<Vec<String>>>);

/// Captures run one at a time, each after refreshing every callsite's cached interest.
///
/// tracing caches per callsite whether any subscriber wants its events. A callsite first hit
/// by one test thread while another sets its own thread's subscriber can be cached as wanted by
/// no one, and the second test then captures nothing (seen in CI: an empty warning list).
/// Holding this lock while capturing and rebuilding the cache once the subscriber is set closes
/// that window for every test of the binary that captures.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Keeps warnings while alive (the default subscriber of this thread).
pub struct Capture {
    seen: Warnings,
    _guard: tracing::subscriber::DefaultGuard,
    _one: std::sync::MutexGuard<'static, ()>,
}

impl Warnings {
    /// Keeps this thread's warnings until the returned guard drops.
    pub fn capture() -> Capture {
        let one = one_at_a_time();
        let seen = Warnings::default();
        let guard = tracing::subscriber::set_default(seen.clone());
        tracing::callsite::rebuild_interest_cache();
        Capture {
            seen,
            _guard: guard,
            _one: one,
        }
    }
}

impl Capture {
    /// Some warning starts with `start`.
    pub fn assert_logged(&self, start: &str) {
        let seen = self.seen.0.lock().unwrap();
        assert!(
            seen.iter().any(|w| w.starts_with(start)),
            "{start}: {seen:?}"
        );
    }
}

/// Runs `f` with a subscriber that keeps the messages of `WARN` events.
pub fn with_warnings<T>(f: impl FnOnce() -> T) -> (T, Vec<String>) {
    let _one = one_at_a_time();
    let seen = Warnings::default();
    let out = tracing::subscriber::with_default(seen.clone(), || {
        tracing::callsite::rebuild_interest_cache();
        f()
    });
    let warnings = seen.0.lock().unwrap().clone();
    (out, warnings)
}

struct Message(String);

impl Visit for Message {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            self.0 = format!("{value:?}");
        }
    }
}

impl Subscriber for Warnings {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        *metadata.level() == Level::WARN
    }

    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }

    fn record(&self, _: &Id, _: &Record<'_>) {}

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        let mut message = Message(String::new());
        event.record(&mut message);
        self.0.lock().unwrap().push(message.0);
    }

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}
