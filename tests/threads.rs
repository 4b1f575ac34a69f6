//! Every size 2-19 on plain `std::thread`s at once, checked move by move against the naive
//! reference board: the board's side travels with the board value, so boards of different
//! sides on one compiled copy of the kernel (the shared path, `N = 0`) can run side by side,
//! and a board made on one thread plays on another that set nothing up.
//!
//! CI also runs these tests under valgrind's memcheck (`.ci/run`), where a read or write
//! outside a board's arrays is an error even when it changes no result.

mod common;

use common::reference::RefBoard;
use common::{assert_same, assert_same_light, kernel_error, pt};
use rand_core::{RngCore, SeedableRng};
use rand_pcg::Pcg32;
use tengen::board::{with_size, Board, BoardSize, Color, Geometry, LightBoard, Move, SizeTask};
use tengen::playout::{light_playout, Outcome, PlayoutConfig};

/// Plays `moves` move attempts of seeded random games (mostly the reference's candidates,
/// now and then any point, so that suicide, ko and occupied points are refused too) on the
/// exact and light boards it is given, checking both against the reference after each.
/// Returns the light board's final position.
fn play_checked<const N: usize, const W: usize>(
    mut exact: Board<N, W>,
    mut light: LightBoard<N, W>,
    seed: u64,
    moves: usize,
) -> LightBoard<N, W> {
    let geo = exact.geometry();
    let n = geo.n();
    let mut r = RefBoard::new(n);
    let mut rng = Pcg32::seed_from_u64(seed);
    let mut c = Color::Black;
    let mut passes = 0;
    for attempt in 0..moves {
        let ctx = format!("{n}x{n} seed {seed:#x} attempt {attempt}");
        let cands = r.candidates(c);
        let wild = rng.next_u32() % 8 == 0;
        let choice = if wild {
            let k = rng.next_u32() as usize % (n * n);
            Some((k % n, k / n))
        } else if cands.is_empty() {
            None
        } else {
            Some(cands[rng.next_u32() as usize % cands.len()])
        };
        let (mv, want) = match choice {
            None => {
                r.pass();
                (Move::Pass, Ok(()))
            }
            Some(p) => (
                Move::Play(pt(geo, p)),
                r.play(c, p).map(|_| ()).map_err(kernel_error),
            ),
        };
        assert_eq!(exact.play(c, mv), want, "{ctx}: exact board, {c} {mv:?}");
        assert_eq!(light.play(c, mv), want, "{ctx}: light board, {c} {mv:?}");
        assert_same(&exact, &r, &ctx);
        assert_same_light(&light, &r, &ctx);
        if want.is_ok() {
            passes = if mv == Move::Pass { passes + 1 } else { 0 };
            c = !c;
        }
        if passes >= 2 {
            exact.clear();
            light.clear();
            r = RefBoard::new(n);
            (c, passes) = (Color::Black, 0);
        }
    }
    light
}

/// One size's work: boards made on the calling thread, handed to a fresh thread that plays
/// them (checked against the reference), then a light playout from the final position on that
/// thread and on the calling one, which must play the same game.
struct Handoff {
    seed: u64,
    moves: usize,
}

impl SizeTask for Handoff {
    type Output = ();

    fn run<const N: usize, const W: usize>(self, geo: Geometry<N, W>) {
        let (exact, light) = (Board::with_geometry(geo), LightBoard::with_geometry(geo));
        let Handoff { seed, moves } = self;
        let worker = std::thread::spawn(move || {
            let end = play_checked(exact, light, seed, moves);
            let mut there = end.clone();
            let out = replay(&mut there, seed);
            (end, there, out)
        });
        let (end, there, out) = worker.join().expect("the worker thread");
        let mut here = end.clone();
        let again = replay(&mut here, seed);
        assert_eq!(out, again, "{0}x{0}: a playout on another thread", geo.n());
        assert!(here == there && here.hash() == there.hash());
        here.verify().expect("a consistent board");
    }
}

/// A light playout from `board`'s position, Black to move, seeded with `seed`.
fn replay<const N: usize, const W: usize>(board: &mut LightBoard<N, W>, seed: u64) -> Outcome<W> {
    let cfg = PlayoutConfig::standard(board.geometry().n());
    light_playout(board, Color::Black, &cfg, &mut Pcg32::seed_from_u64(seed))
}

/// Runs [`Handoff`] for `sizes`, spread over `threads` plain threads that run at once: thread
/// `t` takes every `threads`-th size from the `t`-th, so sizes of one compiled copy run side by
/// side.
fn at_once(sizes: &[usize], threads: usize, moves: impl Fn(usize) -> usize + Sync) {
    std::thread::scope(|s| {
        for t in 0..threads {
            let moves = &moves;
            s.spawn(move || {
                for &n in sizes.iter().skip(t).step_by(threads) {
                    let size = BoardSize::new(n).expect("a supported size");
                    let seed = 0x7417_0000 + n as u64;
                    with_size(
                        size,
                        Handoff {
                            seed,
                            moves: moves(n),
                        },
                    );
                }
            });
        }
    });
}

#[test]
fn every_size_on_fresh_threads_at_once() {
    let sizes: Vec<usize> = (2..=19).collect();
    // Enough attempts for captures and ko on every size, fewer on the large ones.
    at_once(&sizes, 4, |n| if n <= 11 { 3 * n * n } else { 150 });
}

/// A few sides of each shared instantiation (2, 4 and 6 words) at once, few moves.
#[test]
fn shared_sides_at_once_on_fresh_threads() {
    at_once(&[3, 5, 7, 10, 12, 16], 3, |n| {
        if n <= 7 {
            2 * n * n
        } else {
            40
        }
    });
}

/// Boards of two sides on one compiled copy, made on one thread and played in turn on
/// another: each keeps its own side (the first program of issue 60 made one 5x5 board play
/// while the thread ran 6x6, and wrote outside its arrays).
#[test]
fn boards_of_two_sides_on_one_copy_keep_their_sides() {
    let five = Geometry::<0, 2>::of(BoardSize::new(5).unwrap()).unwrap();
    let six = Geometry::<0, 2>::of(BoardSize::new(6).unwrap()).unwrap();
    let (a, b) = (
        LightBoard::with_geometry(five),
        LightBoard::with_geometry(six),
    );
    std::thread::spawn(move || {
        let a = play_checked(Board::with_geometry(five), a, 0x55, 60);
        let b = play_checked(Board::with_geometry(six), b, 0x66, 80);
        assert_eq!((a.geometry().n(), b.geometry().n()), (5, 6));
    })
    .join()
    .expect("the worker thread");
}
