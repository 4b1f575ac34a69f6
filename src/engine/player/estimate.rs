//! The ownership and dead-stone estimates behind scoring (`final_score`, `final_status`) and
//! the passing decisions: light playouts from the current position with a tree of the root
//! moves only.

use super::GoEngine;
use crate::board::{Bitboard, Color};
use crate::engine::state::GoState;
use crate::mcts::{Limits, Params, Searcher};

impl<const N: usize, const W: usize> GoEngine<N, W> {
    /// Ownership by action index from light playouts of the current position, with a tree of
    /// the root moves only (the main tree is left alone). A deeper tree would end many lines
    /// with two passes, scored with every stone alive, and hide dead stones.
    pub(super) fn estimate_ownership(&self) -> Vec<f32> {
        self.estimate_ownership_with(self.game.to_move())
    }

    /// [`Self::estimate_ownership`] with `to_move` to play first.
    pub(super) fn estimate_ownership_with(&self, to_move: Color) -> Vec<f32> {
        let params = Params {
            max_nodes: 1 << 12,
            expand_after: u32::MAX,
            ownership: true,
            ..self.cfg.params
        };
        let mut s = Searcher::new(params);
        let root = GoState::new(self.game.board(), to_move, 0, self.game.scoring_komi());
        let limits = Limits::playouts(self.cfg.estimate_playouts.max(1));
        s.run(&root, &limits, &|_| false, None).ownership
    }

    /// Stones whose string the playouts more often see owned by the other colour.
    pub(super) fn dead_from(&self, ownership: &[f32]) -> Bitboard<W> {
        let b = self.game.board();
        let mut dead = Bitboard::EMPTY;
        if ownership.is_empty() {
            return dead;
        }
        for c in Color::ALL {
            let mut todo = b.stones(c);
            while let Some(s) = todo.first() {
                let chain = b
                    .chain_at(crate::board::Point::from_index(s))
                    .map_or(Bitboard::single(s), |ch| ch.stones);
                todo -= chain;
                let sum: f32 = chain
                    .iter()
                    .map(|i| ownership.get(i).copied().unwrap_or(0.0))
                    .sum();
                let mine = if c == Color::Black { sum } else { -sum };
                if mine < 0.0 {
                    dead |= chain;
                }
            }
        }
        dead
    }

    /// Dead stones: from the ownership estimate, but never a string in seki (random playouts
    /// often break a seki, so its strings look dead about half the time).
    pub(super) fn estimate_dead(&self) -> Bitboard<W> {
        self.estimate_dead_with(self.game.to_move())
    }

    /// [`Self::estimate_dead`] with `to_move` to play first.
    pub(super) fn estimate_dead_with(&self, to_move: Color) -> Bitboard<W> {
        self.dead_from(&self.estimate_ownership_with(to_move))
            - crate::game::score::seki(self.game.board())
    }

    /// The dead stones of the final count (`final_score`, `final_status_list`): those of
    /// [`Self::estimate_dead`], and the strings the ownership leaves undecided that stand alone
    /// in the opponent's sphere ([`crate::game::sphere::lone_in_sphere`]: a lone stone on a
    /// sparse board, as a referee judges it). The passing decisions keep to the ownership
    /// alone: a game is not ended on the strength of that judgement (a stone it calls dead may
    /// still be needed to be captured, as the opponent's referee may see it).
    pub(super) fn final_dead(&self) -> Bitboard<W> {
        let board = self.game.board();
        let ownership = self.estimate_ownership();
        let seki = crate::game::score::seki(board);
        let dead = self.dead_from(&ownership) - seki;
        dead | crate::game::sphere::lone_in_sphere(board, &ownership, dead, seki)
    }

    /// Whether `c` wins if the game ends now, scored with the dead stones the playouts see when
    /// `first` plays first; and those dead stones.
    pub(super) fn wins_counted(&self, c: Color, first: Color) -> (bool, Bitboard<W>) {
        let sign = if c == Color::Black { 1.0 } else { -1.0 };
        let dead = self.estimate_dead_with(first);
        (sign * self.game.score_with_dead(dead) > 0.0, dead)
    }

    /// Whether every stone of `dead` lies, once they are all removed, in the other colour's
    /// area (Tromp-Taylor): the dead stones sit in enclosed territory, so the estimate is not
    /// guessing at a fight still open (a string in atari that could run, stones in a
    /// moyo with a gap).
    pub(super) fn dead_enclosed(&self, dead: Bitboard<W>) -> bool {
        let b = self.game.board();
        let (black, white) = (b.stones(Color::Black), b.stones(Color::White));
        let area = crate::game::tromp_taylor_area(
            self.game.board().geometry(),
            black - dead,
            white - dead,
        );
        ((dead & black) - area[Color::White]).is_empty()
            && ((dead & white) - area[Color::Black]).is_empty()
    }
}
