//! Fitting the move model on recorded positions by minorization-maximization: each pass
//! updates one group's gammas at a time to the maximum of a bound on the likelihood, which
//! never lowers the likelihood of the records.
//!
//! For a value `v` of group `g`: `gamma_v = (W_v + 1) / (sum over positions of (sum of the
//! other groups' product over the moves with value v) / E + 2 / (gamma_v + 1))`, where `W_v`
//! counts the positions whose played move has `v` and `E` is the position's total strength;
//! the `+ 1` and `2 / (gamma + 1)` are one virtual win and one virtual loss against a move of
//! strength 1, which keeps values seen rarely (or only among the moves not played) finite.

use super::features::{canonical_diamond, Features, DIAMOND, GROUPS, PATTERN, VALUES};
use super::large::LargeHashes;
use super::{Model, MIN_GAMMA};
use std::collections::BTreeMap;

/// Number of feature groups.
const GROUP_COUNT: usize = GROUPS.len();

/// The fit's slot past the feature groups: the large patterns' value index.
const LARGE: usize = GROUP_COUNT;

/// Every move of a position as its value index in each group (and its large patterns'), and
/// which move was played.
type Dense = (Vec<[u32; GROUP_COUNT + 1]>, usize);

/// Positions a pass's sums run over in order, one chunk on one thread: the chunks' sums are
/// added in chunk order, so that a fit is the same whatever the number of threads (and one
/// chunk, a sequential sum, below this many positions).
const CHUNK: usize = 32_768;

/// One recorded position: the features of every legal move, and which one was played.
#[derive(Clone, Debug)]
pub struct Position {
    pub moves: Vec<Features>,
    pub played: usize,
    /// Each move's large patterns ([`super::large`]), or none (a sample read without them).
    pub large: Vec<LargeHashes>,
}

impl Position {
    /// Every move's strength under `model`.
    #[must_use]
    pub fn strengths(&self, model: &Model) -> Vec<f32> {
        let large = |j: usize| self.large.get(j).map_or(1.0, |h| model.large_gamma(h));
        self.moves
            .iter()
            .enumerate()
            .map(|(j, f)| model.gamma(f) * large(j))
            .collect()
    }
}

/// How to fit.
#[derive(Clone, Copy, Debug)]
pub struct FitOptions {
    /// Passes over all groups.
    pub passes: usize,
    /// A pattern gets its own gamma when the played move had it at least this often.
    pub min_pattern_count: usize,
    /// A large pattern gets its own gamma when the played move had it at least this often
    /// (with positions that carry them).
    pub min_large_count: usize,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            passes: 30,
            min_pattern_count: 3,
            min_large_count: 3,
        }
    }
}

