//! The arguments of the analysis commands (`lz-analyze`, `kata-analyze`, `analyze` and their
//! `*-genmove_analyze` forms): `[color] [interval] [key value]...`.
//!
//! * `color`: whose move to analyze (default: the side to move).
//! * `interval`: centiseconds between two `info` lines, a whole number (0 counts as 1); also
//!   `interval N`. Default 100.
//! * `minmoves N`, `maxmoves N`: report at least `N` root moves, unsearched ones included if
//!   needed (and if there are so many), and at most `N`.
//! * `avoid COLOR V,V,... DEPTH`: `COLOR` may not play those vertices (or `pass`) in the first
//!   `DEPTH` plies of the search, the root's move being ply 0 (see [`MoveRule`]). Repeatable.
//! * `allow COLOR V,V,... DEPTH`: `COLOR` may play only those vertices (or `pass`) there; at
//!   most one per colour, and not together with an `avoid` for that colour.
//! * `pvVisits true|false`: a `pvVisits` list of visit counts after each `pv`.
//! * `kata-analyze` forms only: `ownership true|false`, `rootInfo true|false` (a `rootInfo`
//!   entry with the root's visits, win rate and score), and `ownershipStdev`, `movesOwnership`
//!   whose `true` is refused (not computed), `false` accepted.
//!
//! Keys are matched in any case. Anything else, a missing value or a value of the wrong kind
//! is a syntax error, with what was expected.

use crate::board::Color;
use crate::engine::{MoveRule, RuleKind};
use crate::values;
use std::time::Duration;

/// The parsed arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalyzeArgs {
    pub color: Option<Color>,
    pub interval: Duration,
    pub ownership: bool,
    pub min_moves: usize,
    pub max_moves: Option<usize>,
    pub pv_visits: bool,
    pub root_info: bool,
    pub rules: Vec<MoveRule>,
}

impl Default for AnalyzeArgs {
    fn default() -> Self {
        Self {
            color: None,
            interval: Duration::from_secs(1),
            ownership: false,
            min_moves: 0,
            max_moves: None,
            pv_visits: false,
            root_info: false,
            rules: Vec::new(),
        }
    }
}

/// The largest interval, count or depth accepted.
const MAX_NUMBER: u64 = 1_000_000_000;

fn centiseconds(s: &str) -> Result<Duration, String> {
    let c = values::count(s, "centiseconds", 0, MAX_NUMBER).map_err(|e| e.to_string())?;
    Ok(Duration::from_millis(10 * c.max(1)))
}

fn moves_count(s: &str, key: &str) -> Result<usize, String> {
    values::count(s, "moves", 0, MAX_NUMBER)
        .map(|n| n as usize)
        .map_err(|e| format!("{key}: {e}"))
}

fn boolean(s: &str, key: &str) -> Result<bool, String> {
    match s.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("{key}: expected true or false, got {s}")),
    }
}

