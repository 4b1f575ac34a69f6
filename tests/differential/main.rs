//! Differential tests: the bitboard kernel against the naive reference board of
//! `tests/common/reference.rs`, on seeded random games of many sizes and on hand-drawn positions.
//!
//! After every move attempt the two boards must agree on everything (see
//! `common::assert_same`), a refused move must leave the kernel board exactly as it was, and the
//! kernel must refuse exactly the moves the reference refuses, for the same reason. The light
//! playout's kernel (`LightBoard`) plays every game beside them and is held to the same.
//!
//! The games are chosen from the reference board alone, so the event counts below depend only
//! on the seeds and the rules: they are pinned as golden numbers to prove that the games keep
//! exercising captures, ko, suicide and the edges. If the rules or this file's move choice change
//! on purpose, run `cargo test --profile test-release --test differential` and paste the
//! printed counts.
//!
//! The random games are here; the hand-drawn positions are in `positions`.

#[path = "../common/mod.rs"]
mod common;
mod positions;

use common::reference::{RefBoard, RefIllegal, Xy};
use common::{assert_same, assert_same_light, kernel_error, pt, reference_from_kernel, setup};
use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg32;
use tengen::board::shared::shared_words;
use tengen::board::{with_size, Board, BoardSize, Color, Geometry, IllegalMove, LightBoard};
use tengen::board::{Move, SizeTask};

/// How a random game picks its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    /// Any empty point, uniformly (suicide attempts, ko retakes and eye fills included), with
    /// an occasional pass or attempt on an occupied point.
    Wild,
    /// Mostly the light playout's candidates, trying every ko retake that is offered: many
    /// captures and ko fights, few outright blunders.
    Fighting,
}

/// What the random games of one size did. Every field counts move attempts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    games: u32,
    attempts: u32,
    stones_played: u32,
    passes: u32,
    /// Moves that captured anything.
    captures: u32,
    /// Moves that removed two stones or more.
    multi_stone_captures: u32,
    /// Moves that removed two strings or more.
    multi_string_captures: u32,
    stones_captured: u32,
    /// Moves after which a ko ban was in force.
    ko_bans: u32,
    rejected_ko: u32,
    /// Suicide attempts by a lone stone.
    rejected_single_suicide: u32,
    /// Suicide attempts that would have joined a string of the mover.
    rejected_multi_suicide: u32,
    rejected_occupied: u32,
    /// Legal stones on the edge (corners included) and in a corner.
    edge_moves: u32,
    corner_moves: u32,
    /// Legal stones played into a point that was eyelike for the mover.
    eye_fills: u32,
}

impl Counts {
    fn row(&self) -> [u32; 16] {
        [
            self.games,
            self.attempts,
            self.stones_played,
            self.passes,
            self.captures,
            self.multi_stone_captures,
            self.multi_string_captures,
            self.stones_captured,
            self.ko_bans,
            self.rejected_ko,
            self.rejected_single_suicide,
            self.rejected_multi_suicide,
            self.rejected_occupied,
            self.edge_moves,
            self.corner_moves,
            self.eye_fills,
        ]
    }

    fn add(&mut self, o: &Counts) {
        self.games += o.games;
        self.attempts += o.attempts;
        self.stones_played += o.stones_played;
        self.passes += o.passes;
        self.captures += o.captures;
        self.multi_stone_captures += o.multi_stone_captures;
        self.multi_string_captures += o.multi_string_captures;
        self.stones_captured += o.stones_captured;
        self.ko_bans += o.ko_bans;
        self.rejected_ko += o.rejected_ko;
        self.rejected_single_suicide += o.rejected_single_suicide;
        self.rejected_multi_suicide += o.rejected_multi_suicide;
        self.rejected_occupied += o.rejected_occupied;
        self.edge_moves += o.edge_moves;
        self.corner_moves += o.corner_moves;
        self.eye_fills += o.eye_fills;
    }
}

fn below(rng: &mut Pcg32, n: usize) -> usize {
    ((u64::from(rng.next_u32()) * n as u64) >> 32) as usize
}

fn chance(rng: &mut Pcg32, per_mille: u32) -> bool {
    rng.next_u32() % 1000 < per_mille
}

