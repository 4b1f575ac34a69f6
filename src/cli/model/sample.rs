//! Records replayed into positions on every core, with a bounded sample of them kept: memory
//! stays bounded however many records a source holds.
//!
//! The sample: of the positions of the fitting games (and, apart, of the held-out games), the
//! ones kept are those whose key, a hash of the record's name and the move's number, is among
//! the `limit` smallest. The rule depends on neither the order of the records nor the number
//! of threads, so a fit is the same on any machine; below the limit every position is kept.
//! Kept positions come out in the source's order (record, then move), as a sequential read of
//! every position would give them.

use super::records::{fnv1a, RawRecord};
use crate::board::{with_size, Board, BoardSize, Color, Geometry, Move, SizeTask};
use crate::engine::model::features::features;
use crate::engine::model::fit::Position;
use crate::engine::model::large::large_hashes;
use crate::game::{Game, VertexMove};
use crate::sgf;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// How many positions of each side of the split are kept.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub fit: usize,
    pub held: usize,
}

/// What a read kept, and what it saw.
#[derive(Debug, Default)]
pub struct Sample {
    /// Kept positions of the fitting games, in the source's order.
    pub fit: Vec<Position>,
    /// Kept positions of the held-out games, in the source's order.
    pub held: Vec<Position>,
    /// Records replayed, on each side of the split.
    pub fit_games: usize,
    pub held_games: usize,
    /// Positions seen (before sampling), on each side.
    pub fit_seen: usize,
    pub held_seen: usize,
    /// Records skipped with a warning.
    pub skipped: usize,
}

