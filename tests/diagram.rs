//! ASCII diagrams: `Display` / `FromStr` round trips on random positions of many sizes, the
//! liberal forms the parser accepts, and its errors (which must never be panics).

mod common;

use common::random_position;
use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg32;
use tengen::board::{Board, Color, DiagramError, Geometry, Move, SetupError};

fn same_stones<const N: usize, const W: usize>(a: &Board<N, W>, b: &Board<N, W>) -> bool {
    a.stones(Color::Black) == b.stones(Color::Black)
        && a.stones(Color::White) == b.stones(Color::White)
        && a.hash() == b.hash()
}

/// Display then FromStr gives back the stones, in the drawn form and in the bare, liberal forms.
fn round_trips<const N: usize, const W: usize>(positions: usize) {
    let mut rng = Pcg32::seed_from_u64(0xd1a6 + N as u64);
    for i in 0..positions {
        let b = random_position(Geometry::<N, W>::new(), &mut rng);
        let drawn = b.to_string();
        let back: Board<N, W> = drawn
            .parse()
            .unwrap_or_else(|e| panic!("{N}x{N} #{i}: {e}\n{drawn}"));
        assert!(same_stones(&b, &back), "{N}x{N} #{i}\n{drawn}\n{back}");
        assert_eq!(back.to_string(), drawn);
        assert_eq!(back.verify(), Ok(()));

        // Only the rows, `+` for empty, lower case, tight spacing, CRLF and blank lines.
        let bare: String = drawn
            .lines()
            .skip(1)
            .take(N)
            .map(|l| {
                let marks: String = l
                    .chars()
                    .filter(|c| matches!(c, 'X' | 'O' | '.'))
                    .map(|c| match c {
                        '.' => '+',
                        'X' if i % 2 == 0 => 'x',
                        'O' if i % 3 == 0 => 'o',
                        c => c,
                    })
                    .collect();
                format!("  {marks}  \r\n\r\n")
            })
            .collect();
        let back: Board<N, W> = bare
            .parse()
            .unwrap_or_else(|e| panic!("{N}x{N} #{i}: {e}\n{bare}"));
        assert!(same_stones(&b, &back), "{N}x{N} #{i}\n{bare}");
    }
}

#[test]
fn display_round_trips_2x2() {
    round_trips::<2, 1>(40);
}

#[test]
fn display_round_trips_3x3() {
    round_trips::<3, 1>(40);
}

#[test]
fn display_round_trips_5x5() {
    round_trips::<5, 1>(40);
}

#[test]
fn display_round_trips_9x9() {
    round_trips::<9, 2>(40);
}

#[test]
fn display_round_trips_13x13() {
    round_trips::<13, 3>(20);
}

/// From 14x14 up the column letters include `O`, so the coordinate line that `Display` writes
/// must not be mistaken for a row of white stones.
#[test]
fn display_round_trips_14x14_coordinate_line_has_an_o() {
    round_trips::<14, 4>(10);
}

#[test]
fn display_round_trips_19x19_coordinate_line_has_an_o() {
    round_trips::<19, 6>(10);
}

// ----- errors -----

type B5 = Board<5, 1>;

#[test]
fn row_of_the_wrong_length() {
    let s = ". . . . .\n. . . .\n. . . . .\n. . . . .\n. . . . .\n";
    assert_eq!(
        s.parse::<B5>().unwrap_err(),
        DiagramError::RowLength {
            line: 2,
            expected: 5,
            found: 4
        }
    );
    let s = "   A B C D E\n 5 . . . . . 5\n 4 . . X O . . 4\n";
    assert_eq!(
        s.parse::<B5>().unwrap_err(),
        DiagramError::RowLength {
            line: 3,
            expected: 5,
            found: 6
        }
    );
}

#[test]
fn unexpected_character() {
    let s = ". . . . .\n. . . . .\n. . # . .\n. . . . .\n. . . . .\n";
    assert_eq!(
        s.parse::<B5>().unwrap_err(),
        DiagramError::BadChar { line: 3, ch: '#' }
    );
    let s = ". . . . .\n. . . . .\n. . . . .\n. . . . .\n. é . . .\n";
    assert_eq!(
        s.parse::<B5>().unwrap_err(),
        DiagramError::BadChar { line: 5, ch: 'é' }
    );
}