/// What to try next, chosen from the reference board only.
fn choose(r: &RefBoard, c: Color, style: Style, rng: &mut Pcg32) -> Option<Xy> {
    match style {
        Style::Wild => {
            if chance(rng, 20) {
                return None;
            }
            if chance(rng, 20) {
                let all = r.all_points();
                return Some(all[below(rng, all.len())]);
            }
            let empty = r.empty_points();
            (!empty.is_empty()).then(|| empty[below(rng, empty.len())])
        }
        Style::Fighting => {
            if let Some((k, kc)) = r.ko() {
                if kc == c && chance(rng, 700) {
                    return Some(k);
                }
            }
            if chance(rng, 100) {
                let empty = r.empty_points();
                return (!empty.is_empty()).then(|| empty[below(rng, empty.len())]);
            }
            let cands = r.candidates(c);
            (!cands.is_empty()).then(|| cands[below(rng, cands.len())])
        }
    }
}

/// Asserts that a refused move left the board exactly as it was.
fn assert_unchanged<const N: usize, const W: usize>(
    before: &Board<N, W>,
    after: &Board<N, W>,
    ctx: &str,
) {
    assert!(
        before == after
            && before.hash() == after.hash()
            && before.empty() == after.empty()
            && before.captured(Color::Black) == after.captured(Color::Black)
            && before.captured(Color::White) == after.captured(Color::White),
        "{ctx}: a refused move changed the board\nbefore:\n{before}\nafter:\n{after}"
    );
    for p in before.points() {
        assert_eq!(
            before.chain_at(p),
            after.chain_at(p),
            "{ctx}: a refused move changed the chain at {p:?}"
        );
    }
}

/// Plays `attempts` move attempts of random games in `style` on an `N x N` board, checking the
/// kernel against the reference after each, and returns what happened.
fn random_games<const N: usize, const W: usize>(
    geo: Geometry<N, W>,
    seed: u64,
    style: Style,
    attempts: u32,
) -> Counts {
    let mut rng = Pcg32::seed_from_u64(seed);
    let mut counts = Counts::default();
    let mut k = Board::with_geometry(geo);
    let mut light = LightBoard::with_geometry(geo);
    let mut r = RefBoard::new(geo.n());
    // A board that held another position, to check that `copy_from` leaves no stale state.
    let mut spare = Board::with_geometry(geo);
    let cap = 3 * geo.area();
    let mut to_move = Color::Black;
    let mut plies = 0;
    let mut passes = 0;
    let mut refusals = 0;
    counts.games = 1;
    for attempt in 0..attempts {
        counts.attempts += 1;
        let n = geo.n();
        let ctx = format!("{n}x{n} {style:?} seed {seed:#x} attempt {attempt}");
        let choice = if refusals >= 4 {
            None
        } else {
            choose(&r, to_move, style, &mut rng)
        };
        match choice {
            None => {
                k.play(to_move, Move::Pass).expect("a pass is always legal");
                light
                    .play(to_move, Move::Pass)
                    .expect("a pass is always legal");
                r.pass();
                counts.passes += 1;
                passes += 1;
                refusals = 0;
                plies += 1;
                to_move = !to_move;
            }
            Some(p) => {
                let was_eyelike = r.get(p).is_none() && r.is_eyelike(to_move, p);
                let before = k.clone();
                let kp = pt(geo, p);
                let checked = k.check(to_move, Move::Play(kp));
                let got = k.play(to_move, Move::Play(kp));
                assert_eq!(checked, got, "{ctx}: check and play disagree at {p:?}");
                let light_before = light.clone();
                let light_got = light.play(to_move, Move::Play(kp));
                assert_eq!(light_got, got, "{ctx}: the light board disagrees at {p:?}");
                if light_got.is_err() {
                    assert!(
                        light == light_before,
                        "{ctx}: a refused move changed the light board"
                    );
                }
                let want = r.play(to_move, p);
                match (&want, got) {
                    (Ok(effect), Ok(())) => {
                        counts.stones_played += 1;
                        let removed = effect.removed.len() as u32;
                        counts.stones_captured += removed;
                        counts.captures += u32::from(removed > 0);
                        counts.multi_stone_captures += u32::from(removed > 1);
                        counts.multi_string_captures += u32::from(effect.strings_removed > 1);
                        counts.ko_bans += u32::from(r.ko().is_some());
                        counts.edge_moves += u32::from(r.is_edge(p));
                        counts.corner_moves += u32::from(r.is_corner(p));
                        counts.eye_fills += u32::from(was_eyelike);
                        passes = 0;
                        refusals = 0;
                        plies += 1;
                        to_move = !to_move;
                    }
                    (Err(e), Err(got)) if kernel_error(*e) == got => {
                        assert_unchanged(&before, &k, &ctx);
                        refusals += 1;
                        match e {
                            RefIllegal::Occupied => counts.rejected_occupied += 1,
                            RefIllegal::Ko => counts.rejected_ko += 1,
                            RefIllegal::Suicide => {
                                if r.neighbours(p).any(|q| r.get(q) == Some(to_move)) {
                                    counts.rejected_multi_suicide += 1;
                                } else {
                                    counts.rejected_single_suicide += 1;
                                }
                            }
                        }
                    }
                    _ => panic!(
                        "{ctx}: {to_move} at {p:?}: kernel {got:?}, reference {want:?}\nposition before:\n{before}"
                    ),
                }
            }
        }
        assert_same(&k, &r, &ctx);
        assert_same_light(&light, &r, &ctx);

        // Now and then, check the other ways of making a position.
        if attempt % 61 == 30 {
            spare.copy_from(&k);
            assert_same(&spare, &r, &format!("{ctx}, copy_from"));
            std::mem::swap(&mut k, &mut spare);
        }
        if attempt % 97 == 50 {
            let rebuilt = Board::from_stones(geo, k.stones(Color::Black), k.stones(Color::White))
                .expect("a reachable position is a valid setup");
            assert_same(
                &rebuilt,
                &reference_from_kernel(&k),
                &format!("{ctx}, from_stones"),
            );
        }

        if passes >= 2 || plies >= cap {
            k.clear();
            light.clear();
            r = RefBoard::new(geo.n());
            assert_same(&k, &r, &format!("{ctx}, clear"));
            to_move = Color::Black;
            plies = 0;
            passes = 0;
            refusals = 0;
            counts.games += 1;
        }
    }
    counts
}