/// Fits a model on `positions`; `about` becomes the table's header.
#[must_use]
pub fn fit(positions: &[Position], opts: FitOptions, about: Vec<String>) -> Model {
    // The two shapes (3x3 patterns, diamonds by their smallest image): the codes played often
    // enough get their own dense index, from 1; the rest share index 0 ("other").
    let name = |g: usize, code: u32| {
        if g == DIAMOND {
            canonical_diamond(code)
        } else {
            code
        }
    };
    let known: [Vec<u32>; 2] = [PATTERN, DIAMOND].map(|g| {
        let mut counts: BTreeMap<u32, usize> = BTreeMap::new();
        for p in positions {
            *counts
                .entry(name(g, p.moves[p.played].values[g]))
                .or_default() += 1;
        }
        counts
            .iter()
            .filter(|&(_, &n)| n >= opts.min_pattern_count)
            .map(|(&c, _)| c)
            .collect()
    });
    let shape = |g: usize| usize::from(g == DIAMOND);
    let index = |g: usize, code: u32| {
        known[shape(g)]
            .binary_search(&name(g, code))
            .map_or(0, |k| k + 1)
    };
    // The large patterns, by name: those the played moves had often enough, at any radius.
    let known_large: Vec<u32> = {
        let mut counts: BTreeMap<u32, usize> = BTreeMap::new();
        for p in positions {
            for &h in p.large.get(p.played).into_iter().flatten() {
                *counts.entry(h).or_default() += 1;
            }
        }
        counts
            .into_iter()
            .filter(|&(_, n)| n >= opts.min_large_count)
            .map(|(h, _)| h)
            .collect()
    };
    // A move's largest known pattern, from 1; 0 for none.
    let large_index = |h: &LargeHashes| {
        h.iter()
            .rev()
            .find_map(|x| known_large.binary_search(x).ok())
            .map_or(0, |k| k as u32 + 1)
    };
    // Every move as dense value indices, one per group.
    let dense: Vec<Dense> = positions
        .iter()
        .map(|p| {
            let moves = p
                .moves
                .iter()
                .enumerate()
                .map(|(j, f)| {
                    let mut d = [0; GROUP_COUNT + 1];
                    d[..GROUP_COUNT].copy_from_slice(&f.values);
                    for g in [PATTERN, DIAMOND] {
                        d[g] = index(g, f.values[g]) as u32;
                    }
                    d[LARGE] = p.large.get(j).map_or(0, large_index);
                    d
                })
                .collect();
            (moves, p.played)
        })
        .collect();
    let mut sizes = VALUES.to_vec();
    for g in [PATTERN, DIAMOND] {
        sizes[g] = known[shape(g)].len() + 1;
    }
    sizes.push(known_large.len() + 1);
    let mut gammas: Vec<Vec<f64>> = sizes.iter().map(|&n| vec![1.0; n]).collect();
    let all: Vec<usize> = if known_large.is_empty() {
        (0..GROUP_COUNT).collect()
    } else {
        (0..=LARGE).collect()
    };
    minorize(&dense, None, &all, &mut gammas, opts.passes);
    let mut m = Model::uniform();
    for (g, fitted) in gammas.iter().enumerate().take(GROUP_COUNT) {
        if g != PATTERN && g != DIAMOND {
            for (slot, &x) in m.gammas[g].iter_mut().zip(fitted) {
                *slot = x as f32;
            }
        }
    }
    m.other = gammas[PATTERN][0] as f32;
    m.patterns.fill(m.other);
    for (k, &code) in known[0].iter().enumerate() {
        m.patterns[code as usize] = gammas[PATTERN][k + 1] as f32;
    }
    m.known = known[0].iter().map(|&c| c as u16).collect();
    let diamonds = known[1]
        .iter()
        .enumerate()
        .map(|(k, &code)| (code, gammas[DIAMOND][k + 1] as f32))
        .collect();
    m.set_diamonds(diamonds, gammas[DIAMOND][0] as f32);
    let large = known_large
        .iter()
        .enumerate()
        .map(|(k, &h)| (h, gammas[LARGE][k + 1] as f32))
        .collect();
    m.set_large(large, gammas[LARGE][0] as f32);
    m.about = about;
    // What the text holds is what a reader gets: round through it.
    Model::parse(&m.to_text()).unwrap_or(m)
}

/// Refits only the groups `free` on `positions`, every other group's gammas held at `base`'s:
/// a table that keeps what `base` learned where its records know more (the shapes, the
/// tactics) and learns the rest from these records (the lines of a larger board, say).
/// `about` becomes the table's header.
///
/// # Errors
/// A free group that is a shape (the pattern or the diamond: their codes are the base's).
pub fn refit(
    base: &Model,
    free: &[usize],
    positions: &[Position],
    opts: FitOptions,
    about: Vec<String>,
) -> Result<Model, String> {
    if let Some(&g) = free
        .iter()
        .find(|&&g| g == PATTERN || g == DIAMOND || g >= GROUP_COUNT)
    {
        return Err(format!(
            "{}: only a tactical group can be refitted over a base table",
            GROUPS.get(g).unwrap_or(&"?")
        ));
    }
    // Each move's value index in every group: its own value in a free group (small values,
    // which index their gammas directly), 0 in a held one (one gamma of 1, the held groups'
    // product being a fixed factor below).
    let index = |f: &Features| -> [u32; GROUP_COUNT + 1] {
        std::array::from_fn(|g| if free.contains(&g) { f.values[g] } else { 0 })
    };
    let dense: Vec<Dense> = positions
        .iter()
        .map(|p| (p.moves.iter().map(index).collect(), p.played))
        .collect();
    let held: Vec<Vec<f64>> = positions
        .iter()
        .map(|p| {
            p.moves
                .iter()
                .enumerate()
                .map(|(j, f)| {
                    let large = p.large.get(j).map_or(1.0, |h| base.large_gamma(h));
                    (0..GROUP_COUNT)
                        .filter(|g| !free.contains(g))
                        .map(|g| f64::from(base.group_gamma(g, f)))
                        .product::<f64>()
                        * f64::from(large)
                })
                .collect()
        })
        .collect();
    // Every group is one value wide but the free ones, which start from the base's gammas.
    let mut gammas: Vec<Vec<f64>> = (0..=LARGE)
        .map(|g| {
            if free.contains(&g) {
                base.gammas[g][..VALUES[g]]
                    .iter()
                    .map(|&x| f64::from(x))
                    .collect()
            } else {
                vec![1.0]
            }
        })
        .collect();
    minorize(&dense, Some(&held), free, &mut gammas, opts.passes);
    let mut m = base.clone();
    for &g in free {
        for (slot, &x) in m.gammas[g].iter_mut().zip(&gammas[g]) {
            *slot = x as f32;
        }
    }
    m.about = about;
    Ok(Model::parse(&m.to_text()).unwrap_or(m))
}

