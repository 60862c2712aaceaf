//! Parsing in parallel, writing in plan order.
//!
//! A session's number is taken when its file is written, and search answers newest first by
//! that number. Written in the order parser threads happened to finish, the same logs indexed
//! twice numbered their sessions differently, and a search's hits and their order changed from
//! one index to the next. So the parser threads take jobs in plan order, the writer holds a
//! result that arrives early until those planned before it are written, and no thread runs
//! more than `window` jobs ahead of the writer, which bounds the parsed files held in memory.

use std::collections::BTreeMap;
use std::sync::{Condvar, Mutex};

/// Jobs handed out in order, at most `window` past the first one not yet written.
pub(crate) struct Queue<T> {
    state: Mutex<QueueState<T>>,
    moved: Condvar,
    window: usize,
}

struct QueueState<T> {
    jobs: std::vec::IntoIter<T>,
    /// Jobs handed out so far, which is the place of the next one in the plan.
    taken: usize,
    written: usize,
    closed: bool,
}

impl<T> Queue<T> {
    pub(crate) fn new(jobs: Vec<T>, window: usize) -> Self {
        Queue {
            state: Mutex::new(QueueState {
                jobs: jobs.into_iter(),
                taken: 0,
                written: 0,
                closed: false,
            }),
            moved: Condvar::new(),
            window: window.max(1),
        }
    }

    /// The next job and its place in the plan, once the writer is near enough; `None` when
    /// every job is taken or the writer has stopped.
    pub(crate) fn take(&self) -> Option<(usize, T)> {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        // The job at `written` is always already taken, so the writer never waits on a thread
        // that waits here.
        while !s.closed && s.taken >= s.written + self.window {
            s = self.moved.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        if s.closed {
            return None;
        }
        let job = s.jobs.next()?;
        let place = s.taken;
        s.taken += 1;
        Some((place, job))
    }

    /// The writer has written one more job, in order.
    pub(crate) fn written_one(&self) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.written += 1;
        self.moved.notify_all();
    }

    /// The writer stopped (done or failed): no thread waits for it any longer.
    pub(crate) fn close(&self) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.closed = true;
        self.moved.notify_all();
    }
}

/// Results that arrived before those planned earlier, held until their turn.
pub(crate) struct Reorder<R> {
    next: usize,
    early: BTreeMap<usize, R>,
}

impl<R> Reorder<R> {
    pub(crate) fn new() -> Self {
        Reorder {
            next: 0,
            early: BTreeMap::new(),
        }
    }

    pub(crate) fn put(&mut self, place: usize, result: R) {
        self.early.insert(place, result);
    }

    /// The result whose turn it is, if it has arrived.
    pub(crate) fn pop_ready(&mut self) -> Option<R> {
        let r = self.early.remove(&self.next)?;
        self.next += 1;
        Some(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn results_finished_out_of_order_come_out_in_plan_order() {
        let queue = Queue::new((0..200u64).collect(), 4);
        let (tx, rx) = mpsc::channel();
        let mut order = Vec::new();
        std::thread::scope(|scope| {
            for w in 0..3u64 {
                let tx = tx.clone();
                let queue = &queue;
                scope.spawn(move || {
                    while let Some((place, job)) = queue.take() {
                        // Uneven work, so threads overtake each other.
                        std::thread::sleep(std::time::Duration::from_micros(
                            (job * 7 + w) % 5 * 50,
                        ));
                        tx.send((place, job)).unwrap();
                    }
                });
            }
            drop(tx);
            let mut ready = Reorder::new();
            for (place, job) in rx.iter() {
                ready.put(place, job);
                // Never more than the window ahead: the writer holds at most that many.
                assert!(ready.early.len() <= 4, "{} held", ready.early.len());
                while let Some(job) = ready.pop_ready() {
                    order.push(job);
                    queue.written_one();
                }
            }
            queue.close();
        });
        assert_eq!(order, (0..200).collect::<Vec<_>>());
    }

    #[test]
    fn a_writer_that_stops_releases_the_threads_waiting_for_it() {
        let queue = Queue::new((0..100u32).collect(), 2);
        std::thread::scope(|scope| {
            let taker = scope.spawn(|| {
                let mut n = 0;
                while queue.take().is_some() {
                    n += 1;
                }
                n
            });
            std::thread::sleep(std::time::Duration::from_millis(20));
            queue.close();
            // Two taken within the window, then the close ends the wait for the third.
            assert_eq!(taker.join().unwrap(), 2);
        });
    }
}