/// Golden event counts of the random games, one row per size and style, in the order of the
/// fields of [`Counts`]:
///
/// games, attempts, stones_played, passes, captures, multi_stone_captures,
/// multi_string_captures, stones_captured, ko_bans, rejected_ko, rejected_single_suicide,
/// rejected_multi_suicide, rejected_occupied, edge_moves, corner_moves, eye_fills.
///
/// To regenerate after an intended change of the rules or of the move choice:
/// `cargo test --profile test-release --test differential`, and paste the rows the failures
/// print.
const GOLDEN: &[(usize, Style, [u32; 16])] = &[
    (
        2,
        Style::Wild,
        [
            103, 1500, 1130, 92, 475, 281, 0, 907, 0, 0, 254, 8, 16, 1130, 1130, 68,
        ],
    ),
    (
        2,
        Style::Fighting,
        [
            155, 1500, 1306, 184, 547, 284, 0, 950, 0, 0, 10, 0, 0, 1306, 1306, 12,
        ],
    ),
    (
        3,
        Style::Wild,
        [
            41, 1500, 948, 120, 229, 139, 21, 702, 7, 4, 276, 132, 20, 854, 437, 77,
        ],
    ),
    (
        3,
        Style::Fighting,
        [
            85, 1500, 1232, 231, 334, 151, 24, 686, 11, 17, 15, 5, 0, 1118, 556, 16,
        ],
    ),
    (
        4,
        Style::Wild,
        [
            24, 1500, 1030, 92, 189, 113, 14, 798, 5, 1, 231, 121, 25, 793, 278, 88,
        ],
    ),
    (
        4,
        Style::Fighting,
        [
            50, 1500, 1250, 187, 281, 128, 36, 639, 17, 38, 19, 6, 0, 970, 326, 20,
        ],
    ),
    (
        5,
        Style::Wild,
        [
            15, 1500, 996, 95, 159, 83, 15, 706, 8, 6, 234, 150, 19, 666, 171, 84,
        ],
    ),
    (
        5,
        Style::Fighting,
        [
            32, 1500, 1312, 136, 265, 124, 30, 671, 15, 31, 16, 5, 0, 881, 224, 23,
        ],
    ),
    (
        6,
        Style::Wild,
        [
            12, 1500, 1067, 77, 150, 79, 14, 752, 11, 1, 198, 138, 19, 631, 138, 93,
        ],
    ),
    (
        6,
        Style::Fighting,
        [
            25, 1500, 1326, 111, 247, 120, 26, 615, 16, 37, 17, 9, 0, 767, 153, 12,
        ],
    ),
    (
        7,
        Style::Wild,
        [
            9, 1500, 1110, 72, 142, 71, 15, 792, 3, 0, 183, 124, 11, 573, 104, 100,
        ],
    ),
    (
        7,
        Style::Fighting,
        [
            18, 1500, 1388, 79, 232, 118, 25, 654, 5, 10, 15, 8, 0, 729, 124, 25,
        ],
    ),
    (
        8,
        Style::Wild,
        [
            8, 1500, 1141, 66, 133, 66, 12, 751, 6, 0, 161, 111, 21, 493, 76, 91,
        ],
    ),
    (
        8,
        Style::Fighting,
        [
            15, 1500, 1392, 78, 214, 104, 27, 584, 7, 12, 12, 6, 0, 659, 96, 15,
        ],
    ),
    (
        9,
        Style::Wild,
        [
            5, 1500, 1091, 66, 134, 64, 19, 832, 10, 2, 186, 139, 16, 442, 60, 93,
        ],
    ),
    (
        9,
        Style::Fighting,
        [
            14, 1500, 1420, 49, 198, 93, 26, 490, 14, 18, 10, 3, 0, 619, 79, 22,
        ],
    ),
    (
        10,
        Style::Wild,
        [
            4, 1000, 764, 46, 83, 42, 5, 523, 2, 0, 117, 61, 12, 280, 30, 57,
        ],
    ),
    (
        10,
        Style::Fighting,
        [
            8, 1000, 954, 24, 132, 60, 22, 296, 7, 12, 10, 0, 0, 374, 47, 10,
        ],
    ),
    (
        11,
        Style::Wild,
        [
            3, 1000, 748, 44, 107, 45, 9, 438, 15, 1, 109, 89, 9, 292, 31, 65,
        ],
    ),
    (
        11,
        Style::Fighting,
        [
            6, 1000, 932, 26, 138, 60, 10, 299, 12, 29, 10, 3, 0, 321, 33, 7,
        ],
    ),
    (
        13,
        Style::Wild,
        [
            2, 1000, 753, 45, 78, 40, 9, 469, 4, 0, 103, 87, 12, 226, 17, 56,
        ],
    ),
    (
        13,
        Style::Fighting,
        [
            5, 1000, 956, 18, 110, 55, 14, 314, 7, 17, 7, 2, 0, 281, 17, 12,
        ],
    ),
    (
        16,
        Style::Wild,
        [
            2, 800, 676, 20, 64, 36, 12, 213, 0, 0, 60, 32, 12, 168, 12, 43,
        ],
    ),
    (
        16,
        Style::Fighting,
        [3, 800, 763, 13, 98, 44, 12, 255, 7, 15, 8, 1, 0, 211, 17, 8],
    ),
    (
        19,
        Style::Wild,
        [
            1, 1000, 704, 41, 83, 47, 19, 354, 3, 1, 139, 97, 18, 165, 10, 80,
        ],
    ),
    (
        19,
        Style::Fighting,
        [3, 1000, 975, 8, 102, 45, 12, 248, 4, 8, 8, 1, 0, 212, 12, 7],
    ),
];

