//! How many HTTP connections are served at once, and which one gives way to a newcomer.
//!
//! Each connection holds a file descriptor, so their number is capped below the process's
//! descriptor limit ([`descriptor_budget`]), leaving room for the files the server itself
//! opens: past it, `accept` fails and every client suffers. When all slots are taken, a
//! connection with no request in flight (one still dribbling its first headers, as a slowloris
//! client does, or an idle kept-alive one) is closed to make room, the one idle longest
//! first; the newcomer is served as soon as it has gone. Only when every connection is busy
//! does a newcomer wait in the listen backlog for one to finish. A closed connection keeps its
//! slot until its socket is closed, so a burst of newcomers never holds more descriptors than
//! the cap (plus the one being accepted).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio::sync::{Notify, oneshot};

/// The connections being served; see the module docs.
#[derive(Debug)]
pub(crate) struct Slots {
    cap: usize,
    state: Mutex<State>,
    /// Signalled when a connection ends or falls idle: a waiting accept may go on.
    changed: Notify,
}

#[derive(Debug, Default)]
struct State {
    next_id: u64,
    connections: HashMap<u64, Connection>,
}

#[derive(Debug)]
struct Connection {
    in_flight: usize,
    idle_since: Instant,
    /// Closes the connection when sent (or dropped); `None` once sent: the connection is
    /// closing, and still holds its slot until its task drops the [`Slot`].
    evict: Option<oneshot::Sender<()>>,
}

impl State {
    /// The connection to close for a newcomer: the one idle longest, unless one is being
    /// closed already (closing them one at a time keeps descriptors under the cap).
    fn next_to_close(&mut self) -> Option<&mut Connection> {
        if self.connections.values().any(|c| c.evict.is_none()) {
            return None;
        }
        self.connections
            .values_mut()
            .filter(|c| c.may_give_way())
            .min_by_key(|c| c.idle_since)
    }
}

impl Connection {
    /// Idle, and not already being closed: one that may give way.
    fn may_give_way(&self) -> bool {
        self.in_flight == 0 && self.evict.is_some()
    }
}

impl Slots {
    pub(crate) fn new(cap: usize) -> Arc<Self> {
        Arc::new(Self {
            cap: cap.max(1),
            state: Mutex::default(),
            changed: Notify::new(),
        })
    }

    /// Waits until a newcomer can be served: a slot is free, or (no connection being closed
    /// for room already) some connection is idle.
    pub(crate) async fn room(&self) {
        loop {
            let changed = self.changed.notified();
            if self.has_room() {
                return;
            }
            changed.await;
        }
    }

    fn has_room(&self) -> bool {
        let mut state = self.state.lock().expect("never poisoned");
        state.connections.len() < self.cap || state.next_to_close().is_some()
    }

    /// A slot for a connection just accepted, if one is free. When all are taken, the
    /// connection idle longest is told to close (unless one is closing already) and `None`
    /// is returned: wait for [`room`](Self::room), which comes when it has closed, or when a
    /// connection finishes.
    pub(crate) fn take(self: &Arc<Self>) -> Option<(Slot, oneshot::Receiver<()>)> {
        let mut state = self.state.lock().expect("never poisoned");
        if state.connections.len() >= self.cap {
            if let Some(evict) = state.next_to_close().and_then(|c| c.evict.take()) {
                tracing::debug!("all connection slots taken: closing the one idle longest");
                let _ = evict.send(());
            }
            return None;
        }
        let (evict, evicted) = oneshot::channel();
        let id = state.next_id;
        state.next_id += 1;
        state.connections.insert(
            id,
            Connection {
                in_flight: 0,
                idle_since: Instant::now(),
                evict: Some(evict),
            },
        );
        Some((
            Slot {
                slots: Arc::clone(self),
                id,
            },
            evicted,
        ))
    }

    fn update(&self, id: u64, change: impl FnOnce(&mut Connection)) {
        let mut state = self.state.lock().expect("never poisoned");
        if let Some(connection) = state.connections.get_mut(&id) {
            change(connection);
        }
        drop(state);
        self.changed.notify_waiters();
    }

    /// How many connections hold a slot now.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.state.lock().expect("never poisoned").connections.len()
    }
}

/// One connection's slot, freed when dropped (the connection ended).
#[derive(Debug)]
pub(crate) struct Slot {
    slots: Arc<Slots>,
    id: u64,
}

