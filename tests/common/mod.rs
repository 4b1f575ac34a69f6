//! Shared test helpers: the naive reference board and the kernel-vs-reference comparison.
//!
//! Each integration test compiles this module on its own and uses a different part of it.
#![allow(dead_code)]

pub mod reference;

use reference::{RefBoard, RefIllegal, Xy};
use tengen::board::{Bitboard, Board, Color, Geometry, IllegalMove, LightBoard, Move, Point};

/// A position reached by a light playout from the empty board cut off after a random number
/// of plies (captures and all), so every kind of mark and string shows up.
pub fn random_position<const N: usize, const W: usize>(
    geo: Geometry<N, W>,
    rng: &mut impl rand_core::RngCore,
) -> Board<N, W> {
    let mut b = LightBoard::with_geometry(geo);
    let plies = rng.next_u32() % (2 * geo.area() as u32 + 1);
    let cfg = tengen::playout::PlayoutConfig {
        komi: 7.5,
        max_moves: plies,
        ..tengen::playout::PlayoutConfig::standard(geo.n())
    };
    tengen::playout::light_playout(&mut b, Color::Black, &cfg, rng);
    Board::from_stones(geo, b.stones(Color::Black), b.stones(Color::White))
        .expect("a playout position")
}

/// The kernel point of `(x, y)`.
pub fn pt<const N: usize, const W: usize>(geo: Geometry<N, W>, p: Xy) -> Point {
    assert!(p.0 < geo.n() && p.1 < geo.n(), "point on the board");
    Point::from_index(geo.index(p.0, p.1))
}

/// The kernel mask of a list of points.
pub fn mask<const N: usize, const W: usize>(geo: Geometry<N, W>, points: &[Xy]) -> Bitboard<W> {
    let mut m = Bitboard::EMPTY;
    for &p in points {
        m.insert(pt(geo, p).index());
    }
    m
}

/// A kernel mask drawn as a grid, for failure messages.
pub fn draw<const N: usize, const W: usize>(geo: Geometry<N, W>, m: Bitboard<W>) -> String {
    Board::with_geometry(geo).mask_diagram(m)
}

/// The kernel's error for a reference refusal.
pub fn kernel_error(e: RefIllegal) -> IllegalMove {
    match e {
        RefIllegal::Occupied => IllegalMove::Occupied,
        RefIllegal::Ko => IllegalMove::Ko,
        RefIllegal::Suicide => IllegalMove::Suicide,
    }
}

/// Builds the kernel board with the reference's stones (no ko, no captures).
pub fn kernel_from_reference<const N: usize, const W: usize>(
    geo: Geometry<N, W>,
    r: &RefBoard,
) -> Board<N, W> {
    Board::from_stones(
        geo,
        mask(geo, &r.stones_of(Color::Black)),
        mask(geo, &r.stones_of(Color::White)),
    )
    .expect("reference position is valid")
}

/// Builds the reference board with the kernel's stones (no ko, no captures).
pub fn reference_from_kernel<const N: usize, const W: usize>(b: &Board<N, W>) -> RefBoard {
    let mut stones = Vec::new();
    for p in b.points() {
        if let Some(c) = b.color_at(p) {
            stones.push((b.coords(p), c));
        }
    }
    RefBoard::from_cells(b.geometry().n(), &stones)
}

