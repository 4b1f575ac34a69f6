//! The board kernel: bitboards, the board layout, and the fast playout position.
//!
//! Knows nothing of playouts, search or protocols. Sizes are types: [`Board9`], [`Board13`],
//! [`Board19`], or `Board<N, { words_for(N) }>` for any `N` from 2 to 19 (see
//! [`with_board_size!`](crate::with_board_size) to pick one at run time).

pub mod bitboard;
pub mod diagram;
pub mod geometry;
pub mod light;
pub mod position;
pub mod types;

pub use bitboard::Bitboard;
pub use diagram::{DiagramError, COLUMNS};
pub use geometry::{words_for, Geometry, MAX_SIZE};
pub use light::LightBoard;
pub use position::{Board, Board13, Board19, Board9, Chain, IllegalMove, SetupError};
pub use types::{ByColor, Color, Move, Point};

/// Board sizes that can be chosen at run time.
pub const SUPPORTED_SIZES: [usize; 18] = [
    2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
];

/// Runs `$body` with `$B` bound to the board type of side `$n` (any of [`SUPPORTED_SIZES`]);
/// evaluates `$otherwise` for any other size.
#[macro_export]
macro_rules! with_board_size {
    ($n:expr, $B:ident => $body:expr, _ => $otherwise:expr) => {{
        use $crate::board::Board;
        match $n {
            2 => {
                type $B = Board<2, 1>;
                $body
            }
            3 => {
                type $B = Board<3, 1>;
                $body
            }
            4 => {
                type $B = Board<4, 1>;
                $body
            }
            5 => {
                type $B = Board<5, 1>;
                $body
            }
            6 => {
                type $B = Board<6, 1>;
                $body
            }
            7 => {
                type $B = Board<7, 1>;
                $body
            }
            8 => {
                type $B = Board<8, 2>;
                $body
            }
            9 => {
                type $B = Board<9, 2>;
                $body
            }
            10 => {
                type $B = Board<10, 2>;
                $body
            }
            11 => {
                type $B = Board<11, 3>;
                $body
            }
            12 => {
                type $B = Board<12, 3>;
                $body
            }
            13 => {
                type $B = Board<13, 3>;
                $body
            }
            14 => {
                type $B = Board<14, 4>;
                $body
            }
            15 => {
                type $B = Board<15, 4>;
                $body
            }
            16 => {
                type $B = Board<16, 5>;
                $body
            }
            17 => {
                type $B = Board<17, 5>;
                $body
            }
            18 => {
                type $B = Board<18, 6>;
                $body
            }
            19 => {
                type $B = Board<19, 6>;
                $body
            }
            _ => $otherwise,
        }
    }};
}
