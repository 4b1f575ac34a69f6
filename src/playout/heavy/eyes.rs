//! Which points a heavy playout refuses to play: eyes under the policy's [`EyeRule`] and, with
//! `no_self_atari`, self-ataris of two or more stones.

use super::{EyeRule, Mover};
use crate::board::geometry::{cell_of, CELL_EMPTY, CELL_OFF};
use crate::board::{Board, Color, Point};

impl Mover<'_> {
    /// Whether `i` is an eye of `c` under the policy's eye rule. Precondition: `i` empty.
    #[must_use]
    #[inline(always)]
    pub fn is_eye<const N: usize, const W: usize>(
        &self,
        board: &Board<N, W>,
        c: Color,
        i: usize,
    ) -> bool {
        match self.policy.eyes {
            EyeRule::Eyelike => board.is_eyelike(c, Point::from_index(i)),
            EyeRule::Surrounded => surrounded(board, c, i),
            EyeRule::Real => surrounded(board, c, i) && diagonals_hold(board, c, i),
        }
    }

    /// Whether `c` may and would play the empty point `i`: legal, not the ko recapture, not an
    /// eye under the rule, and (with `no_self_atari`) not a self-atari of two or more stones.
    #[must_use]
    #[inline(always)]
    pub fn acceptable<const N: usize, const W: usize>(
        &self,
        board: &Board<N, W>,
        c: Color,
        i: usize,
    ) -> bool {
        if self.policy.eyes == EyeRule::Eyelike && self.policy.no_self_atari {
            // The default's tests in one look at the neighbours.
            return board.is_candidate_not_self_atari(c, i);
        }
        if self.policy.eyes == EyeRule::Eyelike && board.two_empty_around(i) {
            // Two empty neighbours: legal, no eye and no self-atari (two liberties at least);
            // only the ko rule could refuse it. The test most random draws end with.
            return !board.ko_bans(c, i);
        }
        let p = Point::from_index(i);
        let ok = if self.policy.eyes == EyeRule::Eyelike {
            board.is_candidate(c, p)
        } else {
            board.is_legal(c, p) && !self.is_eye(board, c, i)
        };
        ok && !(self.policy.no_self_atari && self_atari(board, c, i))
    }
}

/// Every orthogonal neighbour of `i` on the board is a stone of `c` not in atari.
#[inline(always)]
fn surrounded<const N: usize, const W: usize>(board: &Board<N, W>, c: Color, i: usize) -> bool {
    let own = cell_of(c.index());
    board.geometry().around(i).into_iter().all(|q| {
        let v = board.cell_at(q);
        v == CELL_OFF || (v == own && board.stone_libs(q) >= 2)
    })
}

/// Cazenave's diagonal rule: enemy diagonals plus unprotected empty diagonals at most one, or
/// none when the point is on the edge.
#[inline(always)]
fn diagonals_hold<const N: usize, const W: usize>(board: &Board<N, W>, c: Color, i: usize) -> bool {
    let own = cell_of(c.index());
    let opp = cell_of((!c).index());
    let mut bad = 0;
    let mut edge = false;
    for d in board.geometry().diagonals(i) {
        let v = board.cell_at(d);
        if v == CELL_OFF {
            edge = true;
        } else if v == opp {
            bad += 1;
        } else if v == CELL_EMPTY {
            let protected = board.geometry().around(d).into_iter().all(|q| {
                let w = board.cell_at(q);
                w == own || w == CELL_OFF
            });
            if !protected {
                bad += 1;
            }
        }
    }
    if edge {
        bad == 0
    } else {
        bad <= 1
    }
}

/// `c` playing `i` makes a string of two or more stones with a single liberty.
#[inline(always)]
fn self_atari<const N: usize, const W: usize>(board: &Board<N, W>, c: Color, i: usize) -> bool {
    let own = cell_of(c.index());
    board
        .geometry()
        .around(i)
        .into_iter()
        .any(|q| board.cell_at(q) == own)
        && !board.libs_after_at_least_two(c, i)
}
