//! Board operations the playout is made of, each on a fixed position:
//! - `play_unchecked`: replaying a recorded light-playout game move by move;
//! - `candidates` and `eyelike_mask`: the bit-parallel masks on a mid-game / late position;
//! - `capture`: one move that removes many stones or several chains, positions read from diagrams.
//!
//! Every fixture is checked before it is timed (the replay ends in the recorded position, the
//! masks equal their point-by-point definitions, a capture removes what the diagram says).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use rand_core::SeedableRng;
use rand_pcg::Pcg32;
use std::hint::black_box;
use tengen::board::{Bitboard, Board, Color, LightBoard, Move, Point};
use tengen::playout::{random_move, PlayoutConfig};

#[path = "common/flame.rs"]
mod flame;

/// Seed of the recorded games.
const SEED: u64 = 0x60_b0a2d;

/// A light-playout game from the empty board, Black first: its moves and final position.
struct Game<const N: usize, const W: usize> {
    moves: Vec<Move>,
    end: Board<N, W>,
}

impl<const N: usize, const W: usize> Game<N, W> {
    /// Plays and records the reference light playout with `seed`.
    fn record(seed: u64) -> Self {
        let cfg = PlayoutConfig::standard(N);
        let mut rng = Pcg32::seed_from_u64(seed);
        let mut board = LightBoard::<N, W>::new();
        let mut moves = Vec::new();
        let mut passes = 0;
        let mut c = Color::Black;
        while moves.len() < cfg.max_moves as usize && passes < 2 {
            match random_move(&mut board, c, &mut rng) {
                Some(p) => {
                    board.play(c, Move::Play(p)).expect("a candidate is legal");
                    moves.push(Move::Play(p));
                    passes = 0;
                }
                None => {
                    board.pass();
                    moves.push(Move::Pass);
                    passes += 1;
                }
            }
            c = !c;
        }
        let mut game = Game {
            moves,
            end: Board::new(),
        };
        game.end = game.position_after(game.moves.len()).0;
        assert_eq!(
            game.end.hash(),
            board.hash(),
            "the exact board replays the light game"
        );
        game
    }

    /// The position after the first `plies` moves, replayed through the checked door.
    fn position_after(&self, plies: usize) -> (Board<N, W>, Color) {
        let mut b = Board::<N, W>::new();
        let mut c = Color::Black;
        for &m in &self.moves[..plies] {
            b.play(c, m).expect("a recorded move is legal");
            c = !c;
        }
        (b, c)
    }
}

/// Replays `moves` on `board` (which must be the empty board), Black first, unchecked.
#[inline(always)]
fn replay<const N: usize, const W: usize>(board: &mut Board<N, W>, moves: &[Move]) {
    let mut c = Color::Black;
    for &m in moves {
        match m {
            Move::Play(p) => board.play_unchecked(c, p),
            Move::Pass => board.pass(),
        }
        c = !c;
    }
}

fn bench_replay<const N: usize, const W: usize>(c: &mut Criterion) {
    let game = Game::<N, W>::record(SEED);
    let captures = game.end.captured(Color::Black) + game.end.captured(Color::White);
    assert!(captures > 0, "the recorded game should contain captures");

    let mut board = Board::<N, W>::new();
    let mut g = c.benchmark_group("play_unchecked");
    g.throughput(Throughput::Elements(game.moves.len() as u64));
    g.bench_function(format!("{N}x{N}-game"), |b| {
        b.iter(|| {
            board.clear();
            replay(&mut board, black_box(&game.moves));
            black_box(board.hash())
        });
    });
    g.finish();
    assert_eq!(board.hash(), game.end.hash(), "timed replay went astray");
}

/// `mask` as the set of empty points where `pred` holds.
fn by_points<const N: usize, const W: usize>(
    board: &Board<N, W>,
    pred: impl Fn(Point) -> bool,
) -> Bitboard<W> {
    let mut m = Bitboard::<W>::EMPTY;
    for p in Board::<N, W>::new().points() {
        if board.empty().contains(p.index()) && pred(p) {
            m.insert(p.index());
        }
    }
    m
}