/// Asserts that the kernel board and the reference board agree on everything the kernel can
/// be asked: stones, empty points, colours, strings and liberties, legality of every point for
/// both colours (with the error kind), eyelike points, candidates, non-suicide points, hash,
/// area and score, captures and the ko ban; and that the kernel's own `verify` passes.
pub fn assert_same<const N: usize, const W: usize>(k: &Board<N, W>, r: &RefBoard, ctx: &str) {
    let geo = k.geometry();
    assert_eq!(geo.n(), r.n, "{ctx}: kernel and reference sizes");
    let fail = |what: &str, detail: String| -> ! {
        panic!(
            "{ctx}: kernel and reference disagree on {what}\n{detail}\nreference:\n{}\nkernel:\n{k}",
            r.picture()
        )
    };
    if let Err(e) = k.verify() {
        fail("verify()", e);
    }
    for c in Color::ALL {
        let want = mask(geo, &r.stones_of(c));
        if k.stones(c) != want {
            fail(
                &format!("{c} stones"),
                format!(
                    "kernel\n{}reference\n{}",
                    draw(geo, k.stones(c)),
                    draw(geo, want)
                ),
            );
        }
    }
    let empty = r.empty_points();
    if k.empty() != mask(geo, &empty) {
        fail("empty points", draw(geo, k.empty()));
    }
    for p in r.all_points() {
        if k.color_at(pt(geo, p)) != r.get(p) {
            fail("color_at", format!("{p:?}"));
        }
    }

    // Strings: every stone's chain is the flood-filled string through it.
    for s in r.strings() {
        let stones = mask(geo, &s.stones);
        let libs = mask(geo, &s.liberties);
        for &p in &s.stones {
            let Some(ch) = k.chain_at(pt(geo, p)) else {
                fail("chain_at", format!("{p:?}: no chain on a stone"));
            };
            if ch.stones != stones || ch.libs != libs {
                fail(
                    "chain_at",
                    format!(
                        "{p:?}: kernel stones\n{}libs\n{}reference stones\n{}libs\n{}",
                        draw(geo, ch.stones),
                        draw(geo, ch.libs),
                        draw(geo, stones),
                        draw(geo, libs)
                    ),
                );
            }
            if k.liberties(pt(geo, p)) != s.liberties.len() as u32 {
                fail("liberties", format!("{p:?}"));
            }
        }
    }
    for &p in &empty {
        if k.chain_at(pt(geo, p)).is_some() || k.liberties(pt(geo, p)) != 0 {
            fail("chain_at on an empty point", format!("{p:?}"));
        }
    }

    // Legality, eyelike points and candidates, point by point and as masks.
    for c in Color::ALL {
        let mut legal = Vec::new();
        let mut non_suicide = Vec::new();
        let mut eyelike = Vec::new();
        let mut candidates = Vec::new();
        for p in r.all_points() {
            let want = r.check(c, p).map_err(kernel_error);
            let kp = pt(geo, p);
            let got = k.check(c, Move::Play(kp));
            if got != want {
                fail(
                    "check",
                    format!("{c} at {p:?}: kernel {got:?}, reference {want:?}"),
                );
            }
            if k.is_legal(c, kp) != want.is_ok() {
                fail("is_legal", format!("{c} at {p:?}"));
            }
            if r.get(p).is_some() {
                continue;
            }
            let eye = r.is_eyelike(c, p);
            if k.is_eyelike(c, kp) != eye {
                fail("is_eyelike", format!("{c} at {p:?}: reference {eye}"));
            }
            let cand = want.is_ok() && !eye;
            if k.is_candidate(c, kp) != cand {
                fail("is_candidate", format!("{c} at {p:?}: reference {cand}"));
            }
            if want.is_ok() {
                legal.push(p);
            }
            if r.check_ignoring_ko(c, p).is_ok() {
                non_suicide.push(p);
            }
            if eye {
                eyelike.push(p);
            }
            if cand {
                candidates.push(p);
            }
        }
        for (what, got, want) in [
            ("eyelike_mask", k.eyelike_mask(c), mask(geo, &eyelike)),
            (
                "non_suicide_mask",
                k.non_suicide_mask(c),
                mask(geo, &non_suicide),
            ),
            ("candidates", k.candidates(c), mask(geo, &candidates)),
            ("area", k.area(c), mask(geo, &r.area(c))),
        ] {
            if got != want {
                fail(
                    &format!("{what}({c})"),
                    format!("kernel\n{}reference\n{}", draw(geo, got), draw(geo, want)),
                );
            }
        }
        if k.captured(c) != r.captured(c) {
            fail(
                &format!("captured({c})"),
                format!("kernel {}, reference {}", k.captured(c), r.captured(c)),
            );
        }
        // Passing is always allowed.
        if k.check(c, Move::Pass).is_err() {
            fail("check(pass)", String::new());
        }
    }

    if k.hash() != r.zobrist(geo) {
        fail(
            "hash",
            format!("kernel {:#x}, reference {:#x}", k.hash(), r.zobrist(geo)),
        );
    }
    if k.area_score() != r.area_score() {
        fail(
            "area_score",
            format!("kernel {}, reference {}", k.area_score(), r.area_score()),
        );
    }
    let kernel_ko = k.ko().map(|(p, c)| (geo.coords(p.index()), c));
    if kernel_ko != r.ko() {
        fail(
            "ko",
            format!("kernel {kernel_ko:?}, reference {:?}", r.ko()),
        );
    }
}