/// Minorization-maximization passes over the groups `free` (see the module's formula):
/// `dense` holds every move's value index in each group, `held` (if any) a factor of each
/// move's strength that no pass changes, `gammas[g][v]` the gammas, updated in place. Each
/// pass's sums run on every core, chunk by chunk ([`CHUNK`]).
fn minorize(
    dense: &[Dense],
    held: Option<&[Vec<f64>]>,
    free: &[usize],
    gammas: &mut [Vec<f64>],
    passes: usize,
) {
    let mut wins: Vec<Vec<f64>> = gammas.iter().map(|g| vec![0.0; g.len()]).collect();
    for (moves, played) in dense {
        for (g, &v) in moves[*played].iter().enumerate() {
            wins[g][v as usize] += 1.0;
        }
    }
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let chunks: Vec<(usize, &[Dense])> = (0..).step_by(CHUNK).zip(dense.chunks(CHUNK)).collect();
    for _ in 0..passes {
        for &g in free {
            let current: &[Vec<f64>] = gammas;
            // The sums of one chunk of positions.
            let chunk_sum = |&(first, chunk): &(usize, &[Dense])| -> Vec<f64> {
                let mut denom = vec![0.0f64; current[g].len()];
                for (k, (moves, _)) in chunk.iter().enumerate() {
                    let strength = |j: usize, m: &[u32; GROUP_COUNT + 1]| -> f64 {
                        let own: f64 = m
                            .iter()
                            .enumerate()
                            .map(|(h, &v)| current[h][v as usize])
                            .product();
                        held.map_or(own, |h| own * h[first + k][j])
                    };
                    let total: f64 = moves.iter().enumerate().map(|(j, m)| strength(j, m)).sum();
                    for (j, m) in moves.iter().enumerate() {
                        // The other groups' product: the strength without this group's gamma.
                        let v = m[g] as usize;
                        denom[v] += strength(j, m) / current[g][v] / total;
                    }
                }
                denom
            };
            let sums: Vec<Vec<f64>> = if chunks.len() == 1 || threads == 1 {
                chunks.iter().map(chunk_sum).collect()
            } else {
                let per = chunks.len().div_ceil(threads);
                std::thread::scope(|s| {
                    let workers: Vec<_> = chunks
                        .chunks(per)
                        .map(|mine| s.spawn(move || mine.iter().map(chunk_sum).collect::<Vec<_>>()))
                        .collect();
                    workers
                        .into_iter()
                        .flat_map(|w| {
                            w.join()
                                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                        })
                        .collect()
                })
            };
            let mut denom = vec![0.0f64; gammas[g].len()];
            for sum in &sums {
                for (d, x) in denom.iter_mut().zip(sum) {
                    *d += x;
                }
            }
            for (v, gm) in gammas[g].iter_mut().enumerate() {
                *gm =
                    ((wins[g][v] + 1.0) / (denom[v] + 2.0 / (*gm + 1.0))).max(f64::from(MIN_GAMMA));
            }
        }
    }
}

/// How well a model predicts recorded moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evaluation {
    /// Share of positions whose played move is the model's first choice (ties share the
    /// credit).
    pub first: f64,
    /// Share whose played move is among the first three.
    pub three: f64,
    /// Mean natural log of the probability the model gives the played move.
    pub log_likelihood: f64,
}

/// [`prediction_rate`] and the mean log-likelihood of the played moves over `positions`
/// (all zero for none).
#[must_use]
pub fn evaluate(model: &Model, positions: &[Position]) -> Evaluation {
    let (first, three) = prediction_rate(model, positions);
    let log_likelihood = if positions.is_empty() {
        0.0
    } else {
        positions
            .iter()
            .map(|p| {
                let g = p.strengths(model);
                let total: f64 = g.iter().map(|&x| f64::from(x)).sum();
                (f64::from(g[p.played]) / total).ln()
            })
            .sum::<f64>()
            / positions.len() as f64
    };
    Evaluation {
        first,
        three,
        log_likelihood,
    }
}

