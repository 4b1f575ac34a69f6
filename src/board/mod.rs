//! The board kernel: bitboards, the board layout, and the fast playout position.
//!
//! Knows nothing of playouts, search or protocols. Sizes are types: [`Board9`], [`Board13`],
//! [`Board19`], or `Board<N, { words_for(N) }>` for any `N` from 2 to 19. Above the kernel a
//! size is a [`BoardSize`] value, turned into these types in one place, [`with_size`].

pub mod bitboard;
pub mod diagram;
pub mod geometry;
pub mod ladder;
pub mod lanes;
pub mod light;
pub mod limits;
pub mod position;
pub mod shared;
pub mod size;
mod tables;
pub mod types;

pub use bitboard::Bitboard;
pub use diagram::{DiagramError, COLUMNS};
pub use geometry::Geometry;
pub use lanes::LaneBoard;
pub use light::LightBoard;
pub use limits::{words_for, MAX_SIZE, MIN_SIZE};
pub use position::{Board, Board13, Board19, Board9, Chain, IllegalMove, SetupError};
pub use size::{is_specialised, with_size, BoardSize, SizeTask, Specialised};
pub use types::{ByColor, Color, Move, Point};

/// The public board API on indices off the board: a clean panic where the documentation says
/// so, an error or a plain answer otherwise, never a read outside the board (the fuzz target
/// `board_api` drives the same API with arbitrary indices under the sanitizers).
#[cfg(test)]
mod out_of_range {
    use super::*;

    #[test]
    #[should_panic(expected = "index out of bounds")]
    fn neighbours_of_an_index_beyond_the_capacity_panics() {
        let _ = Geometry::<9, 2>::new().neighbours_of(100_000);
    }

    #[test]
    #[should_panic(expected = "index out of bounds")]
    fn zobrist_key_of_an_index_beyond_the_capacity_panics() {
        let _ = Geometry::<9, 2>::new().key(0, 128);
    }

    /// The shared path's keys: its side's table covers the side's own words only; past them,
    /// up to the capacity, an index is off the board and its key is 0; at the capacity it
    /// panics like a constant side's.
    #[test]
    fn shared_path_keys_past_the_sides_words_are_zero() {
        let five = BoardSize::new(5).unwrap();
        let g = Geometry::<0, 2>::of(five).unwrap();
        assert_eq!(g.n(), 5);
        assert_ne!(g.key(1, 63), 0);
        assert_eq!(g.key(0, 69), 0);
        assert_eq!(g.key(1, 127), 0);
        assert_eq!(g.key(0, 8), Geometry::<5, 1>::new().key(0, 8));
        let beyond = std::panic::catch_unwind(|| g.key(0, 128));
        assert!(beyond.is_err());
    }

    /// A shared-path geometry is made only for a side whose layout fits its words, and a
    /// constant side's only for that side.
    #[test]
    fn a_geometry_is_made_only_for_a_side_that_fits() {
        for s in BoardSize::all() {
            let n = s.get();
            assert_eq!(Geometry::<0, 2>::of(s).is_some(), words_for(n) <= 2, "{n}");
            assert_eq!(Geometry::<0, 4>::of(s).is_some(), words_for(n) <= 4, "{n}");
            assert!(Geometry::<0, 6>::of(s).is_some_and(|g| g.n() == n && g.size() == s));
            assert_eq!(Geometry::<9, 2>::of(s).is_some(), n == 9, "{n}");
        }
    }

    #[test]
    #[should_panic(expected = "index out of bounds")]
    fn zobrist_key_of_a_colour_index_beyond_white_panics() {
        let _ = Geometry::<9, 2>::new().key(2, 0);
    }

    #[test]
    #[should_panic(expected = "bit index out of range")]
    fn a_point_beyond_every_board_panics() {
        let _ = Point::from_index(usize::from(u16::MAX) + 1);
    }

    // What an optimised build does with a broken precondition; a debug build stops earlier,
    // at the `debug_assert!` that checks it.
    #[test]
    #[cfg_attr(debug_assertions, ignore = "debug builds check the precondition first")]
    #[should_panic(expected = "index out of bounds")]
    fn play_unchecked_far_off_the_board_panics() {
        let mut b = Board9::new();
        b.play_unchecked(Color::Black, Point::from_index(usize::from(u16::MAX)));
    }

    #[test]
    #[cfg_attr(
        debug_assertions,
        ignore = "debug builds check the raw views' precondition"
    )]
    fn off_board_moves_are_refused_and_queries_answer() {
        let mut b = Board9::new();
        for (k, m) in ["E5", "D5", "E4", "D4", "F5"].iter().enumerate() {
            let (x, y) = (
                usize::from(m.as_bytes()[0] - b'A'),
                usize::from(m.as_bytes()[1] - b'1'),
            );
            let c = if k % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            b.play(c, Move::Play(Board9::new().point(x, y).unwrap()))
                .unwrap();
        }
        let before = b.clone();
        for i in 0..=usize::from(u16::MAX) {
            let p = Point::from_index(i);
            let on = Board9::new().is_on_board(p);
            if !on {
                assert_eq!(
                    b.play(Color::White, Move::Play(p)),
                    Err(IllegalMove::OffBoard)
                );
                assert!(!b.is_legal(Color::Black, p));
            }
            assert_eq!(b.color_at(p).is_some(), b.chain_at(p).is_some());
            let _ = (b.liberties(p), b.cell_at(i), b.ring_code(i));
            let _ = (b.stone_libs(i), b.stone_root(i), b.stone_chain(i).size);
            if i < Bitboard::<2>::CAPACITY {
                let _ = b.libs_after_lower_bound(Color::Black, i);
            }
        }
        assert!(b == before);
        b.verify().unwrap();
    }
}