/// Runs both styles on one size and checks the totals against the golden counts.
fn check_size<const N: usize, const W: usize>(geo: Geometry<N, W>, attempts: u32) {
    let n = geo.n();
    let seed = 0x7e46_0000 + n as u64;
    let got = [
        (Style::Wild, random_games(geo, seed, Style::Wild, attempts)),
        (
            Style::Fighting,
            random_games(geo, seed ^ 0xf1, Style::Fighting, attempts),
        ),
    ];
    let mut total = Counts::default();
    total.add(&got[0].1);
    total.add(&got[1].1);
    // Whatever the golden numbers say, the games must reach every kind of event.
    assert!(
        total.captures > 0 && total.multi_stone_captures > 0,
        "{total:?}"
    );
    assert!(total.rejected_single_suicide > 0, "{total:?}");
    assert!(total.rejected_multi_suicide > 0, "{total:?}");
    assert!(total.rejected_occupied > 0 && total.passes > 0, "{total:?}");
    assert!(total.edge_moves > 0 && total.corner_moves > 0, "{total:?}");
    assert!(total.eye_fills > 0, "{total:?}");
    // A 2x2 board has no ko: a lone stone that captures there always has two liberties.
    if n >= 3 {
        assert!(total.ko_bans > 0 && total.rejected_ko > 0, "{total:?}");
        assert!(total.multi_string_captures > 0, "{total:?}");
    }
    let mut mismatch = String::new();
    for (style, counts) in got {
        let golden = GOLDEN
            .iter()
            .find(|(size, s, _)| *size == n && *s == style)
            .map(|g| g.2);
        if golden != Some(counts.row()) {
            mismatch += &format!("    ({n}, Style::{style:?}, {:?}),\n", counts.row());
        }
    }
    assert!(
        mismatch.is_empty(),
        "{n}x{n}: event counts differ from the golden ones; if the change is intended, paste:\n{mismatch}"
    );
}

