//! `match --continue`: the games an earlier run of the match recorded in `--sgf-dir`, read back
//! from their SGF records, and the games still to play.
//!
//! Game `g` is recorded as `game-{g:04}.sgf`, and engine A has Black in the even-numbered games,
//! so a record's number says who played which colour. A continued match plays the numbers below
//! `--games` that have no record yet, in order: the gaps a stopped `--parallel 2` run can leave,
//! then the games after the last record. Every record is read and checked before anything is
//! played or written.

use super::runner::{Ending, GameResult};
use super::MatchArgs;
use crate::board::Color;
use crate::sgf;
use anyhow::{bail, Context};
use std::path::Path;
use std::time::Duration;

/// The game number of a record's file name `game-NNNN.sgf`, if it is one.
pub(super) fn record_number(name: &str) -> Option<u32> {
    let digits = name.strip_prefix("game-")?.strip_suffix(".sgf")?;
    if digits.len() < 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// How a recorded game ended, from its `RE[]` (as the match writes it: `B+3.5`, `W+R`, `B+F`,
/// `0`; `Draw`, `B+Resign` and `W+Forfeit` are read too) and, for a forfeit, its comment.
pub(super) fn ending(result: &str, comment: Option<&str>) -> Option<Ending> {
    let r = result.trim();
    if r == "0" || r.eq_ignore_ascii_case("draw") {
        return Some(Ending::Score(0.0));
    }
    let (winner, how) = match r.split_once('+')? {
        ("B", how) => (Color::Black, how),
        ("W", how) => (Color::White, how),
        _ => return None,
    };
    match how {
        "R" | "Resign" => Some(Ending::Resign(!winner)),
        "F" | "Forfeit" => Some(Ending::Forfeit(
            !winner,
            comment.unwrap_or("forfeit").to_string(),
        )),
        margin => {
            let m: f32 = margin
                .parse()
                .ok()
                .filter(|m: &f32| m.is_finite() && *m > 0.0)?;
            Some(Ending::Score(if winner == Color::Black { m } else { -m }))
        }
    }
}

/// Game `g` read back from its record `file`, checked against the match's settings.
fn read(a: &MatchArgs, g: u32, file: &Path) -> anyhow::Result<GameResult> {
    let bytes = sgf::read_bounded(file, sgf::MAX_BYTES).map_err(anyhow::Error::msg)?;
    let rec = sgf::parse(&String::from_utf8_lossy(&bytes))
        .with_context(|| format!("cannot read {}", file.display()))?;
    let show = file.display();
    if rec.size != a.size.get() {
        bail!(
            "{show} is a {0}x{0} game, this match is {1}x{1}",
            rec.size,
            a.size.get()
        );
    }
    if rec.komi != Some(a.komi) {
        bail!(
            "{show} has komi {}, this match {}",
            rec.komi.map_or("none".to_string(), |k| k.to_string()),
            a.komi
        );
    }
    let Some(result) = rec.result.as_deref() else {
        bail!("{show} has no result (RE[])");
    };
    let Some(ending) = ending(result, rec.comment.as_deref()) else {
        bail!("{show}: result RE[{result}] is not one this match writes");
    };
    let a_black = g % 2 == 0;
    let name = |n: &Option<String>| n.clone().unwrap_or_default();
    let (black, white) = (name(&rec.black_name), name(&rec.white_name));
    Ok(GameResult {
        g,
        a_black,
        ending,
        moves: rec.moves,
        names: if a_black {
            [black, white]
        } else {
            [white, black]
        },
        // Not recorded: a continued match's thinking time covers this run's games only.
        think: [Duration::ZERO; 2],
    })
}

/// The games recorded in `--sgf-dir` (by game number), or why the match cannot go on from them:
/// an unreadable record, one of another size or komi, a result not understood, or a game number
/// at or past `--games`. A directory that does not exist holds no games.
pub(super) fn recorded(a: &MatchArgs) -> anyhow::Result<Vec<GameResult>> {
    let dir = &a.sgf_dir;
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", dir.display())),
    };
    let mut numbers = Vec::new();
    for e in entries {
        let e = e.with_context(|| format!("cannot read {}", dir.display()))?;
        if let Some(g) = e.file_name().to_str().and_then(record_number) {
            numbers.push(g);
        }
    }
    numbers.sort_unstable();
    numbers.dedup();
    if let Some(&last) = numbers.last() {
        if last >= a.games {
            bail!(
                "{} holds game {last} (game-{last:04}.sgf), past --games {}: give --games {} or \
                 more to continue this match",
                dir.display(),
                a.games,
                last + 1
            );
        }
    }
    numbers
        .into_iter()
        .map(|g| read(a, g, &dir.join(format!("game-{g:04}.sgf"))))
        .collect()
}

/// The game numbers below `games` that `done` does not hold, in order.
pub(super) fn to_play(games: u32, done: &[GameResult]) -> Vec<u32> {
    let have: std::collections::HashSet<u32> = done.iter().map(|r| r.g).collect();
    (0..games).filter(|g| !have.contains(g)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_names() {
        assert_eq!(record_number("game-0000.sgf"), Some(0));
        assert_eq!(record_number("game-0123.sgf"), Some(123));
        assert_eq!(record_number("game-12345.sgf"), Some(12345));
        for bad in [
            "game-12.sgf",
            "game-00a1.sgf",
            "game-0001.SGF",
            "x-0001.sgf",
            "game-.sgf",
        ] {
            assert_eq!(record_number(bad), None, "{bad}");
        }
    }

    #[test]
    fn results_as_written_and_as_others_write_them() {
        assert_eq!(ending("B+3.5", None), Some(Ending::Score(3.5)));
        assert_eq!(ending("W+12.0", None), Some(Ending::Score(-12.0)));
        assert_eq!(ending("0", None), Some(Ending::Score(0.0)));
        assert_eq!(ending("Draw", None), Some(Ending::Score(0.0)));
        assert_eq!(ending("W+R", None), Some(Ending::Resign(Color::Black)));
        assert_eq!(ending("B+Resign", None), Some(Ending::Resign(Color::White)));
        assert_eq!(
            ending("B+F", Some("timed out")),
            Some(Ending::Forfeit(Color::White, "timed out".into()))
        );
        for bad in ["", "B", "B+", "X+3", "B+nan", "W+-2", "B+inf", "?", "B+T"] {
            assert_eq!(ending(bad, None), None, "{bad}");
        }
    }

    #[test]
    fn games_left_fill_the_gaps_first() {
        let r = |g| GameResult {
            g,
            a_black: g % 2 == 0,
            ending: Ending::Score(1.0),
            moves: Vec::new(),
            names: [String::new(), String::new()],
            think: [Duration::ZERO; 2],
        };
        assert_eq!(to_play(5, &[r(0), r(2)]), [1, 3, 4]);
        assert_eq!(to_play(2, &[r(0), r(1)]), Vec::<u32>::new());
        assert_eq!(to_play(3, &[]), [0, 1, 2]);
    }
}