fn bench_masks<const N: usize, const W: usize>(c: &mut Criterion) {
    let game = Game::<N, W>::record(SEED);
    // Mid-game for candidates (many chains, many empty points); late for eyes.
    let (mid, mid_c) = game.position_after(game.moves.len() / 2);
    let (late, late_c) = game.position_after(game.moves.len() * 9 / 10);
    assert_eq!(
        mid.candidates(mid_c),
        by_points(&mid, |p| mid.is_candidate(mid_c, p)),
        "candidates() disagrees with is_candidate()"
    );
    for col in Color::ALL {
        assert_eq!(
            late.eyelike_mask(col),
            by_points(&late, |p| late.is_eyelike(col, p)),
            "eyelike_mask() disagrees with is_eyelike()"
        );
    }
    assert!(
        !late.eyelike_mask(late_c).is_empty(),
        "the late position should hold eyes"
    );

    let mut g = c.benchmark_group("mask");
    g.bench_function(format!("candidates/{N}x{N}-mid"), |b| {
        b.iter(|| black_box(&mid).candidates(black_box(mid_c)));
    });
    g.bench_function(format!("eyelike/{N}x{N}-late"), |b| {
        b.iter(|| black_box(&late).eyelike_mask(black_box(late_c)));
    });
    g.finish();
}

/// A big white group filling the board inside a black ring, its one liberty in the centre;
/// the ring's corners are empty so every black chain has liberties.
const BIG_GROUP_9: &str = "
     A B C D E F G H J
   9 . X X X X X X X . 9
   8 X O O O O O O O X 8
   7 X O O O O O O O X 7
   6 X O O O O O O O X 6
   5 X O O O . O O O X 5
   4 X O O O O O O O X 4
   3 X O O O O O O O X 3
   2 X O O O O O O O X 2
   1 . X X X X X X X . 1
     A B C D E F G H J
";

/// Four single white stones in atari around E5: Black's E5 takes all four chains.
const FOUR_CHAINS_9: &str = "
   . . . . . . . . .
   . . . . . . . . .
   . . . . X . . . .
   . . . X O X . . .
   . . X O . O X . .
   . . . X O X . . .
   . . . . X . . . .
   . . . . . . . . .
   . . . . . . . . .
";

/// The `BIG_GROUP_9` pattern on an `n x n` board.
fn big_group_diagram(n: usize) -> String {
    let mut s = String::new();
    for y in 0..n {
        for x in 0..n {
            let ring = x == 0 || y == 0 || x == n - 1 || y == n - 1;
            let corner = (x == 0 || x == n - 1) && (y == 0 || y == n - 1);
            let centre = x == n / 2 && y == n / 2;
            s.push(match () {
                _ if corner || centre => '.',
                _ if ring => 'X',
                _ => 'O',
            });
            s.push(' ');
        }
        s.push('\n');
    }
    s
}

/// Benchmarks Black playing the centre of `diagram`, which must remove `removed` white stones.
fn bench_capture<const N: usize, const W: usize>(
    c: &mut Criterion,
    name: &str,
    diagram: &str,
    removed: u32,
) {
    let start: Board<N, W> = diagram.parse().expect("fixture diagram");
    let p = Board::<N, W>::new().point(N / 2, N / 2).expect("centre");
    let mut after = start.clone();
    after
        .play(Color::Black, Move::Play(p))
        .expect("the capture is legal");
    after.verify().expect("consistent after the capture");
    assert_eq!(
        start.stones(Color::White).count() - after.stones(Color::White).count(),
        removed,
        "{name}: wrong number of stones captured"
    );

    let mut g = c.benchmark_group("capture");
    g.bench_function(name, |b| {
        b.iter_batched_ref(
            || start.clone(),
            |board| board.play_unchecked(Color::Black, black_box(p)),
            BatchSize::SmallInput,
        );
    });
    g.finish();
}

fn board_ops(c: &mut Criterion) {
    bench_replay::<9, 2>(c);
    bench_replay::<19, 6>(c);
    bench_masks::<9, 2>(c);
    bench_masks::<19, 6>(c);
    bench_capture::<9, 2>(c, "9x9-48-stones", BIG_GROUP_9, 48);
    bench_capture::<9, 2>(c, "9x9-4-chains", FOUR_CHAINS_9, 4);
    bench_capture::<19, 6>(c, "19x19-288-stones", &big_group_diagram(19), 288);
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_profiler(flame::FlameProfiler::new(flame::FREQUENCY));
    targets = board_ops
}
criterion_main!(benches);
