//! Hand-drawn positions with known answers: ko, suicide, eyes and area, on both boards and
//! the reference.

use super::*;

/// Plays `mv` on both boards, expecting `want` from both, and compares them afterwards.
fn step<const N: usize, const W: usize>(
    k: &mut Board<N, W>,
    r: &mut RefBoard,
    c: Color,
    mv: Option<Xy>,
    want: Result<(), IllegalMove>,
) {
    let before = k.clone();
    match mv {
        None => {
            assert_eq!(k.play(c, Move::Pass), Ok(()));
            r.pass();
        }
        Some(p) => {
            assert_eq!(
                k.play(c, Move::Play(pt(k.geometry(), p))),
                want,
                "kernel: {c} at {p:?}"
            );
            assert_eq!(
                r.play(c, p).map(|_| ()).map_err(kernel_error),
                want,
                "reference: {c} at {p:?}"
            );
            if want.is_err() {
                assert_unchanged(&before, k, &format!("{c} at {p:?}"));
            }
        }
    }
    assert_same(k, r, &format!("after {c} {mv:?}"));
}

#[test]
fn ko_ban_holds_for_one_move_and_a_pass_lifts_it() {
    let (mut k, mut r) = setup(
        Geometry::<5, 1>::new(),
        &[
            ". . . . .", //
            ". . . . .",
            ". X O . .",
            "X O . O .",
            ". X O . .",
        ],
    );
    let (b, w) = (Color::Black, Color::White);
    step(&mut k, &mut r, b, Some((2, 1)), Ok(()));
    assert_eq!(k.captured(w), 1);
    assert_eq!(k.ko(), Some((pt(k.geometry(), (1, 1)), w)));
    step(&mut k, &mut r, w, Some((1, 1)), Err(IllegalMove::Ko));
    // The ban is White's only: Black may fill the ko point.
    assert!(k.is_legal(b, pt(k.geometry(), (1, 1))));
    // A pass lifts it.
    step(&mut k, &mut r, w, None, Ok(()));
    assert_eq!(k.ko(), None);
    step(&mut k, &mut r, b, Some((4, 4)), Ok(()));
    step(&mut k, &mut r, w, Some((1, 1)), Ok(()));
    assert_eq!(k.ko(), Some((pt(k.geometry(), (2, 1)), b)));
    step(&mut k, &mut r, b, Some((2, 1)), Err(IllegalMove::Ko));
    // Any other move lifts it too.
    step(&mut k, &mut r, b, Some((4, 3)), Ok(()));
    step(&mut k, &mut r, w, Some((0, 4)), Ok(()));
    step(&mut k, &mut r, b, Some((2, 1)), Ok(()));
    assert_eq!(k.captured(b), 1);
    assert_eq!(k.captured(w), 2);
}

#[test]
fn capturing_two_stones_is_not_ko() {
    let (mut k, mut r) = setup(
        Geometry::<5, 1>::new(),
        &[
            ". . . . .", //
            "X . . . .",
            "O X . . .",
            "O X . . .",
            ". O . . .",
        ],
    );
    let (b, w) = (Color::Black, Color::White);
    // The lone capturing stone is left with one liberty, but it took two stones.
    step(&mut k, &mut r, b, Some((0, 0)), Ok(()));
    assert_eq!(
        (k.captured(w), k.ko(), k.liberties(pt(k.geometry(), (0, 0)))),
        (2, None, 1)
    );
    step(&mut k, &mut r, w, Some((0, 1)), Ok(()));
    assert_eq!((k.captured(b), k.ko()), (1, None));
}

#[test]
fn capturing_stone_that_joins_a_string_is_not_ko() {
    let (mut k, mut r) = setup(
        Geometry::<5, 1>::new(),
        &[
            ". . . . .", //
            ". . . . .",
            ". O O . .",
            "X O X O .",
            "O . X O .",
        ],
    );
    let (b, w) = (Color::Black, Color::White);
    // Takes one stone and is left with one liberty, but as part of a three-stone string.
    step(&mut k, &mut r, b, Some((1, 0)), Ok(()));
    assert_eq!(
        (k.captured(w), k.ko(), k.liberties(pt(k.geometry(), (1, 0)))),
        (1, None, 1)
    );
    step(&mut k, &mut r, w, Some((0, 0)), Ok(()));
    assert_eq!((k.captured(b), k.ko()), (3, None));
}

#[test]
fn single_and_multi_stone_suicide_are_illegal() {
    let (mut k, mut r) = setup(
        Geometry::<5, 1>::new(),
        &[
            ". O X O .", //
            "O O . O .",
            ". . O . .",
            ". . . . .",
            ". . . . .",
        ],
    );
    let (b, w) = (Color::Black, Color::White);
    step(&mut k, &mut r, b, Some((0, 4)), Err(IllegalMove::Suicide));
    step(&mut k, &mut r, b, Some((2, 3)), Err(IllegalMove::Suicide));
    assert!(!k
        .non_suicide_mask(b)
        .contains(pt(k.geometry(), (2, 3)).index()));
    assert!(!k.candidates(b).contains(pt(k.geometry(), (0, 4)).index()));
    step(&mut k, &mut r, b, Some((4, 0)), Ok(()));
    // White's own eye: legal, but not a candidate.
    assert!(k.is_legal(w, pt(k.geometry(), (0, 4))));
    assert!(!k.is_candidate(w, pt(k.geometry(), (0, 4))));
    // White filling (2, 3) captures the black stone, joining strings: legal, no ko.
    step(&mut k, &mut r, w, Some((2, 3)), Ok(()));
    assert_eq!((k.captured(b), k.ko()), (1, None));
    step(&mut k, &mut r, b, Some((2, 4)), Err(IllegalMove::Suicide));
    step(&mut k, &mut r, b, Some((1, 0)), Ok(()));
    step(&mut k, &mut r, w, Some((0, 4)), Ok(()));
    step(&mut k, &mut r, b, Some((2, 4)), Err(IllegalMove::Suicide));
    step(&mut k, &mut r, b, Some((0, 3)), Err(IllegalMove::Occupied));
}

