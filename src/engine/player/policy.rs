//! The move model's policy of a position: the probability of each legal move, as the
//! analysis protocols report it (`includePolicy`, each move's `prior`).

use super::GoEngine;
use crate::board::{Color, Move};
use crate::engine::model;

impl<const N: usize, const W: usize> GoEngine<N, W> {
    /// See [`super::Engine::policy`]. The table is the one the search reads on this board
    /// size with the move model on every size and this engine's choice of the large boards'
    /// table ([`model::for_side`], [`crate::mcts::Params::model_19x19`]).
    pub(super) fn model_policy(&self, c: Color) -> Vec<f32> {
        let n = self.geo().n();
        let table = model::for_side(n, self.cfg.params.model_19x19);
        let b = self.game.board();
        let index = |m: &(Color, Move)| match m.1 {
            Move::Play(p) => Some(p.index()),
            Move::Pass => None,
        };
        let moves = self.game.moves();
        let last = moves.last().and_then(index);
        let second_last = moves.len().checked_sub(2).and_then(|k| index(&moves[k]));
        // Row by row from the top-left point; a legal point gets its strength, -1 the others.
        let mut policy: Vec<f32> = (0..n)
            .rev()
            .flat_map(|y| (0..n).map(move |x| (x, y)))
            .map(|(x, y)| {
                let p = b.point(x, y).expect("a point of the board");
                if !self.game.is_legal(c, Move::Play(p)) {
                    return -1.0;
                }
                table.map_or(1.0, |m| {
                    let large = m.large_gamma_at(b, c, p.index());
                    m.gamma(&model::features::features(
                        b,
                        c,
                        p.index(),
                        last,
                        second_last,
                    )) * large
                })
            })
            .collect();
        let total: f32 = policy.iter().filter(|&&g| g > 0.0).sum();
        for g in policy.iter_mut().filter(|g| **g > 0.0) {
            *g /= total;
        }
        // The model has no strength for the pass: it gets the whole probability only when no
        // point is legal.
        policy.push(if total > 0.0 { 0.0 } else { 1.0 });
        policy
    }
}

#[cfg(test)]
mod tests {
    use crate::board::{BoardSize, Color};
    use crate::engine::player::{new_engine, Engine, EngineConfig};
    use crate::game::{Vertex, VertexMove};

    fn at(size: usize, v: &str) -> usize {
        let v: Vertex = crate::values::vertex(v, size).unwrap();
        (size - 1 - usize::from(v.y)) * size + usize::from(v.x)
    }

    #[test]
    fn probabilities_of_the_legal_points_and_minus_one_elsewhere() {
        for size in [9, 13, 19, 7] {
            let mut e = new_engine(BoardSize::new(size).unwrap(), 7.5, EngineConfig::default());
            let play = |e: &mut Box<dyn Engine>, c, v: &str| {
                let v = crate::values::vertex(v, size).unwrap();
                e.play(c, VertexMove::Play(v)).unwrap();
            };
            // White's D3 in atari.
            for (c, v) in [
                (Color::Black, "C3"),
                (Color::White, "D3"),
                (Color::Black, "E3"),
                (Color::White, "A7"),
                (Color::Black, "D2"),
            ] {
                play(&mut e, c, v);
            }
            let p = e.policy(Color::White);
            assert_eq!(p.len(), size * size + 1);
            for v in ["C3", "D3", "E3", "D2", "A7"] {
                assert_eq!(p[at(size, v)], -1.0, "{size} {v}");
            }
            assert!(p.iter().all(|&x| x == -1.0 || (0.0..=1.0).contains(&x)));
            let sum: f32 = p.iter().filter(|&&x| x >= 0.0).sum();
            assert!((sum - 1.0).abs() < 1e-4, "{size}: {sum}");
            // Not uniform: the model prefers some moves (the atari-escape D4 of the white
            // stone in atari over the far corner).
            let legal = p.iter().filter(|&&x| x >= 0.0).count() - 1;
            assert!(p[at(size, "D4")] > 1.5 / legal as f32, "{size}: {p:?}");
            assert!(p[at(size, "D4")] > p[at(size, "A1")], "{size}");
        }
    }

    #[test]
    fn ko_and_suicide_points_are_illegal() {
        // Black at A2 and B1 leaves A1 a suicide for White.
        let size = 9;
        let mut e = new_engine(BoardSize::new(size).unwrap(), 7.5, EngineConfig::default());
        for (c, v) in [
            (Color::Black, "A2"),
            (Color::White, "J9"),
            (Color::Black, "B1"),
        ] {
            let v = crate::values::vertex(v, size).unwrap();
            e.play(c, VertexMove::Play(v)).unwrap();
        }
        let p = e.policy(Color::White);
        assert_eq!(p[at(size, "A1")], -1.0);
        assert!(p[at(size, "B2")] > 0.0);
        assert_eq!(p[size * size], 0.0);
    }
}