impl Slot {
    /// Marks a request in flight on this connection until the returned guard drops (with its
    /// response's body, once sent).
    pub(crate) fn busy(&self) -> Busy {
        self.slots.update(self.id, |c| c.in_flight += 1);
        Busy {
            slots: Arc::clone(&self.slots),
            id: self.id,
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut state = self.slots.state.lock().expect("never poisoned");
        state.connections.remove(&self.id);
        drop(state);
        self.slots.changed.notify_waiters();
    }
}

/// A request in flight; see [`Slot::busy`].
#[derive(Debug)]
pub(crate) struct Busy {
    slots: Arc<Slots>,
    id: u64,
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.slots.update(self.id, |c| {
            c.in_flight -= 1;
            if c.in_flight == 0 {
                c.idle_since = Instant::now();
            }
        });
    }
}

/// How many connections the descriptor limit leaves room for, after raising the soft limit
/// to the hard one where it is lower (as Go's runtime does): the limit less the descriptors
/// open now and a reserve for the server's own files (an index, logs it reads, one per
/// worker thread and more). `None` where the limit cannot be read.
#[cfg(unix)]
pub(crate) fn descriptor_budget() -> Option<usize> {
    // SAFETY: getrlimit/setrlimit only read and write the struct passed.
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return None;
    }
    // macOS refuses a soft limit above OPEN_MAX even when the hard one is unlimited.
    let wanted = limit.rlim_max.min(if cfg!(target_os = "macos") {
        10_240
    } else {
        1 << 20
    });
    if limit.rlim_cur < wanted {
        let raised = libc::rlimit {
            rlim_cur: wanted,
            rlim_max: limit.rlim_max,
        };
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            tracing::debug!(
                from = limit.rlim_cur,
                to = wanted,
                "raised the open-file limit"
            );
            limit.rlim_cur = wanted;
        }
    }
    let soft = usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX);
    let threads = std::thread::available_parallelism().map_or(8, usize::from);
    let reserve = open_descriptors() + 64 + 4 * threads;
    Some(soft.saturating_sub(reserve))
}

#[cfg(not(unix))]
pub(crate) fn descriptor_budget() -> Option<usize> {
    None
}

/// Descriptors open in this process now; a guess where the system does not list them.
#[cfg(unix)]
fn open_descriptors() -> usize {
    ["/proc/self/fd", "/dev/fd"]
        .iter()
        .find_map(|dir| std::fs::read_dir(dir).ok())
        .map_or(64, Iterator::count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn when_full_the_connection_idle_longest_gives_way() {
        let slots = Slots::new(2);
        let (oldest, mut oldest_evicted) = slots.take().unwrap();
        let (busy_one, mut busy_evicted) = slots.take().unwrap();
        let _request = busy_one.busy();
        // Full, but `oldest` is idle: it is told to close, and keeps its slot until it has.
        slots.room().await;
        assert!(slots.take().is_none());
        assert!(oldest_evicted.try_recv().is_ok(), "the idle one is closed");
        assert!(busy_evicted.try_recv().is_err(), "the busy one is kept");
        assert!(slots.take().is_none(), "one closing at a time");
        assert_eq!(slots.len(), 2);
        drop(oldest);
        slots.room().await;
        let (_newcomer, _) = slots.take().expect("the closed one's slot");
        assert_eq!(slots.len(), 2);
    }

    #[tokio::test]
    async fn when_all_are_busy_a_newcomer_waits_for_one_to_finish() {
        let slots = Slots::new(1);
        let (only, _) = slots.take().unwrap();
        let request = only.busy();
        assert!(slots.take().is_none());
        let waiting = {
            let slots = Arc::clone(&slots);
            tokio::spawn(async move { slots.room().await })
        };
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        assert!(!waiting.is_finished());
        drop(request);
        tokio::time::timeout(std::time::Duration::from_secs(1), waiting)
            .await
            .expect("room once the request is done")
            .unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn the_budget_stays_under_the_descriptor_limit() {
        let budget = descriptor_budget().expect("the limit is readable");
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        assert_eq!(
            unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) },
            0
        );
        assert!(
            (budget as u64) + 64 < limit.rlim_cur,
            "{budget} vs {}",
            limit.rlim_cur
        );
    }
}
