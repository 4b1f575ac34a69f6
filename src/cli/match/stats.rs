//! The match statistics: A's win rate with its 95 % Wilson interval, the Elo difference it
//! implies, A's score margins, and the games that repeat an earlier one.

use super::runner::{Ending, GameResult};
use crate::board::Color;
use crate::game::VertexMove;

/// Win rate `p` with its 95 % Wilson interval, from `wins` (draws count half) out of `n`.
pub(super) fn wilson(wins: f64, n: f64) -> (f64, f64, f64) {
    let z = 1.96;
    let p = wins / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    (p, (centre - half).max(0.0), (centre + half).min(1.0))
}

/// Elo difference implied by a score rate (infinite at 0 or 1).
pub(super) fn elo(p: f64) -> f64 {
    if p >= 1.0 - 1e-9 {
        f64::INFINITY
    } else if p <= 1e-9 {
        f64::NEG_INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// An Elo difference as the report prints it: signed and whole (`0`, never `-0`), and an
/// infinite end of an interval as the bound it is not.
pub(super) fn fmt_elo(e: f64) -> String {
    if e.is_finite() {
        let r = e.round();
        if r == 0.0 {
            "0".into()
        } else {
            format!("{r:+.0}")
        }
    } else if e > 0.0 {
        "no upper bound".into()
    } else {
        "no lower bound".into()
    }
}

/// The report's Elo line for score rate `p` and its interval `[lo, hi]`.
pub(super) fn elo_line(p: f64, lo: f64, hi: f64) -> String {
    let interval = format!("95 % interval [{}, {}]", fmt_elo(elo(lo)), fmt_elo(elo(hi)));
    if elo(p).is_finite() {
        format!("Elo A - B {}, {interval}", fmt_elo(elo(p)))
    } else {
        let all = if p > 0.5 { "all" } else { "none" };
        format!("Elo A - B: no finite estimate (A scored {all} of the points), {interval}")
    }
}

/// A's score margins in the games counted on the board (not resigned, not forfeited): the mean
/// relative score, a measure beside the win rate.
#[derive(Default)]
pub(super) struct Margins {
    n: u32,
    sum: f64,
    sum_sq: f64,
}

impl Margins {
    /// Adds a game's ending from A's side, if it was counted on the board.
    pub(super) fn add(&mut self, ending: &Ending, a_black: bool) {
        if let Ending::Score(s) = ending {
            let m = if a_black {
                f64::from(*s)
            } else {
                -f64::from(*s)
            };
            self.n += 1;
            self.sum += m;
            self.sum_sq += m * m;
        }
    }

    /// The summary line: the mean with a 95 % normal interval, or why there is none.
    pub(super) fn line(&self, games: u32) -> String {
        if self.n == 0 {
            return "A's mean score margin: no game was counted on the board".into();
        }
        let n = f64::from(self.n);
        let mean = self.sum / n;
        let half = if self.n > 1 {
            let var = ((self.sum_sq - n * mean * mean) / (n - 1.0)).max(0.0);
            1.96 * (var / n).sqrt()
        } else {
            f64::INFINITY
        };
        let left_out = games - self.n;
        let note = if left_out > 0 {
            format!(" ({left_out} resigned or forfeited game(s) left out)")
        } else {
            String::new()
        };
        format!(
            "A's mean score margin {mean:+.1} points, 95 % interval [{:+.1}, {:+.1}], over {} game(s) counted on the board{note}",
            mean - half,
            mean + half,
            self.n
        )
    }
}

/// The games played so far, by who had Black and the moves, to find a game that repeats an
/// earlier one: against a deterministic opponent a deterministic engine replays a game when it
/// is restarted (after a forfeit) or given the same seed, and a match that counts replays
/// measures fewer games than it says.
///
/// Games with the same key arrive in game order: one stream plays them in order, and with two
/// streams each stream plays one colour of A's.
#[derive(Default)]
pub(super) struct Repeats {
    first: std::collections::HashMap<(bool, Vec<(Color, VertexMove)>), u32>,
    /// Games that repeat an earlier one.
    pub(super) count: u32,
}

impl Repeats {
    /// Notes `r`; if the same game (same engine as Black, same moves) was seen before, returns
    /// the earlier and the later game numbers.
    pub(super) fn add(&mut self, r: &GameResult) -> Option<(u32, u32)> {
        use std::collections::hash_map::Entry;
        match self.first.entry((r.a_black, r.moves.clone())) {
            Entry::Occupied(e) => {
                self.count += 1;
                Some((*e.get(), r.g))
            }
            Entry::Vacant(e) => {
                e.insert(r.g);
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistics() {
        let (p, lo, hi) = wilson(50.0, 100.0);
        assert!((p - 0.5).abs() < 1e-12);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3);
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.75) - 190.85).abs() < 0.1);
        // Issue 39, item 11: no `-0`, and no infinite numbers printed.
        assert_eq!(fmt_elo(-0.3), "0");
        assert_eq!(fmt_elo(elo(0.75)), "+191");
        assert_eq!(
            elo_line(1.0, 0.7, 1.0),
            "Elo A - B: no finite estimate (A scored all of the points), 95 % interval [+147, no upper bound]"
        );
        assert_eq!(
            elo_line(0.5, 0.0, 1.0),
            "Elo A - B 0, 95 % interval [no lower bound, no upper bound]"
        );
    }

    #[test]
    fn margins_are_taken_from_a_side_and_skip_games_not_counted() {
        let mut m = Margins::default();
        assert!(m.line(0).contains("no game was counted"));
        m.add(&Ending::Score(24.5), true); // A Black won by 24.5
        m.add(&Ending::Score(-20.5), false); // A White won by 20.5
        m.add(&Ending::Score(-10.5), true); // A Black lost by 10.5
        m.add(&Ending::Resign(Color::Black), true);
        m.add(&Ending::Forfeit(Color::White, "timeout".into()), false);
        assert_eq!(m.n, 3);
        // Mean 34.5 / 3 = 11.5; sample sd of (24.5, 20.5, -10.5) is 19.16, se 11.06.
        let line = m.line(5);
        assert!(line.contains("margin +11.5 points"), "{line}");
        assert!(line.contains("[-10.2, +33.2]"), "{line}");
        assert!(line.contains("over 3 game(s)"), "{line}");
        assert!(line.contains("2 resigned or forfeited"), "{line}");
    }
}
