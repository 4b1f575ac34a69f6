//! The action set of the toy games the searcher is tested on (`tests/search_toy.rs`,
//! `tests/search_variants.rs`).

use tengen::mcts::{Action, ActionSet};

/// A set of up to 64 actions.
#[derive(Clone, Copy, Default, Debug)]
pub struct Bits(pub u64);

impl ActionSet for Bits {
    fn contains(&self, a: Action) -> bool {
        a.index() < 64 && self.0 >> a.index() & 1 != 0
    }
    fn insert(&mut self, a: Action) {
        if a.index() < 64 {
            self.0 |= 1 << a.index();
        }
    }
    fn remove(&mut self, a: Action) {
        if a.index() < 64 {
            self.0 &= !(1 << a.index());
        }
    }
    fn for_each(&self, mut f: impl FnMut(Action)) {
        (0..64)
            .filter(|i| self.0 >> i & 1 != 0)
            .for_each(|i| f(Action(i)));
    }
}
