//! What the children of a node start with when it is expanded: an even prior for every child
//! and a prior of its own for each ([`Seeds`]).

use super::node::{Stats, MAX_PRIOR_VISITS};
#[cfg(doc)]
use super::Tree;

/// What the children of a node being expanded start with ([`Tree::expand_with`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Seeds<'a> {
    /// Added to every child's own statistics.
    pub even: Stats,
    /// Per child, in the order of the actions (missing entries: nothing).
    pub priors: &'a [Stats],
    /// Whether `priors` go into the children's own statistics (else their AMAF statistics).
    pub priors_in_tree: bool,
}

impl Seeds<'_> {
    /// Child `k`'s own statistics.
    #[must_use]
    pub fn stats(&self, k: usize) -> Stats {
        let p = if self.priors_in_tree {
            self.prior(k)
        } else {
            Stats::default()
        };
        Stats {
            visits: self.even.visits + p.visits,
            wins: self.even.wins + p.wins,
        }
    }

    /// Child `k`'s AMAF statistics.
    #[must_use]
    pub fn amaf(&self, k: usize) -> Stats {
        if self.priors_in_tree {
            Stats::default()
        } else {
            self.prior(k)
        }
    }

    /// Child `k`'s virtual visits from the priors in its own statistics (the even prior's
    /// left out), at most [`MAX_PRIOR_VISITS`].
    #[must_use]
    pub fn prior_visits(&self, k: usize) -> u16 {
        if self.priors_in_tree {
            self.prior(k).visits.min(u32::from(MAX_PRIOR_VISITS)) as u16
        } else {
            0
        }
    }

    fn prior(&self, k: usize) -> Stats {
        self.priors.get(k).copied().unwrap_or_default()
    }
}
