//! Arbitrary bytes as a sequence of moves on a 9x9, 19x19 or 7x7 board (the first byte mod 3:
//! two specialised sizes and one of the shared path).
//!
//! After every move attempt: `verify()` holds (it recounts the strings, the mailbox and the kept
//! 3x3 codes of every point), the incremental hash equals the one recomputed
//! from the stones, `candidates`, `eyelike_mask` and `non_suicide_mask` equal masks built point
//! by point from `is_legal` / `is_eyelike` / `is_candidate`, a refused move left the board as it
//! was, and the naive reference board of `tests/common` accepted and refused the same moves
//! and holds the same stones, ko and captures.
//!
//! Bytes: `0x00..=0xdf` plays the (byte mod count)-th candidate of the side to move (a pass if
//! there is none); `0xe0..=0xfd` plays the point given by the next byte (9x9, 7x7) or two
//! bytes (19x19), legal or not; `0xfe` passes; `0xff` hands the move to the other colour.
#![no_main]

#[path = "../../tests/common/reference.rs"]
#[allow(dead_code)]
mod reference;

use libfuzzer_sys::fuzz_target;
use reference::{RefBoard, RefIllegal};
use tengen::board::{Bitboard, Board, BoardSize, Color, Geometry, IllegalMove, Move, Point};

fuzz_target!(|data: &[u8]| {
    let Some((&size, moves)) = data.split_first() else {
        return;
    };
    // Two specialised sizes and one of the shared path (`tengen::cpu::is_specialised`).
    match size % 3 {
        0 => run(Geometry::<9, 2>::new(), moves),
        1 => run(Geometry::<19, 6>::new(), moves),
        // 7x7 on the shared path, the copy the small sizes without their own run
        // (`shared_words` is 2 for them).
        _ => run(Geometry::<0, 2>::of(BoardSize::new(7).unwrap()).unwrap(), moves),
    }
});

fn run<const N: usize, const W: usize>(geo: Geometry<N, W>, data: &[u8]) {
    let mut b = Board::with_geometry(geo);
    let n = geo.n();
    let mut r = RefBoard::new(n);
    let mut c = Color::Black;
    let mut bytes = data.iter().copied();
    while let Some(op) = bytes.next() {
        let mv = match op {
            0x00..=0xdf => {
                let cands = b.candidates(c);
                match cands.count() {
                    0 => Move::Pass,
                    n => Move::Play(Point::from_index(cands.select(u32::from(op) % n))),
                }
            }
            0xe0..=0xfd => {
                let lo = usize::from(bytes.next().unwrap_or(0));
                let hi = if n * n > 256 {
                    usize::from(bytes.next().unwrap_or(0))
                } else {
                    0
                };
                let k = (hi << 8 | lo) % (n * n);
                Move::Play(b.point(k % n, k / n).unwrap())
            }
            0xfe => Move::Pass,
            0xff => {
                c = !c;
                continue;
            }
        };

        let before = b.clone();
        let got = b.play(c, mv);
        let want = match mv {
            Move::Pass => {
                r.pass();
                Ok(())
            }
            Move::Play(p) => r
                .play(c, b.coords(p))
                .map(|_| ())
                .map_err(|e| match e {
                    RefIllegal::Occupied => IllegalMove::Occupied,
                    RefIllegal::Ko => IllegalMove::Ko,
                    RefIllegal::Suicide => IllegalMove::Suicide,
                }),
        };
        assert_eq!(got, want, "{c} {mv:?} on\n{before}");
        if got.is_err() {
            assert!(
                before == b && before.hash() == b.hash(),
                "refused {mv:?} changed the board"
            );
        } else {
            c = !c;
        }
        check(&b, &r);
    }
}

fn check<const N: usize, const W: usize>(b: &Board<N, W>, r: &RefBoard) {
    if let Err(e) = b.verify() {
        panic!("verify: {e}\n{b}");
    }
    let mut hash = 0;
    for col in Color::ALL {
        let mut stones = Bitboard::<W>::EMPTY;
        for (x, y) in r.stones_of(col) {
            stones.insert(b.point(x, y).unwrap().index());
        }
        assert_eq!(
            b.stones(col),
            stones,
            "{col} stones differ from the reference\n{b}"
        );
        assert_eq!(b.captured(col), r.captured(col));
        for i in b.stones(col) {
            hash ^= b.geometry().key(col.index(), i);
        }
    }
    assert_eq!(
        b.hash(),
        hash,
        "incremental hash differs from the recomputed one\n{b}"
    );
    assert_eq!(
        b.ko().map(|(p, col)| (b.coords(p), col)),
        r.ko(),
        "ko differs from the reference\n{b}"
    );
    for col in Color::ALL {
        let mut legal = Bitboard::<W>::EMPTY;
        let mut eyelike = Bitboard::<W>::EMPTY;
        let mut candidates = Bitboard::<W>::EMPTY;
        for p in b.empty() {
            let pt = Point::from_index(p);
            let is_legal = b.is_legal(col, pt);
            let is_eyelike = b.is_eyelike(col, pt);
            if is_legal {
                legal.insert(p);
            }
            if is_eyelike {
                eyelike.insert(p);
            }
            if is_legal && !is_eyelike {
                candidates.insert(p);
            }
            assert_eq!(
                b.is_candidate(col, pt),
                is_legal && !is_eyelike,
                "{col} {pt:?}\n{b}"
            );
        }
        assert_eq!(b.candidates(col), candidates, "{col} candidates\n{b}");
        assert_eq!(b.eyelike_mask(col), eyelike, "{col} eyelike mask\n{b}");
        // Without the ko ban, the legal points are exactly the non-suicide ones.
        let mut ko_free = legal;
        if let Some((k, kc)) = b.ko() {
            if kc == col {
                ko_free.insert(k.index());
            }
        }
        assert_eq!(
            b.non_suicide_mask(col),
            ko_free,
            "{col} non-suicide mask\n{b}"
        );
    }
}