/// Panics with a picture of both boards unless the light kernel `k` and the reference `r`
/// agree on stones, legality (ko and suicide), candidates (eye shapes), area, hash and ko.
#[allow(dead_code)]
pub fn assert_same_light<const N: usize, const W: usize>(
    k: &LightBoard<N, W>,
    r: &RefBoard,
    ctx: &str,
) {
    let geo = k.geometry();
    assert_eq!(geo.n(), r.n, "{ctx}: kernel and reference sizes");
    let fail = |what: &str, detail: String| -> ! {
        panic!(
            "{ctx}: light kernel and reference disagree on {what}\n{detail}\nreference:\n{}\nkernel:\n{k}",
            r.picture()
        )
    };
    if let Err(e) = k.verify() {
        fail("verify()", e);
    }
    for c in Color::ALL {
        let want = mask(geo, &r.stones_of(c));
        if k.stones(c) != want {
            fail(&format!("{c} stones"), draw(geo, k.stones(c)));
        }
        if k.areas()[c] != mask(geo, &r.area(c)) {
            fail(&format!("{c} area"), draw(geo, k.areas()[c]));
        }
        for p in r.all_points() {
            let kp = pt(geo, p);
            if k.color_at(kp) != r.get(p) {
                fail("color_at", format!("{p:?}"));
            }
            let want = r.check(c, p).map_err(kernel_error);
            let got = k.check(c, Move::Play(kp));
            if got != want {
                fail(
                    "check",
                    format!("{c} at {p:?}: kernel {got:?}, reference {want:?}"),
                );
            }
            if k.is_candidate(c, kp) != (r.get(p).is_none() && r.is_candidate(c, p)) {
                fail("is_candidate", format!("{c} at {p:?}"));
            }
        }
    }
    if k.hash() != r.zobrist(geo) {
        fail("hash", format!("kernel {:#x}", k.hash()));
    }
    if k.area_score() != r.area_score() {
        fail(
            "area_score",
            format!("kernel {}, reference {}", k.area_score(), r.area_score()),
        );
    }
    let kernel_ko = k.ko().map(|(p, c)| (geo.coords(p.index()), c));
    if kernel_ko != r.ko() {
        fail(
            "ko",
            format!("kernel {kernel_ko:?}, reference {:?}", r.ko()),
        );
    }
}

/// Both boards from rows of `X` (Black), `O` (White) and `.`, top row first; spaces ignored.
/// Built without the kernel's diagram parser, so fixtures do not depend on it.
pub fn setup<const N: usize, const W: usize>(
    geo: Geometry<N, W>,
    rows: &[&str],
) -> (Board<N, W>, RefBoard) {
    let n = geo.n();
    assert_eq!(rows.len(), n, "fixture needs {n} rows");
    let mut stones = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let marks: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
        assert_eq!(marks.len(), n, "fixture row {r} needs {n} points");
        for (x, ch) in marks.into_iter().enumerate() {
            let p = (x, n - 1 - r);
            match ch {
                'X' => stones.push((p, Color::Black)),
                'O' => stones.push((p, Color::White)),
                '.' => {}
                _ => panic!("bad fixture mark {ch:?}"),
            }
        }
    }
    let r = RefBoard::from_cells(n, &stones);
    (kernel_from_reference(geo, &r), r)
}
