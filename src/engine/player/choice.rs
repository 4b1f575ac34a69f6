//! The move choice of [`Engine::genmove`](super::Engine::genmove): when to pass, what to play
//! in cleanup mode, when to resign (see the module docs of [`crate::engine::player`]).

use super::{Analysis, Decision, GenmoveOptions, GoEngine, Watch};
use crate::board::{Bitboard, Color, Move};
use crate::engine::state::{GoState, PASS};
use crate::game::VertexMove;

/// How much better than every other move an uninvited pass must look to be played.
const PASS_MARGIN: f32 = 0.05;

impl<const N: usize, const W: usize> GoEngine<N, W> {
    pub(super) fn choose(
        &mut self,
        c: Color,
        opts: &GenmoveOptions,
        watch: Option<Watch<'_>>,
    ) -> (Decision, Analysis) {
        let sign = if c == Color::Black { 1.0 } else { -1.0 };
        let opponent_passed = self.game.moves().last() == Some(&(!c, Move::Pass));
        let on_board = sign * self.game.tromp_taylor_score();
        let mut forbid_pass = false;
        if opponent_passed {
            // Our pass ends the game, and referees score it with the dead stones removed. The
            // tree scores two passes on the board as it stands, so it would happily pass in a
            // capturing race it loses: the pass must also win under the dead-stone estimate,
            // with either side to play first (a race can turn on who moves first).
            let mut wins = on_board > 0.0;
            let mut theirs_dead = false;
            for first in [c, !c] {
                if !wins {
                    break;
                }
                let dead;
                (wins, dead) = self.wins_counted(c, first);
                theirs_dead |= !(dead & self.game.board().stones(!c)).is_empty();
            }
            if wins && !(opts.cleanup && theirs_dead) {
                return (Decision::Play(VertexMove::Pass), Analysis::empty(N, c));
            }
            forbid_pass = !wins;
        }
        let report = self.search(c, &opts.limits, forbid_pass, false, watch);
        let analysis = Self::analysis(&report, c);
        let mut choice = report.best().map(|b| b.action);
        if choice == Some(PASS) && !opponent_passed {
            // Under area scoring a stone in one's own area costs nothing, so a pass that the
            // opponent did not invite is only worth it when it is clearly better; with few
            // playouts it is mostly noise.
            let pass_rate = report.best().map_or(0.0, |b| b.winrate);
            if let Some(other) = report
                .children
                .iter()
                .find(|ch| ch.action != PASS && ch.winrate >= pass_rate - PASS_MARGIN)
            {
                choice = Some(other.action);
            } else if !self.wins_counted(c, !c).0 {
                // The opponent may answer with a pass that ends the game, scored with dead
                // stones removed: do not pass into a loss there either.
                if let Some(other) = report.children.iter().find(|ch| ch.action != PASS) {
                    choice = Some(other.action);
                }
            }
        }
        if opts.cleanup {
            // Not the main search's ownership: its lines that end with two passes count every
            // stone as alive.
            let theirs_dead = self.estimate_dead() & self.game.board().stones(!c);
            if !theirs_dead.is_empty() {
                // Take the liberties of the dead stones (with a move that still wins, or is
                // nearly as good as the best), else any move rather than a pass.
                let b = self.game.board();
                let mut libs = Bitboard::EMPTY;
                for s in theirs_dead {
                    if let Some(ch) = b.chain_at(crate::board::Point::from_index(s)) {
                        libs |= ch.libs;
                    }
                }
                let best_rate = report.best().map_or(0.0, |b| b.winrate);
                let floor = (best_rate - PASS_MARGIN).min(0.5);
                let attack = report.children.iter().find(|ch| {
                    GoState::<N, W>::point(ch.action).is_some_and(|p| libs.contains(p.index()))
                        && ch.winrate >= floor
                });
                if let Some(a) = attack {
                    choice = Some(a.action);
                } else if choice == Some(PASS) {
                    if let Some(other) = report.children.iter().find(|ch| ch.action != PASS) {
                        choice = Some(other.action);
                    }
                }
            }
        }
        if opts.allow_resign
            && self.cfg.resign_below > 0.0
            && report.playouts >= self.cfg.resign_after
            && report.winrate() < self.cfg.resign_below
        {
            return (Decision::Resign, analysis);
        }
        let mv = choice.map_or(VertexMove::Pass, Self::vertex_move);
        (Decision::Play(mv), analysis)
    }
}