/// How often the played move is the model's first choice, and among its first three (ties
/// share the credit), over `positions`.
#[must_use]
pub fn prediction_rate(model: &Model, positions: &[Position]) -> (f64, f64) {
    if positions.is_empty() {
        return (0.0, 0.0);
    }
    let (mut top1, mut top3) = (0.0, 0.0);
    for p in positions {
        let g = p.strengths(model);
        let mine = g[p.played];
        let above = g.iter().filter(|&&x| x > mine).count();
        let tied = g.iter().filter(|&&x| x == mine).count();
        // The played move holds ranks `above .. above + tied`, each with chance 1 / tied.
        let share = |k: usize| (k.saturating_sub(above)).min(tied) as f64 / tied as f64;
        top1 += share(1);
        top3 += share(3);
    }
    let n = positions.len() as f64;
    (top1 / n, top3 / n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(capture: u32, line: u32) -> Features {
        Features {
            values: [0, capture, 0, 0, 0, 0, 0, line, 0],
        }
    }

    #[test]
    fn a_refit_fits_the_free_group_and_keeps_the_others() {
        // The base knows captures; these records play the third line (value 2) every time.
        let pos: Vec<Position> = (0..200)
            .map(|k| Position {
                moves: vec![mv(0, 0), mv(k % 2, 1), mv(0, 2), mv(0, 4)],
                played: 2,
                large: Vec::new(),
            })
            .collect();
        let mut base = Model::uniform();
        base.gammas[1] = [1.0, 3.0, 2.0, 1.0, 1.0, 1.0, 1.0, 1.0];
        let line = 7;
        let m = refit(
            &base,
            &[line],
            &pos,
            FitOptions::default(),
            vec!["t".into()],
        )
        .unwrap();
        assert_eq!(m.gammas[1], base.gammas[1], "a held group is the base's");
        assert!(
            m.gammas[line][2] > 20.0 * m.gammas[line][1],
            "{:?}",
            m.gammas[line]
        );
        assert_eq!(prediction_rate(&m, &pos), (1.0, 1.0));
        // Shapes keep the base's codes: they cannot be refitted.
        for shape in [PATTERN, DIAMOND] {
            assert!(refit(&base, &[shape], &pos, FitOptions::default(), vec![]).is_err());
        }
    }

    /// Moves alike in every group but their large patterns: the played one's largest pattern
    /// (seen in every position) gets a gamma of its own and ranks it first; a pattern seen
    /// fewer times than the minimum does not; without the minimum reached, no large gammas.
    #[test]
    fn the_played_moves_large_pattern_is_learned() {
        let pos: Vec<Position> = (0..200u32)
            .map(|k| Position {
                moves: vec![mv(0, 1); 4],
                played: (k % 4) as usize,
                large: (0..4u32)
                    .map(|j| {
                        let mine = j == k % 4;
                        // Radius 10's name: 77 for the played move, else unique to the move;
                        // a rare name (one position) at radius 9.
                        let nine = if k == 0 && mine {
                            55
                        } else {
                            1000 + 10 * k + j
                        };
                        [1, 2, 3, 4, nine, if mine { 77 } else { 5000 + 10 * k + j }]
                    })
                    .collect(),
            })
            .collect();
        let m = fit(&pos, FitOptions::default(), vec![]);
        assert!(m.has_large());
        // The moves not played: their largest known name is radius 8's, 4.
        let others = m.large_gamma(&[1, 2, 3, 4, 9, 9]);
        assert!(
            m.large_gamma(&[1, 2, 3, 4, 9, 77]) > 50.0 * others,
            "{others}"
        );
        // 1 to 4 are every move's small names (played 200 times each): known, but the
        // largest known name is the one that counts.
        assert_eq!(
            m.large_gamma(&[1, 2, 3, 4, 55, 77]),
            m.large_gamma(&[1, 2, 3, 4, 9, 77])
        );
        assert_eq!(prediction_rate(&m, &pos), (1.0, 1.0));
        let off = FitOptions {
            min_large_count: usize::MAX,
            ..FitOptions::default()
        };
        let m = fit(&pos, off, vec![]);
        assert!(!m.has_large());
        assert_eq!(prediction_rate(&m, &pos), (0.25, 0.75));
    }

    #[test]
    fn a_feature_always_played_gets_the_largest_gamma() {
        // Every position: one capture among four quiet moves, and the capture is played.
        let pos: Vec<Position> = (0..200)
            .map(|k| Position {
                moves: vec![mv(0, 1), mv(0, 2), mv(1, k % 3), mv(0, 3), mv(0, 4)],
                played: 2,
                large: Vec::new(),
            })
            .collect();
        let m = fit(&pos, FitOptions::default(), vec!["test".into()]);
        assert!(m.gammas[1][1] > 50.0 * m.gammas[1][0], "{:?}", m.gammas[1]);
        assert_eq!(prediction_rate(&m, &pos), (1.0, 1.0));
        assert_eq!(m.about(), ["test"]);
        // A model that knows nothing ranks all five equal: a fifth at first choice.
        let (one, three) = prediction_rate(&Model::uniform(), &pos);
        assert!((one - 0.2).abs() < 1e-9 && (three - 0.6).abs() < 1e-9);
    }
}
