//! Arbitrary bytes as calls of the board's public API with arbitrary bit indices, on a 5x5 (first
//! byte 0 mod 3), 9x9 (1) or 19x19 (2) board: every safe function must answer, or panic where its
//! documentation says it does, and never read or write outside the board (the sanitizers of
//! `cargo fuzz` catch what a plain run would not).
//!
//! Each op is a byte and a 16-bit index `i` (two bytes, little-endian): `op % 8` selects
//! * 0: `play` of `Point::from_index(i)` for the side to move: a move off the board is refused
//!   with `OffBoard` and leaves the board as it was; a legal move keeps `verify()` true;
//! * 1: `play_unchecked` of the `i mod (N * N)`-th point if `check` says it is legal;
//! * 2: the point queries (`color_at`, `chain_at`, `liberties`, `is_on_board`, `is_legal`,
//!   `check`) at `i`, and `coords` of it;
//! * 3: `is_eyelike` and `is_candidate` at the `i mod (N * N)`-th point when it is empty (their
//!   precondition), compared with `is_legal`;
//! * 4: `cell_at` and `ring_code` at `i` (any index reads a cell);
//! * 5: `Geometry::neighbours_of` and `Geometry::key` at `i` below the capacity (`64 * W`),
//!   and `Bitboard::contains`, `single`, `insert`, `remove` at any `i`;
//! * 6: `empty_at` and `swap_empties` with `i` reduced below the empty count;
//! * 7: a pass (bit 3 of the op clear) or only the move handed to the other colour (set).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen::board::{Bitboard, Board, BoardSize, Color, Geometry, IllegalMove, Move, Point};

fuzz_target!(|data: &[u8]| {
    let Some((&size, ops)) = data.split_first() else {
        return;
    };
    match size % 3 {
        // 5x5 on the shared path, the copy the small sizes without their own run
        // (`shared_words` is 2 for them).
        0 => run(Geometry::<0, 2>::of(BoardSize::new(5).unwrap()).unwrap(), ops),
        1 => run(Geometry::<9, 2>::new(), ops),
        _ => run(Geometry::<19, 6>::new(), ops),
    }
});

fn run<const N: usize, const W: usize>(geo: Geometry<N, W>, data: &[u8]) {
    let mut b = Board::with_geometry(geo);
    let n = geo.n();
    let mut c = Color::Black;
    for op in data.chunks_exact(3) {
        let i = usize::from(u16::from_le_bytes([op[1], op[2]]));
        let p = Point::from_index(i);
        let k = i % (n * n);
        let nth = b.point(k % n, k / n).expect("on the board");
        match op[0] % 8 {
            0 => {
                let before = b.clone();
                match b.play(c, Move::Play(p)) {
                    Ok(()) => {
                        assert!(b.is_on_board(p));
                        c = !c;
                    }
                    Err(e) => {
                        if !b.is_on_board(p) {
                            assert_eq!(e, IllegalMove::OffBoard);
                        }
                        assert!(before == b, "a refused move changed the board");
                    }
                }
            }
            1 => {
                if b.check(c, Move::Play(nth)).is_ok() {
                    b.play_unchecked(c, nth);
                    c = !c;
                }
            }
            2 => {
                let stone = b.color_at(p);
                let chain = b.chain_at(p);
                assert_eq!(stone.is_some(), chain.is_some());
                if let Some(ch) = chain {
                    assert!(ch.stones.contains(i) && ch.lib_count == ch.libs.count());
                    assert_eq!(b.liberties(p), ch.lib_count);
                } else {
                    assert_eq!(b.liberties(p), 0);
                }
                let legal = b.is_legal(c, p);
                assert_eq!(legal, b.check(c, Move::Play(p)).is_ok());
                assert!(!legal || b.is_on_board(p));
                let _ = b.coords(p);
            }
            3 => {
                if b.color_at(nth).is_none() {
                    let cand = b.is_candidate(c, nth);
                    let eye = b.is_eyelike(c, nth);
                    assert_eq!(cand, b.is_legal(c, nth) && !eye);
                }
            }
            4 => {
                let _ = b.cell_at(i);
                let _ = b.ring_code(i);
            }
            5 => {
                let mut set = Bitboard::<W>::single(i);
                assert_eq!(set.contains(i), i < Bitboard::<W>::CAPACITY);
                set.insert(i);
                set.remove(i);
                assert!(set.is_empty());
                if i < Bitboard::<W>::CAPACITY {
                    let n = geo.neighbours_of(i);
                    assert!((n - b.on_board()).is_empty());
                    let _ = geo.key(c.index(), i);
                }
            }
            6 => {
                let n = b.empty_count();
                if n > 0 {
                    let a = u32::from(op[1]) % n;
                    let z = u32::from(op[2]) % n;
                    assert!(b.empty().contains(b.empty_at(a).index()));
                    b.swap_empties(a, z);
                }
            }
            _ => {
                if op[0] & 8 == 0 {
                    b.pass();
                }
                c = !c;
            }
        }
        if let Err(e) = b.verify() {
            panic!("verify: {e}\n{b}");
        }
    }
}
