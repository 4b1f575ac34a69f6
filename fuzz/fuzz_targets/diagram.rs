//! Arbitrary UTF-8 into the diagram parser of 2x2, 9x9 and 19x19 boards: never a panic, and a
//! diagram that parses is a consistent position that draws and parses back to the same stones.
//! The same bytes, read as a map of stones (three values per byte), must also give a position
//! whose drawing parses back, so round trips of full-size boards are reached at once.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen::board::{Bitboard, Board, Color, Geometry};

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        check::<2, 1>(text);
        check::<9, 2>(text);
        check::<19, 6>(text);
    }
    drawn_position::<9, 2>(data);
    drawn_position::<19, 6>(data);
});

/// Stones from `data` (each byte mod 3: empty, Black, White, point by point from A1); a set of
/// stones that is not a position (a string without liberties) is skipped.
fn drawn_position<const N: usize, const W: usize>(data: &[u8]) {
    let mut stones = [Bitboard::<W>::EMPTY; 2];
    for (k, &v) in data.iter().take(N * N).enumerate() {
        if v % 3 != 0 {
            stones[usize::from(v % 3 - 1)]
                .insert(Board::<N, W>::new().point(k % N, k / N).unwrap().index());
        }
    }
    let Ok(b) = Board::<N, W>::from_stones(Geometry::new(), stones[0], stones[1]) else {
        return;
    };
    let drawn = b.to_string();
    match drawn.parse::<Board<N, W>>() {
        Ok(again) => {
            for c in Color::ALL {
                assert_eq!(b.stones(c), again.stones(c), "{N}x{N} round trip\n{drawn}");
            }
        }
        Err(e) => panic!("a drawn {N}x{N} board does not parse back: {e}\n{drawn}"),
    }
}

fn check<const N: usize, const W: usize>(text: &str) {
    let Ok(b) = text.parse::<Board<N, W>>() else {
        return;
    };
    if let Err(e) = b.verify() {
        panic!("parsed board fails verify: {e}\n{b}");
    }
    let drawn = b.to_string();
    let again: Board<N, W> = match drawn.parse() {
        Ok(a) => a,
        Err(e) => panic!("a drawn {N}x{N} board does not parse back: {e}\n{drawn}"),
    };
    for c in Color::ALL {
        assert_eq!(b.stones(c), again.stones(c), "{N}x{N} round trip\n{drawn}");
    }
    assert_eq!(again.to_string(), drawn);
}