/// [`check_size`] with `attempts`, on the board types [`with_size`] gives a size.
struct CheckSize(u32);

impl SizeTask for CheckSize {
    type Output = ();
    fn run<const N: usize, const W: usize>(self, geo: Geometry<N, W>) {
        check_size(geo, self.0);
    }
}

/// [`check_size`] on the types the engine runs side `n` on: its own copy for 9, 13 and 19,
/// the shared path's for the others.
fn shared_size(n: usize, attempts: u32) {
    let size = BoardSize::new(n).expect("a supported size");
    assert!(n == 9 || n == 13 || n == 19 || !size.is_specialised());
    with_size(size, CheckSize(attempts));
}

/// The generic kernel instantiated for a size the engine runs on the shared path: the public
/// types work on every size, and play the same games.
#[test]
fn random_games_7x7_own_copy() {
    check_size(Geometry::<7, 1>::new(), 1500);
}

#[test]
fn random_games_2x2() {
    shared_size(2, 1500);
}

#[test]
fn random_games_3x3() {
    shared_size(3, 1500);
}

#[test]
fn random_games_4x4() {
    shared_size(4, 1500);
}

#[test]
fn random_games_5x5() {
    shared_size(5, 1500);
}

#[test]
fn random_games_6x6() {
    shared_size(6, 1500);
}

#[test]
fn random_games_7x7() {
    shared_size(7, 1500);
}

#[test]
fn random_games_8x8() {
    shared_size(8, 1500);
}

#[test]
fn random_games_9x9() {
    shared_size(9, 1500);
}

#[test]
fn random_games_10x10() {
    shared_size(10, 1000);
}

#[test]
fn random_games_11x11() {
    shared_size(11, 1000);
}

#[test]
fn random_games_13x13() {
    shared_size(13, 1000);
}

#[test]
fn random_games_16x16() {
    shared_size(16, 800);
}

#[test]
fn random_games_19x19() {
    shared_size(19, 1000);
}

// ----- longer games, in optimised builds -----

/// Many more games than the golden ones, without golden counts: volume for optimised test builds.
fn soak<const N: usize, const W: usize>(geo: Geometry<N, W>, seed: u64, attempts: u32) {
    let mut total = random_games(geo, seed, Style::Wild, attempts);
    total.add(&random_games(geo, seed ^ 1, Style::Fighting, attempts));
    assert!(
        total.multi_stone_captures > 0 && total.rejected_multi_suicide > 0,
        "{total:?}"
    );
    assert!(total.rejected_ko > 0 && total.games > 2, "{total:?}");
}

#[test]
#[cfg_attr(debug_assertions, ignore = "long: run optimised")]
fn long_random_games_small_boards() {
    // The shared path, as the engine runs these sizes.
    for (n, seed) in [(4, 0x50a4), (5, 0x50a5), (7, 0x50a7)] {
        assert_eq!(shared_words(n), 2);
        let geo = Geometry::<0, 2>::of(BoardSize::new(n).unwrap()).unwrap();
        soak(geo, seed, 10_000);
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore = "long: run optimised")]
fn long_random_games_9x9() {
    soak(Geometry::<9, 2>::new(), 0x50a9, 15_000);
}

#[test]
#[cfg_attr(debug_assertions, ignore = "long: run optimised")]
fn long_random_games_19x19() {
    soak(Geometry::<19, 6>::new(), 0x50b3, 5_000);
}
