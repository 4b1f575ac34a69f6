//! Unit tests of the lane board on hand-drawn positions (the lockstep test in
//! `tests/lockstep.rs` holds it against the scalar kernels on random games).

use super::*;
use crate::board::Board9;

type Lane9 = LaneBoard<9, 2>;

fn at(x: usize, y: usize) -> Point {
    Board9::new().point(x, y).unwrap()
}

fn play(b: &mut Lane9, c: Color, x: usize, y: usize) {
    b.play(c, Move::Play(at(x, y))).unwrap();
}

#[test]
fn a_lone_stone_taking_one_stone_sets_the_ko_ban() {
    let mut b = Lane9::new();
    for (x, y) in [(1, 2), (2, 1), (2, 3)] {
        play(&mut b, Color::Black, x, y);
    }
    for (x, y) in [(3, 1), (3, 3), (4, 2), (2, 2)] {
        play(&mut b, Color::White, x, y);
    }
    play(&mut b, Color::Black, 3, 2);
    assert_eq!(b.color_at(at(2, 2)), None);
    assert_eq!(b.captured(Color::White), 1);
    assert_eq!(b.ko(), Some((at(2, 2), Color::White)));
    assert_eq!(
        b.check(Color::White, Move::Play(at(2, 2))),
        Err(IllegalMove::Ko)
    );
    assert!(!b.candidates(Color::White).contains(at(2, 2).index()));
    b.pass();
    assert_eq!(b.ko(), None);
    assert_eq!(b.check(Color::White, Move::Play(at(2, 2))), Ok(()));
}

#[test]
fn suicide_of_one_and_of_two_stones_is_refused() {
    let mut b = Lane9::new();
    play(&mut b, Color::Black, 1, 0);
    play(&mut b, Color::Black, 0, 1);
    assert_eq!(
        b.check(Color::White, Move::Play(at(0, 0))),
        Err(IllegalMove::Suicide)
    );
    assert!(!b.candidates(Color::White).contains(at(0, 0).index()));
    let mut b = Lane9::new();
    for (x, y) in [(2, 0), (0, 1), (1, 1)] {
        play(&mut b, Color::Black, x, y);
    }
    play(&mut b, Color::White, 1, 0);
    assert_eq!(
        b.check(Color::White, Move::Play(at(0, 0))),
        Err(IllegalMove::Suicide)
    );
}

#[test]
fn eye_shapes_follow_the_edge_rule() {
    let mut b = Lane9::new();
    // A centre point with one enemy diagonal is an eye shape; with two it is not.
    for (x, y) in [(4, 3), (3, 4), (5, 4), (4, 5)] {
        play(&mut b, Color::Black, x, y);
    }
    play(&mut b, Color::White, 3, 3);
    assert!(b.eyelike(Color::Black).contains(at(4, 4).index()));
    play(&mut b, Color::White, 5, 5);
    assert!(!b.eyelike(Color::Black).contains(at(4, 4).index()));
    // An edge point with one enemy diagonal is not an eye shape.
    let mut b = Lane9::new();
    for (x, y) in [(3, 0), (5, 0), (4, 1)] {
        play(&mut b, Color::Black, x, y);
    }
    assert!(b.eyelike(Color::Black).contains(at(4, 0).index()));
    play(&mut b, Color::White, 3, 1);
    assert!(!b.eyelike(Color::Black).contains(at(4, 0).index()));
}

#[test]
fn area_counts_stones_and_surrounded_points() {
    let mut b = Lane9::new();
    play(&mut b, Color::Black, 1, 0);
    play(&mut b, Color::Black, 0, 1);
    play(&mut b, Color::White, 8, 8);
    // Black: 2 stones + (0,0). White: 1 stone. Everything else touches both or neither.
    assert_eq!(b.area_score(), 3 - 1);
    assert_eq!(b.areas()[Color::Black].count(), 3);
    assert_eq!(b.hash(), {
        let mut e = Board9::new();
        for (c, x, y) in [
            (Color::Black, 1, 0),
            (Color::Black, 0, 1),
            (Color::White, 8, 8),
        ] {
            e.play(c, Move::Play(at(x, y))).unwrap();
        }
        e.hash()
    });
}
