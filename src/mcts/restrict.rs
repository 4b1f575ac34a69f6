//! Moves a colour may not try in the first plies of a search ([`Restrictions`]): what the
//! analysis commands' `avoid` and `allow` arguments ask of the search.
//!
//! Plies count from the root: ply 0 is the root player's move, ply 1 the reply, and so on. A
//! rule for `plies = d` holds at plies `0..d` for its colour's moves there.

use super::Action;
use crate::board::Color;

/// Whether a rule names the moves to leave out or the only moves to keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleKind {
    /// The listed actions are forbidden.
    Avoid,
    /// Every action but the listed ones is forbidden.
    Allow,
}

/// One restriction on `color`'s moves at plies `0..plies` from the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    pub color: Color,
    pub kind: RuleKind,
    pub actions: Vec<Action>,
    pub plies: u32,
}

/// A set of [`Rule`]s; empty means the search is unrestricted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Restrictions {
    /// Each rule's actions sorted, for binary search.
    rules: Vec<Rule>,
}

impl Restrictions {
    #[must_use]
    pub fn new(mut rules: Vec<Rule>) -> Self {
        for r in &mut rules {
            r.actions.sort_unstable();
            r.actions.dedup();
        }
        rules.retain(|r| r.plies > 0);
        Self { rules }
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// Whether some rule forbids `color` to play `a` at `ply`.
    #[must_use]
    pub fn forbids(&self, color: Color, ply: usize, a: Action) -> bool {
        self.rules.iter().any(|r| {
            r.color == color
                && ply < r.plies as usize
                && (r.actions.binary_search(&a).is_ok() == (r.kind == RuleKind::Avoid))
        })
    }

    /// Removes from `actions` those forbidden to `color` at `ply`, unless no action would be
    /// left that is also `usable` (the caller's own exclusions, such as superko): then the
    /// rules do not hold in that position and `actions` stays as it is (the player must have
    /// some move).
    pub fn retain(
        &self,
        color: Color,
        ply: usize,
        actions: &mut Vec<Action>,
        usable: impl Fn(Action) -> bool,
    ) {
        if self.is_empty() || !actions.iter().any(|&a| self.forbids(color, ply, a)) {
            return;
        }
        if !actions
            .iter()
            .any(|&a| usable(a) && !self.forbids(color, ply, a))
        {
            return;
        }
        actions.retain(|&a| !self.forbids(color, ply, a));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(color: Color, kind: RuleKind, actions: &[u16], plies: u32) -> Rule {
        Rule {
            color,
            kind,
            actions: actions.iter().map(|&a| Action(a)).collect(),
            plies,
        }
    }

    #[test]
    fn avoid_holds_for_its_colour_below_its_depth() {
        let r = Restrictions::new(vec![rule(Color::Black, RuleKind::Avoid, &[5, 3], 3)]);
        assert!(r.forbids(Color::Black, 0, Action(3)));
        assert!(r.forbids(Color::Black, 2, Action(5)));
        assert!(!r.forbids(Color::Black, 3, Action(5)));
        assert!(!r.forbids(Color::Black, 0, Action(4)));
        assert!(!r.forbids(Color::White, 0, Action(3)));
        assert!(!r.forbids(Color::White, 1, Action(5)));
    }

    #[test]
    fn allow_forbids_everything_else() {
        let r = Restrictions::new(vec![rule(Color::White, RuleKind::Allow, &[7], 1)]);
        assert!(!r.forbids(Color::White, 0, Action(7)));
        assert!(r.forbids(Color::White, 0, Action(u16::MAX)));
        assert!(!r.forbids(Color::White, 1, Action(1)));
        let mut v = vec![Action(1), Action(7), Action(9)];
        r.retain(Color::White, 0, &mut v, |_| true);
        assert_eq!(v, [Action(7)]);
    }

    #[test]
    fn rules_that_forbid_every_move_do_not_hold() {
        let r = Restrictions::new(vec![rule(Color::Black, RuleKind::Avoid, &[1, 2], 1)]);
        let mut v = vec![Action(1), Action(2)];
        r.retain(Color::Black, 0, &mut v, |_| true);
        assert_eq!(v, [Action(1), Action(2)]);
        let mut v = vec![Action(1), Action(2), Action(3)];
        r.retain(Color::Black, 0, &mut v, |a| a != Action(3));
        assert_eq!(v, [Action(1), Action(2), Action(3)]);
        r.retain(Color::Black, 0, &mut v, |_| true);
        assert_eq!(v, [Action(3)]);
    }
}
