//! The queue of turns waiting for the worker: one job per turn of a query, searched highest
//! priority first, ties in the order they arrived; and the turn being searched, which a
//! `terminate` can stop.

use super::protocol::Query;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

/// One turn of a query to search.
#[derive(Clone, Debug)]
pub struct Job {
    pub query: Arc<Query>,
    pub turn: usize,
    pub priority: i64,
    /// Arrival order: the jobs of earlier requests, and a query's turns in the order given,
    /// have smaller numbers.
    seq: u64,
}

impl PartialEq for Job {
    fn eq(&self, other: &Self) -> bool {
        self.seq == other.seq
    }
}

impl Eq for Job {}

impl PartialOrd for Job {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Job {
    /// The greater job is searched first: the higher priority, then the earlier arrival.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.priority
            .cmp(&other.priority)
            .then(other.seq.cmp(&self.seq))
    }
}

impl Job {
    /// Whether a terminate of `target` (`None`: every query) and `turns` (`None`: every turn)
    /// covers this job.
    fn matches(&self, target: Option<&str>, turns: Option<&[usize]>) -> bool {
        target.is_none_or(|t| t == self.query.id) && turns.is_none_or(|ts| ts.contains(&self.turn))
    }
}

/// The job being searched, and the flag that stops its search.
struct Running {
    job: Job,
    stop: Arc<AtomicBool>,
}

#[derive(Default)]
struct State {
    waiting: BinaryHeap<Job>,
    running: Option<Running>,
    next_seq: u64,
    /// No more jobs will come: the worker ends once the queue is empty.
    closed: bool,
}

/// The jobs shared by the reader (who adds and terminates them) and the worker (who takes
/// them one at a time).
#[derive(Default)]
pub struct Queue {
    state: Mutex<State>,
    added: Condvar,
}

impl Queue {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds a job for each turn of `q`, with that turn's priority.
    pub fn push(&self, q: Query) {
        let q = Arc::new(q);
        let mut s = self.lock();
        for (&turn, &priority) in q.turns.iter().zip(&q.priorities) {
            let seq = s.next_seq;
            s.next_seq += 1;
            s.waiting.push(Job {
                query: Arc::clone(&q),
                turn,
                priority,
                seq,
            });
        }
        drop(s);
        self.added.notify_all();
    }

    /// No more jobs: [`Queue::take`] returns `None` once the waiting ones are taken.
    pub fn close(&self) {
        self.lock().closed = true;
        self.added.notify_all();
    }

    /// Waits for the next job and marks it running (the previous running job is done), with
    /// the flag a terminate sets to stop it; `None` once closed and empty.
    pub fn take(&self) -> Option<(Job, Arc<AtomicBool>)> {
        let mut s = self.lock();
        s.running = None;
        loop {
            if let Some(job) = s.waiting.pop() {
                let stop = Arc::new(AtomicBool::new(false));
                s.running = Some(Running {
                    job: job.clone(),
                    stop: Arc::clone(&stop),
                });
                return Some((job, stop));
            }
            if s.closed {
                return None;
            }
            s = self.added.wait(s).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Drops the waiting jobs a terminate covers and returns them (to be answered
    /// `noResults`), and stops the running job if it covers it.
    pub fn terminate(&self, target: Option<&str>, turns: Option<&[usize]>) -> Vec<Job> {
        let mut s = self.lock();
        let (mut dropped, kept): (Vec<Job>, Vec<Job>) = std::mem::take(&mut s.waiting)
            .into_iter()
            .partition(|j| j.matches(target, turns));
        s.waiting = kept.into();
        if let Some(r) = &s.running {
            if r.job.matches(target, turns) {
                r.stop.store(true, Relaxed);
            }
        }
        dropped.sort_by_key(|j| j.seq);
        dropped
    }

    /// Drops the waiting jobs of `q` (its setup turned out illegal: answered once, as a whole).
    pub fn forget(&self, q: &Arc<Query>) {
        self.lock().waiting.retain(|j| !Arc::ptr_eq(&j.query, q));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::protocol::{parse, Request};

    fn query(line: &str) -> Query {
        match parse(line).0 {
            Ok(Request::Query(q)) => q,
            other => panic!("{other:?}"),
        }
    }

    fn order(queue: &Queue) -> Vec<(String, usize)> {
        queue.close();
        std::iter::from_fn(|| queue.take())
            .map(|(j, _)| (j.query.id.clone(), j.turn))
            .collect()
    }

    #[test]
    fn higher_priorities_first_then_arrival() {
        let queue = Queue::default();
        let moves = r#""moves":[["B","E5"],["W","C3"]],"boardXSize":9,"boardYSize":9"#;
        queue.push(query(&format!(
            r#"{{"id":"a",{moves},"analyzeTurns":[2,0]}}"#
        )));
        queue.push(query(&format!(
            r#"{{"id":"b",{moves},"analyzeTurns":[1],"priority":5}}"#
        )));
        queue.push(query(&format!(
            r#"{{"id":"c",{moves},"analyzeTurns":[0,1,2],"priorities":[-1,7,0]}}"#
        )));
        let got = order(&queue);
        let want = [("c", 1), ("b", 1), ("a", 2), ("a", 0), ("c", 2), ("c", 0)];
        let want: Vec<(String, usize)> = want.iter().map(|&(i, t)| (i.into(), t)).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn terminate_drops_waiting_turns_and_stops_the_running_one() {
        let queue = Queue::default();
        let moves = r#""moves":[["B","E5"],["W","C3"]],"boardXSize":9,"boardYSize":9"#;
        queue.push(query(&format!(
            r#"{{"id":"a",{moves},"analyzeTurns":[0,1,2]}}"#
        )));
        queue.push(query(&format!(
            r#"{{"id":"b",{moves},"analyzeTurns":[0,1]}}"#
        )));
        let (first, stop) = queue.take().unwrap();
        assert_eq!((first.query.id.as_str(), first.turn), ("a", 0));
        // Only turn 2 of a: the running turn 0 goes on.
        let dropped = queue.terminate(Some("a"), Some(&[2]));
        assert_eq!(dropped.len(), 1);
        assert_eq!(dropped[0].turn, 2);
        assert!(!stop.load(Relaxed));
        // All of a: the running turn stops, turn 1 is dropped.
        let dropped = queue.terminate(Some("a"), None);
        assert_eq!(dropped.iter().map(|j| j.turn).collect::<Vec<_>>(), [1]);
        assert!(stop.load(Relaxed));
        // b is untouched until a terminate_all.
        let (next, stop) = queue.take().unwrap();
        assert_eq!((next.query.id.as_str(), next.turn), ("b", 0));
        let dropped = queue.terminate(None, None);
        assert_eq!(dropped.len(), 1);
        assert!(stop.load(Relaxed));
        assert!(order(&queue).is_empty());
    }
}