#[test]
fn eyelike_points_follow_the_diagonal_rule() {
    // (rows, point, colour, eyelike?)
    let cases: &[([&str; 5], Xy, Color, bool)] = &[
        // Centre: up to one enemy diagonal.
        (
            [
                ". . . . .",
                ". . X . .",
                ". X . X .",
                ". . X . .",
                ". . . . .",
            ],
            (2, 2),
            Color::Black,
            true,
        ),
        (
            [
                ". . . . .",
                ". O X . .",
                ". X . X .",
                ". . X . .",
                ". . . . .",
            ],
            (2, 2),
            Color::Black,
            true,
        ),
        (
            [
                ". . . . .",
                ". O X . .",
                ". X . X .",
                ". . X O .",
                ". . . . .",
            ],
            (2, 2),
            Color::Black,
            false,
        ),
        (
            [
                ". . . . .",
                ". O X O .",
                ". X . X .",
                ". . X . .",
                ". . . . .",
            ],
            (2, 2),
            Color::Black,
            false,
        ),
        // Not eyelike for the other colour, nor with an empty or enemy neighbour.
        (
            [
                ". . . . .",
                ". . X . .",
                ". X . X .",
                ". . X . .",
                ". . . . .",
            ],
            (2, 2),
            Color::White,
            false,
        ),
        (
            [
                ". . . . .",
                ". . X . .",
                ". X . X .",
                ". . . . .",
                ". . . . .",
            ],
            (2, 2),
            Color::Black,
            false,
        ),
        (
            [
                ". . . . .",
                ". . X . .",
                ". X . X .",
                ". . O . .",
                ". . . . .",
            ],
            (2, 2),
            Color::Black,
            false,
        ),
        // Edge: no enemy diagonal at all.
        (
            [
                ". . . . .",
                ". . . . .",
                ". . . . .",
                ". . X . .",
                ". X . X .",
            ],
            (2, 0),
            Color::Black,
            true,
        ),
        (
            [
                ". . . . .",
                ". . . . .",
                ". . . . .",
                ". O X . .",
                ". X . X .",
            ],
            (2, 0),
            Color::Black,
            false,
        ),
        (
            [
                "O . O . .",
                ". O . . .",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            (1, 4),
            Color::White,
            true,
        ),
        // Corner: likewise.
        (
            [
                ". . . . .",
                ". . . . .",
                ". . . . .",
                "O . . . .",
                ". O . . .",
            ],
            (0, 0),
            Color::White,
            true,
        ),
        (
            [
                ". . . . .",
                ". . . . .",
                ". . . . .",
                "O X . . .",
                ". O . . .",
            ],
            (0, 0),
            Color::White,
            false,
        ),
        (
            [
                ". . . X .",
                ". . . . X",
                ". . . . .",
                ". . . . .",
                ". . . . .",
            ],
            (4, 4),
            Color::Black,
            true,
        ),
    ];
    for (rows, p, c, want) in cases {
        let (k, r) = setup(Geometry::<5, 1>::new(), rows);
        let ctx = format!("{rows:?} {c} at {p:?}");
        assert_eq!(r.is_eyelike(*c, *p), *want, "reference: {ctx}");
        assert_eq!(
            k.is_eyelike(*c, pt(k.geometry(), *p)),
            *want,
            "kernel: {ctx}"
        );
        assert_eq!(
            k.eyelike_mask(*c).contains(pt(k.geometry(), *p).index()),
            *want,
            "mask: {ctx}"
        );
        let candidate = !*want && r.is_legal(*c, *p);
        assert_eq!(
            k.candidates(*c).contains(pt(k.geometry(), *p).index()),
            candidate,
            "candidates: {ctx}"
        );
        assert_same(&k, &r, &ctx);
    }
}

#[test]
fn area_counts_stones_and_single_coloured_surroundings() {
    let (k, r) = setup(
        Geometry::<4, 1>::new(),
        &[
            ". X O .", //
            "X X O .", ". X O .", ". X O .",
        ],
    );
    // Black: five stones and the corner point between two of them.
    assert_eq!(k.area(Color::Black).count(), 6);
    assert_eq!(k.area(Color::White).count(), 4);
    assert_eq!(k.area_score(), 2);
    assert_same(&k, &r, "4x4 split");
    // An empty point next to an empty point, or next to both colours, belongs to nobody.
    let (k, r) = setup(
        Geometry::<5, 1>::new(),
        &[
            ". X O . .", //
            ". X O . .",
            ". X O . .",
            ". X O . .",
            ". X O . .",
        ],
    );
    assert_eq!(k.area_score(), 0);
    assert_eq!(k.area(Color::Black), k.stones(Color::Black));
    assert_same(&k, &r, "5x5 split");
    let (k, r) = setup(
        Geometry::<3, 1>::new(),
        &[
            "X . O", //
            "X . O", "X . O",
        ],
    );
    assert_eq!((k.area(Color::Black).count(), k.area_score()), (3, 0));
    assert_same(&k, &r, "3x3 with a shared column");
}