/// A position's key in the sample (smaller is kept first): a mix of the record's name hash
/// and the move's number (splitmix64's finaliser).
#[must_use]
pub fn key(name_hash: u64, move_number: usize) -> u64 {
    let mut z = name_hash ^ (move_number as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A kept position, ordered by (key, record, move): a total order, so that the sample is
/// exactly the `limit` smallest.
struct Kept {
    key: u64,
    ordinal: usize,
    move_number: usize,
    position: Position,
}

impl Kept {
    fn rank(&self) -> (u64, usize, usize) {
        (self.key, self.ordinal, self.move_number)
    }
}

impl PartialEq for Kept {
    fn eq(&self, other: &Self) -> bool {
        self.rank() == other.rank()
    }
}
impl Eq for Kept {}
impl PartialOrd for Kept {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Kept {
    fn cmp(&self, other: &Self) -> Ordering {
        self.rank().cmp(&other.rank())
    }
}

/// The `cap` smallest positions offered.
struct Smallest {
    cap: usize,
    heap: BinaryHeap<Kept>,
}

impl Smallest {
    fn new(cap: usize) -> Smallest {
        Smallest {
            cap,
            heap: BinaryHeap::new(),
        }
    }

    /// Keys above this cannot enter (`u64::MAX` while not full; nothing enters a zero cap).
    fn threshold(&self) -> Option<u64> {
        if self.cap == 0 {
            None
        } else if self.heap.len() < self.cap {
            Some(u64::MAX)
        } else {
            self.heap.peek().map(|k| k.key)
        }
    }

    fn offer(&mut self, k: Kept) {
        if self.heap.len() < self.cap {
            self.heap.push(k);
        } else if self.heap.peek().is_some_and(|top| k < *top) {
            self.heap.pop();
            self.heap.push(k);
        }
    }

    /// The kept positions in the source's order.
    fn into_positions(self) -> Vec<Position> {
        let mut kept = self.heap.into_vec();
        kept.sort_by_key(|k| (k.ordinal, k.move_number));
        kept.into_iter().map(|k| k.position).collect()
    }
}

/// Replays batches of records (on `threads` threads) and keeps the sample.
pub struct Sampler {
    size: BoardSize,
    /// Whether each move's large patterns are computed too.
    large: bool,
    threads: usize,
    fit: Smallest,
    held: Smallest,
    counts: Sample,
}

/// One record's replay: its positions (with their move numbers) among those asked for, and
/// how many it has in all; or why it cannot be used.
type Replayed = Result<(Vec<(usize, Position)>, usize), String>;

impl Sampler {
    #[must_use]
    pub fn new(size: BoardSize, limits: Limits, threads: usize) -> Sampler {
        Sampler {
            size,
            large: false,
            threads: threads.max(1),
            fit: Smallest::new(limits.fit),
            held: Smallest::new(limits.held),
            counts: Sample::default(),
        }
    }

    /// The same, computing each move's large patterns ([`crate::engine::model::large`]) too.
    #[must_use]
    pub fn with_large(self, large: bool) -> Sampler {
        Sampler { large, ..self }
    }

    /// Replays `batch`; `warn` gets one line for each record skipped, in the batch's order.
    pub fn add(&mut self, batch: &[RawRecord], warn: &mut dyn FnMut(String)) {
        let (fit_at, held_at) = (self.fit.threshold(), self.held.threshold());
        let (size, large) = (self.size, self.large);
        let per = batch.len().div_ceil(self.threads).max(1);
        let replayed: Vec<Replayed> = std::thread::scope(|s| {
            let workers: Vec<_> = batch
                .chunks(per)
                .map(|chunk| {
                    s.spawn(move || {
                        chunk
                            .iter()
                            .map(|r| {
                                let at = if r.held_out { held_at } else { fit_at };
                                let h = fnv1a(r.name.as_bytes());
                                replay(r, size, large, |n| at.is_some_and(|t| key(h, n) <= t))
                            })
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            workers
                .into_iter()
                .flat_map(|w| {
                    w.join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                })
                .collect()
        });
        for (r, result) in batch.iter().zip(replayed) {
            match result {
                Err(why) => {
                    self.counts.skipped += 1;
                    warn(format!("{}: {why}; skipped", r.name));
                }
                Ok((positions, seen)) => {
                    let h = fnv1a(r.name.as_bytes());
                    let (games, total, keep) = if r.held_out {
                        (
                            &mut self.counts.held_games,
                            &mut self.counts.held_seen,
                            &mut self.held,
                        )
                    } else {
                        (
                            &mut self.counts.fit_games,
                            &mut self.counts.fit_seen,
                            &mut self.fit,
                        )
                    };
                    *games += 1;
                    *total += seen;
                    for (move_number, position) in positions {
                        keep.offer(Kept {
                            key: key(h, move_number),
                            ordinal: r.ordinal,
                            move_number,
                            position,
                        });
                    }
                }
            }
        }
    }

    /// The sample, in the source's order.
    #[must_use]
    pub fn finish(self) -> Sample {
        Sample {
            fit: self.fit.into_positions(),
            held: self.held.into_positions(),
            ..self.counts
        }
    }
}

/// Parses and replays one record, computing the positions of the moves `wanted` (by their
/// number in the record, from 0).
fn replay(r: &RawRecord, size: BoardSize, large: bool, wanted: impl Fn(usize) -> bool) -> Replayed {
    let bytes = r.bytes.as_ref().map_err(Clone::clone)?;
    let text = String::from_utf8_lossy(bytes);
    let rec = sgf::parse(&text).map_err(|e| format!("not a readable SGF record: {e}"))?;
    if rec.size != size.get() {
        return Err(format!(
            "a {}x{} record, not {size}x{size}",
            rec.size, rec.size
        ));
    }
    with_size(
        size,
        Replay {
            rec: &rec,
            large,
            wanted: &wanted,
        },
    )
}

/// Replays a record, collecting the wanted moves' positions.
struct Replay<'a> {
    rec: &'a sgf::Record,
    large: bool,
    wanted: &'a dyn Fn(usize) -> bool,
}

impl SizeTask for Replay<'_> {
    type Output = Replayed;

    fn run<const N: usize, const W: usize>(self, geo: Geometry<N, W>) -> Self::Output {
        let rec = self.rec;
        if rec.setup.0.iter().any(|s| !s.is_empty()) || !rec.edits.is_empty() {
            return Err("setup stones (handicap), which the model's replay does not use".into());
        }
        let mut game = Game::with_geometry(geo, rec.komi.unwrap_or(7.5));
        let mut out = Vec::new();
        let mut seen = 0;
        let (mut last, mut second_last) = (None, None);
        for (n, &(c, mv)) in rec.moves.iter().enumerate() {
            if let VertexMove::Play(v) = mv {
                let p = game
                    .point(v)
                    .ok_or_else(|| format!("move {}: {v} is off the board", n + 1))?;
                seen += 1;
                if (self.wanted)(n) {
                    if let Some(pos) =
                        position(game.board(), c, p.index(), last, second_last, self.large)
                    {
                        out.push((n, pos));
                    }
                }
            }
            let m = game
                .to_board_move(mv)
                .map_err(|e| format!("move {}: {e}", n + 1))?;
            // A move that repeats an earlier whole-board position is played (the records'
            // rules had no positional superko), as `Game::play_recorded` allows.
            game.play_recorded(c, m)
                .map_err(|e| format!("move {} ({c:?} {mv}): {e}", n + 1))?;
            second_last = last;
            last = match m {
                Move::Play(p) => Some(p.index()),
                Move::Pass => None,
            };
        }
        Ok((out, seen))
    }
}

/// The legal moves of `c` with their features (and large patterns when `large`), and which
/// is `played` (`None` if the played move is not among them: a superko-only case, left out).
fn position<const N: usize, const W: usize>(
    b: &Board<N, W>,
    c: Color,
    played: usize,
    last: Option<usize>,
    second_last: Option<usize>,
    large: bool,
) -> Option<Position> {
    let mut moves = Vec::new();
    let mut names = Vec::new();
    let mut at = None;
    for p in b.points() {
        if b.is_legal(c, p) {
            if p.index() == played {
                at = Some(moves.len());
            }
            moves.push(features(b, c, p.index(), last, second_last));
            if large {
                names.push(large_hashes(b, c, p.index()));
            }
        }
    }
    Some(Position {
        moves,
        played: at?,
        large: names,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(ordinal: usize, name: &str, text: &str, held_out: bool) -> RawRecord {
        RawRecord {
            ordinal,
            name: name.into(),
            held_out,
            bytes: Ok(text.as_bytes().to_vec()),
        }
    }

    #[test]
    fn bad_records_are_skipped_with_one_warning_each() {
        let size = BoardSize::new(9).unwrap();
        let batch = [
            raw(0, "good", "(;SZ[9];B[ee];W[dd];B[cc])", false),
            raw(1, "setup", "(;SZ[9]AB[aa];B[ee])", false),
            raw(2, "size", "(;SZ[13];B[ee])", false),
            raw(3, "broken", "(;SZ[9];B[ee", false),
            raw(4, "occupied", "(;SZ[9];B[ee];W[ee])", false),
            raw(5, "held", "(;SZ[9];B[ee];W[dd])", true),
        ];
        let mut s = Sampler::new(
            size,
            Limits {
                fit: 100,
                held: 100,
            },
            3,
        );
        let mut warnings = Vec::new();
        s.add(&batch, &mut |w| warnings.push(w));
        assert_eq!(warnings.len(), 4, "{warnings:?}");
        for (w, name) in warnings.iter().zip(["setup", "size", "broken", "occupied"]) {
            assert!(
                w.starts_with(&format!("{name}: ")) && w.ends_with("skipped"),
                "{w}"
            );
        }
        let s = s.finish();
        assert_eq!((s.fit_games, s.held_games, s.skipped), (1, 1, 4));
        assert_eq!((s.fit.len(), s.held.len()), (3, 2));
        assert_eq!((s.fit_seen, s.held_seen), (3, 2));
    }

    #[test]
    fn the_sample_is_the_smallest_keys_whatever_the_batches_and_threads() {
        let size = BoardSize::new(9).unwrap();
        let records: Vec<RawRecord> = (0..12)
            .map(|k| {
                let moves: String = (0..8)
                    .map(|m| {
                        let c = if m % 2 == 0 { 'B' } else { 'W' };
                        let x = (b'a' + ((k + m) % 9) as u8) as char;
                        let y = (b'a' + m as u8) as char;
                        format!(";{c}[{x}{y}]")
                    })
                    .collect();
                raw(k, &format!("g{k}"), &format!("(;SZ[9]{moves})"), false)
            })
            .collect();
        let run = |batch: usize, threads: usize| {
            let mut s = Sampler::new(size, Limits { fit: 10, held: 0 }, threads);
            for b in records.chunks(batch) {
                s.add(b, &mut |w| panic!("{w}"));
            }
            s.finish()
        };
        let one = run(12, 1);
        assert_eq!((one.fit.len(), one.fit_seen), (10, 96));
        let played = |s: &Sample| -> Vec<_> {
            s.fit
                .iter()
                .map(|p| (p.moves.len(), p.played, p.moves[p.played]))
                .collect()
        };
        for (batch, threads) in [(1, 1), (5, 2), (3, 4)] {
            assert_eq!(played(&run(batch, threads)), played(&one));
        }
        // Every position below the limit.
        let mut s = Sampler::new(size, Limits { fit: 1000, held: 0 }, 2);
        s.add(&records, &mut |w| panic!("{w}"));
        assert_eq!(s.finish().fit.len(), 96);
    }
}
