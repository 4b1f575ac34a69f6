//! The transposition table: results gathered per position (by [`SearchGame::hash`]), kept from
//! one search to the next, used to give new tree nodes a prior.
//!
//! What it does: every simulation adds its result to the entry of each position on its tree
//! path below the root (from the side of the player who moved into the position, like the
//! node statistics). When a descent reaches a node for the first time, the node starts with up
//! to [`crate::mcts::Params::tt_prior`] of its position's samples (same mean), so a position
//! the search has met before, by another move order or in an earlier search whose tree was not
//! kept, does not start from nothing.
//!
//! What it does not do: nodes are not shared (the tree stays a tree, each node keeps its own
//! statistics, and nothing flows back from the table into a node after its first visit); AMAF
//! statistics are not kept; the results of playouts are not credited to the positions the
//! playout went through. A prior is counted in the node's visits, so reported visits of a
//! move include it.
//!
//! The table is a fixed array of entries indexed by the low bits of the hash, each holding the
//! full hash and the packed statistics. A different position landing on a used entry replaces
//! it. Threads write entries without locks: a reader checks the key before and after reading
//! the statistics, so a torn entry is at worst a slightly wrong prior.
//!
//! [`SearchGame::hash`]: crate::mcts::SearchGame::hash

use super::tree::Stats;
use std::sync::atomic::{AtomicU64, Ordering::*};

/// Entries (16 bytes each: 16 MiB).
pub const ENTRIES: usize = 1 << 20;

struct Entry {
    key: AtomicU64,
    /// Visits in the high half, half-point wins in the low half.
    stats: AtomicU64,
}

/// A table of position statistics.
pub struct Table {
    entries: Box<[Entry]>,
}

impl Default for Table {
    fn default() -> Self {
        Self::new(ENTRIES)
    }
}

impl Table {
    /// A table of `n` entries (rounded up to a power of two).
    #[must_use]
    pub fn new(n: usize) -> Table {
        let n = n.max(1).next_power_of_two();
        Table {
            entries: (0..n)
                .map(|_| Entry {
                    key: AtomicU64::new(0),
                    stats: AtomicU64::new(0),
                })
                .collect(),
        }
    }

    #[inline(always)]
    fn slot(&self, hash: u64) -> &Entry {
        &self.entries[(hash as usize) & (self.entries.len() - 1)]
    }

    /// Adds one result (2 win, 1 draw, 0 loss, from the side of the player who moved into the
    /// position) to the position `hash`, taking the entry over if another position held it.
    #[inline]
    pub fn add(&self, hash: u64, half_points: u32) {
        let e = self.slot(hash);
        let one = (1u64 << 32) + u64::from(half_points);
        if e.key.load(Relaxed) == hash {
            e.stats.fetch_add(one, Relaxed);
        } else {
            e.key.store(hash, Relaxed);
            e.stats.store(one, Relaxed);
        }
    }

    /// The statistics of position `hash`, if the table holds it.
    #[must_use]
    #[inline]
    pub fn get(&self, hash: u64) -> Option<Stats> {
        let e = self.slot(hash);
        if e.key.load(Acquire) != hash {
            return None;
        }
        let v = e.stats.load(Acquire);
        if e.key.load(Acquire) != hash {
            return None;
        }
        let s = Stats {
            visits: (v >> 32) as u32,
            wins: v as u32,
        };
        (s.visits > 0 && s.wins <= 2 * s.visits).then_some(s)
    }

    /// At most `cap` samples of `s` with the same mean (rounded to half points).
    #[must_use]
    pub fn prior(s: Stats, cap: u32) -> Stats {
        if s.visits <= cap {
            return s;
        }
        let wins = (f64::from(s.wins) * f64::from(cap) / f64::from(s.visits)).round() as u32;
        Stats { visits: cap, wins }
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for e in self.entries.iter() {
            e.key.store(0, Relaxed);
            e.stats.store(0, Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_get_replace() {
        let t = Table::new(8);
        assert_eq!(t.get(5), None);
        t.add(5, 2);
        t.add(5, 0);
        assert_eq!(t.get(5), Some(Stats { visits: 2, wins: 2 }));
        t.add(13, 1);
        assert_eq!(t.get(5), None);
        assert_eq!(t.get(13), Some(Stats { visits: 1, wins: 1 }));
        assert_eq!(
            Table::prior(
                Stats {
                    visits: 100,
                    wins: 150
                },
                10
            ),
            Stats {
                visits: 10,
                wins: 15
            }
        );
        t.clear();
        assert_eq!(t.get(13), None);
    }
}