/// `COLOR V,V,... DEPTH` after `avoid` or `allow`.
fn move_rule(kind: RuleKind, words: &[String], size: usize) -> Result<MoveRule, String> {
    let key = match kind {
        RuleKind::Avoid => "avoid",
        RuleKind::Allow => "allow",
    };
    let [color, list, depth] = words else {
        return Err(format!("{key}: expected a colour, vertices and a depth"));
    };
    let color = values::color(color).map_err(|e| format!("{key}: {e}"))?;
    let moves = list
        .split(',')
        .filter(|v| !v.is_empty())
        .map(|v| values::go_move(v, size).map_err(|e| format!("{key}: {v}: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    if moves.is_empty() {
        return Err(format!("{key}: expected at least one vertex"));
    }
    let until_depth = values::count(depth, "plies", 1, MAX_NUMBER)
        .map_err(|e| format!("{key}: depth: {e}"))? as u32;
    Ok(MoveRule {
        color,
        kind,
        moves,
        until_depth,
    })
}

/// Parses `args` of a command in the KataGo dialect (`kata`) or Leela Zero's, for a `size`
/// board. The error says what is wrong (the caller prefixes `syntax error: `).
pub fn parse(args: &[String], kata: bool, size: usize) -> Result<AnalyzeArgs, String> {
    let mut a = AnalyzeArgs::default();
    let mut rest = args;
    if let Some(c) = rest.first().and_then(|w| values::color(w).ok()) {
        a.color = Some(c);
        rest = &rest[1..];
    }
    if let Some(w) = rest.first().filter(|w| w.parse::<f64>().is_ok()) {
        a.interval = centiseconds(w)?;
        rest = &rest[1..];
    }
    while let Some((key, tail)) = rest.split_first() {
        let Some(value) = tail.first() else {
            return Err(format!("{key}: missing value"));
        };
        let lower = key.to_ascii_lowercase();
        let kata_only = ["ownership", "ownershipstdev", "movesownership", "rootinfo"];
        if !kata && kata_only.contains(&lower.as_str()) {
            return Err(format!("{key} is a kata-analyze argument"));
        }
        let mut used = 2;
        match lower.as_str() {
            "interval" => a.interval = centiseconds(value)?,
            "minmoves" => a.min_moves = moves_count(value, key)?,
            "maxmoves" => a.max_moves = Some(moves_count(value, key)?),
            "pvvisits" => a.pv_visits = boolean(value, key)?,
            "ownership" => a.ownership = boolean(value, key)?,
            "rootinfo" => a.root_info = boolean(value, key)?,
            "ownershipstdev" | "movesownership" => {
                if boolean(value, key)? {
                    return Err(format!("{key} true is not supported"));
                }
            }
            "avoid" | "allow" => {
                let kind = if lower == "avoid" {
                    RuleKind::Avoid
                } else {
                    RuleKind::Allow
                };
                let rule = move_rule(kind, tail.get(..3).unwrap_or(tail), size)?;
                let clash = a.rules.iter().any(|r| {
                    r.color == rule.color
                        && (r.kind == RuleKind::Allow || rule.kind == RuleKind::Allow)
                });
                if clash {
                    return Err(format!(
                        "{key}: allow must be the only avoid or allow for its colour"
                    ));
                }
                a.rules.push(rule);
                used = 4;
            }
            _ => return Err(format!("unknown argument {key}")),
        }
        rest = &rest[used..];
    }
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Vertex, VertexMove};

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    fn kata(s: &str) -> Result<AnalyzeArgs, String> {
        parse(&words(s), true, 9)
    }

    fn lz(s: &str) -> Result<AnalyzeArgs, String> {
        parse(&words(s), false, 9)
    }

    #[test]
    fn colour_interval_and_switches() {
        let a = kata("w 50 ownership true pvVisits true rootInfo TRUE").unwrap();
        assert_eq!(a.color, Some(Color::White));
        assert_eq!(a.interval, Duration::from_millis(500));
        assert!(a.ownership && a.pv_visits && a.root_info);
        assert_eq!(lz("").unwrap(), AnalyzeArgs::default());
        assert_eq!(
            lz("interval 0").unwrap().interval,
            Duration::from_millis(10)
        );
        let a = lz("b minmoves 5 maxmoves 3").unwrap();
        assert_eq!((a.min_moves, a.max_moves), (5, Some(3)));
        assert!(
            !kata("ownershipStdev false movesOwnership false")
                .unwrap()
                .ownership
        );
    }

    #[test]
    fn garbage_is_refused() {
        for bad in [
            "foo",
            "x",
            "-5",
            "b -5",
            "1.5",
            "50 ownership maybe",
            "b 50 10",
            "interval",
            "interval x",
            "minmoves -1",
            "maxmoves many",
            "ownershipStdev true",
            "movesOwnership true",
            "pvVisits yes",
            "avoid b e5",
            "avoid b e5 0",
            "avoid b e5 x",
            "avoid x e5 1",
            "avoid b z9 1",
            "avoid b e5,k9 1",
            "avoid b , 1",
            "allow b e5 1 allow b d4 1",
            "allow b e5 1 avoid b d4 1",
            "avoid w d4 1 allow w e5 1",
        ] {
            assert!(kata(bad).is_err(), "{bad} accepted");
        }
        assert!(lz("ownership true").is_err());
        assert!(lz("rootInfo true").is_err());
    }

    #[test]
    fn avoid_and_allow() {
        let a = kata("b 50 avoid b e5,pass,,d4 1 avoid w c3 2 allow w d4 1").unwrap_err();
        assert!(a.contains("allow"), "{a}");
        let a = lz("b 50 avoid b e5,pass,d4 1 avoid b c3 2 allow w d4 3 interval 20").unwrap();
        assert_eq!(a.interval, Duration::from_millis(200));
        assert_eq!(a.rules.len(), 3);
        assert_eq!(
            a.rules[0],
            MoveRule {
                color: Color::Black,
                kind: RuleKind::Avoid,
                moves: vec![
                    VertexMove::Play(Vertex::new(4, 4)),
                    VertexMove::Pass,
                    VertexMove::Play(Vertex::new(3, 3)),
                ],
                until_depth: 1,
            }
        );
        assert_eq!(a.rules[2].kind, RuleKind::Allow);
        assert_eq!(a.rules[2].until_depth, 3);
    }
}