#[test]
fn wrong_number_of_rows() {
    let four = ". . . . .\n".repeat(4);
    assert_eq!(
        four.parse::<B5>().unwrap_err(),
        DiagramError::RowCount {
            expected: 5,
            found: 4
        }
    );
    let six = ". . . . .\n".repeat(6);
    assert_eq!(
        six.parse::<B5>().unwrap_err(),
        DiagramError::RowCount {
            expected: 5,
            found: 6
        }
    );
    assert_eq!(
        "".parse::<B5>().unwrap_err(),
        DiagramError::RowCount {
            expected: 5,
            found: 0
        }
    );
}

#[test]
fn string_without_liberties() {
    // The black pair in the lower left corner has no liberty.
    let s = ". . . . .\n. . . . .\nO . . . .\nX O . . .\nX O . . .\n";
    let pair = [
        B5::new().point(0, 0).unwrap(),
        B5::new().point(0, 1).unwrap(),
    ];
    match s.parse::<B5>() {
        Err(DiagramError::Setup(SetupError::NoLiberties(p))) => {
            assert!(pair.contains(&p), "{p:?} is not in the dead string");
        }
        other => panic!("expected NoLiberties, got {other:?}"),
    }
    // A full board has no liberty anywhere.
    let full = "X O\nO X\n";
    assert!(matches!(
        full.parse::<Board<2, 1>>(),
        Err(DiagramError::Setup(SetupError::NoLiberties(_)))
    ));
    // The same stones with one liberty are fine.
    let s = ". . . . .\n. . . . .\n. . . . .\nX O . . .\nX O . . .\n";
    let b: B5 = s.parse().unwrap();
    assert_eq!(b.liberties(B5::new().point(0, 0).unwrap()), 1);
    assert_eq!(b.ko(), None);
}

#[test]
fn parsed_position_has_the_drawn_coordinates_and_plays_on() {
    let s = "   A B C D E\n 5 . . . . O 5\n 4 . . . . . 4\n 3 . . . . . 3\n 2 O . . . . 2\n 1 X . . . . 1\n   A B C D E\n";
    let mut b: B5 = s.parse().unwrap();
    let at = |x, y| B5::new().point(x, y).unwrap();
    assert_eq!(b.color_at(at(0, 0)), Some(Color::Black));
    assert_eq!(b.color_at(at(0, 1)), Some(Color::White));
    assert_eq!(b.color_at(at(4, 4)), Some(Color::White));
    assert_eq!(
        b.stones(Color::Black).count() + b.stones(Color::White).count(),
        3
    );
    assert_eq!(b.play(Color::White, Move::Play(at(1, 0))), Ok(()));
    assert_eq!((b.color_at(at(0, 0)), b.captured(Color::Black)), (None, 1));
    assert_eq!(b.to_string().lines().nth(5), Some(" 1 . O . . . 1"));
}

/// Random text never makes the parser panic, and whatever parses draws and parses back.
fn garbage<const N: usize, const W: usize>(rng: &mut Pcg32, rounds: usize) {
    const ALPHABET: &[&str] = &[
        "X", "O", "x", "o", ".", "+", " ", " ", "\n", "\n", "\r\n", "\t", "1", "9", "19", "A", "J",
        "T", "#", "é", "語", "\u{0}", "-",
    ];
    for _ in 0..rounds {
        let len = (rng.next_u32() % 200) as usize;
        let mut s = String::new();
        for _ in 0..len {
            s.push_str(ALPHABET[(rng.next_u32() as usize) % ALPHABET.len()]);
        }
        if let Ok(b) = s.parse::<Board<N, W>>() {
            let again: Board<N, W> = b.to_string().parse().expect("a drawn board parses");
            assert!(same_stones(&b, &again));
        }
    }
    // Near misses of a real diagram: one character changed.
    let drawn = random_position(Geometry::<N, W>::new(), rng).to_string();
    let chars: Vec<char> = drawn.chars().collect();
    for _ in 0..rounds {
        let mut v = chars.clone();
        let at = (rng.next_u32() as usize) % v.len();
        let alt = ALPHABET[(rng.next_u32() as usize) % ALPHABET.len()];
        v[at] = alt.chars().next().unwrap_or(' ');
        let s: String = v.into_iter().collect();
        let _ = s.parse::<Board<N, W>>();
    }
}

#[test]
fn random_text_never_panics() {
    let mut rng = Pcg32::seed_from_u64(0xbad);
    garbage::<2, 1>(&mut rng, 2000);
    garbage::<5, 1>(&mut rng, 2000);
    garbage::<9, 2>(&mut rng, 2000);
    garbage::<13, 3>(&mut rng, 1000);
    garbage::<19, 6>(&mut rng, 500);
}
