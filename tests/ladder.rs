//! The ladder reader (`board::ladder`, bitboards of stones only) against a second reading of
//! the same rules on copies of the exact board (`Board::play`), on random positions of three
//! sizes: every string in atari, every escape and every atari must get the same answer.

mod common;

use common::random_position;
use rand_core::SeedableRng;
use rand_pcg::Pcg32;
use tengen::board::ladder::{self, MAX_NODES};
use tengen::board::shared::shared_words;
use tengen::board::{Board, BoardSize, Color, Geometry, Move, Point};

/// The reading on board copies: the same rules as the reader, move by move with `Board::play`.
struct Reference {
    nodes: u32,
}

impl Reference {
    /// The prey on `prey` (one liberty, its owner `c` to move) is caught.
    fn caught<const N: usize, const W: usize>(&mut self, b: &Board<N, W>, prey: Point) -> bool {
        self.nodes += 1;
        if self.nodes > MAX_NODES {
            return false;
        }
        let c = b.color_at(prey).unwrap();
        let chain = b.chain_at(prey).unwrap();
        assert_eq!(chain.lib_count, 1);
        // An attacking string next to the prey in atari: captured, an escape.
        for p in b.points() {
            if b.color_at(p) == Some(!c)
                && b.liberties(p) == 1
                && b.points()
                    .any(|q| chain.stones.contains(q.index()) && adjacent(b, p, q))
            {
                return false;
            }
        }
        let lib = Point::from_index(chain.libs.first().unwrap());
        self.extension_caught(b, c, lib, prey)
    }

    /// `c` plays `lib` (an escape of the string on `prey`): caught?
    fn extension_caught<const N: usize, const W: usize>(
        &mut self,
        b: &Board<N, W>,
        c: Color,
        lib: Point,
        prey: Point,
    ) -> bool {
        let mut after = b.clone();
        let captured = after.captured(!c);
        if after.play(c, Move::Play(lib)).is_err() {
            return true;
        }
        if after.captured(!c) != captured {
            return false;
        }
        let chain = after.chain_at(prey).unwrap();
        match chain.lib_count {
            0 | 1 => true,
            2 => chain.libs.into_iter().any(|a| {
                let mut atari = after.clone();
                let ours = atari.captured(c);
                atari.play(!c, Move::Play(Point::from_index(a))).is_ok()
                    && atari.captured(c) == ours
                    && self.caught(&atari, prey)
            }),
            _ => false,
        }
    }
}

fn adjacent<const N: usize, const W: usize>(board: &Board<N, W>, p: Point, q: Point) -> bool {
    let (a, b) = (board.coords(p), board.coords(q));
    a.0.abs_diff(b.0) + a.1.abs_diff(b.1) == 1
}

/// Counts of the answers, so that a run that never sees a ladder fails.
#[derive(Default, Debug)]
struct Seen {
    caught: u32,
    free: u32,
}

fn agree<const N: usize, const W: usize>(geo: Geometry<N, W>, positions: usize, seed: u64) -> Seen {
    let mut rng = Pcg32::seed_from_u64(seed);
    let mut seen = Seen::default();
    let mut tally = |x: bool| {
        if x {
            seen.caught += 1;
        } else {
            seen.free += 1;
        }
    };
    for _ in 0..positions {
        let b = random_position(geo, &mut rng);
        for p in b.points() {
            match b.color_at(p) {
                Some(_) if b.liberties(p) == 1 => {
                    let want = Reference { nodes: 0 }.caught(&b, p);
                    assert_eq!(ladder::caught(&b, p), want, "{p:?} in\n{b}");
                    tally(want);
                }
                Some(_) => {}
                None => {
                    for c in [Color::Black, Color::White] {
                        // The escape, read as the reference reads it.
                        let in_atari = b.points().find(|&q| {
                            adjacent(&b, p, q) && b.color_at(q) == Some(c) && b.liberties(q) == 1
                        });
                        let want = in_atari
                            .is_some_and(|q| Reference { nodes: 0 }.extension_caught(&b, c, p, q));
                        let got = ladder::escape_caught(&b, c, p);
                        assert_eq!(got, want, "escape {c:?} {p:?} in\n{b}");
                        if in_atari.is_some() {
                            tally(want);
                        }
                        // The atari, read on the board after it.
                        let mut after = b.clone();
                        let catches = after.play(c, Move::Play(p)).is_ok()
                            && after.captured(!c) == b.captured(!c)
                            && after.liberties(p) >= 2
                            && b.points().any(|q| {
                                adjacent(&b, p, q)
                                    && after.color_at(q) == Some(!c)
                                    && after.liberties(q) == 1
                                    && Reference { nodes: 0 }.caught(&after, q)
                            });
                        assert_eq!(
                            ladder::atari_catches(&b, c, p),
                            catches,
                            "atari {c:?} {p:?} in\n{b}"
                        );
                    }
                }
            }
        }
    }
    seen
}

#[test]
fn the_reader_agrees_with_a_reading_on_the_exact_board() {
    assert_eq!(shared_words(7), 2);
    for (seen, size) in [
        // 7x7 on the shared path, the copy that sizes without their own run.
        (
            agree(
                Geometry::<0, 2>::of(BoardSize::new(7).unwrap()).unwrap(),
                150,
                7,
            ),
            7,
        ),
        (agree(Geometry::<9, 2>::new(), 150, 9), 9),
        (agree(Geometry::<13, 3>::new(), 60, 13), 13),
    ] {
        assert!(seen.caught > 20 && seen.free > 20, "{size}: {seen:?}");
    }
}
