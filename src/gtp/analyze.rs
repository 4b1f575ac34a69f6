//! Text forms of a search for analysis clients: Leela Zero's and KataGo's `info` lines, GoGui
//! boards, and the summary written to stderr after a move.

use crate::board::Color;
use crate::engine::player::{Analysis, MoveInfo};
use std::fmt::Write as _;

/// Which dialect of `info` lines to write.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dialect {
    /// `lz-analyze`: win rates and priors as integers times 10000.
    Leela,
    /// `kata-analyze`: floats in `[0, 1]`, score fields, optional ownership.
    Kata { ownership: bool },
}

/// Lower confidence bound of a win rate over `n` samples (normal approximation, 1.96 sigma).
fn lcb(m: &MoveInfo) -> f32 {
    let n = m.visits.max(1) as f32;
    let w = m.winrate;
    (w - 1.96 * (w * (1.0 - w) / n).sqrt()).max(0.0)
}

fn pv_text(m: &MoveInfo) -> String {
    let v: Vec<String> = m.pv.iter().map(ToString::to_string).collect();
    v.join(" ")
}

/// KataGo's score fields for a score mean and a score lead (see [`Analysis`]), `extra` between
/// them; nothing without a score (never a made-up 0).
fn score_fields(mean: Option<f32>, lead: Option<f32>, extra: &str) -> String {
    match (mean, lead) {
        (Some(m), Some(l)) => format!(" scoreMean {m:.2}{extra} scoreLead {l:.2}"),
        _ => String::new(),
    }
}

/// What an analysis line holds besides the dialect's `info` fields (the analysis commands'
/// arguments, see [`crate::gtp::analyze_args`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct InfoFormat {
    pub dialect: Dialect,
    /// Report at least this many moves, unsearched ones included if needed.
    pub min_moves: usize,
    /// Report at most this many moves.
    pub max_moves: Option<usize>,
    /// A `pvVisits` list after each `pv`.
    pub pv_visits: bool,
    /// A `rootInfo` entry after the moves (KataGo dialect).
    pub root_info: bool,
}

impl InfoFormat {
    /// The dialect's plain line: every searched move, nothing more.
    #[must_use]
    pub fn plain(dialect: Dialect) -> Self {
        Self {
            dialect,
            min_moves: 0,
            max_moves: None,
            pv_visits: false,
            root_info: false,
        }
    }
}

/// The moves a line reports: those with visits, best first, then unsearched ones up to
/// `min_moves`, all capped at `max_moves`.
fn reported<'a>(a: &'a Analysis, f: &InfoFormat) -> Vec<&'a MoveInfo> {
    let mut moves: Vec<&MoveInfo> = a.moves.iter().filter(|m| m.visits > 0).collect();
    let unsearched = a.moves.iter().filter(|m| m.visits == 0);
    let missing = f.min_moves.saturating_sub(moves.len());
    moves.extend(unsearched.take(missing));
    moves.truncate(f.max_moves.unwrap_or(usize::MAX));
    moves
}

/// One analysis line: an `info` entry per reported move (see [`InfoFormat`]), then KataGo's
/// `rootInfo` and ownership when asked for. Empty when nothing has been searched yet. Each
/// move's `prior` is its probability in `policy`, the move model's policy of the position
/// ([`crate::engine::player::Engine::policy`], ordered by [`crate::game::VertexMove::policy_slot`]).
#[must_use]
pub fn info_line(a: &Analysis, f: &InfoFormat, policy: &[f32]) -> String {
    if a.moves.iter().all(|m| m.visits == 0) {
        return String::new();
    }
    let mut parts: Vec<String> = Vec::new();
    for (order, m) in reported(a, f).into_iter().enumerate() {
        let prior = m.mv.prior_in(policy, a.size);
        let mut info = match f.dialect {
            Dialect::Leela => format!(
                "info move {} visits {} winrate {} prior {} lcb {} order {order} pv {}",
                m.mv,
                m.visits,
                (m.winrate * 10000.0).round() as i32,
                (prior * 10000.0).round() as i32,
                (lcb(m) * 10000.0).round() as i32,
                pv_text(m)
            ),
            Dialect::Kata { .. } => {
                // A move without a score of its own (no playout through it yet) gets the
                // position's.
                let score = score_fields(
                    m.score_mean.or(a.score_mean),
                    m.score_lead.or(a.score_lead),
                    " scoreStdev 0",
                );
                format!(
                    "info move {} visits {} utility {:.4} winrate {:.4}{score} prior {prior:.4} \
                     lcb {:.4} order {order} pv {}",
                    m.mv,
                    m.visits,
                    2.0 * m.winrate - 1.0,
                    m.winrate,
                    lcb(m),
                    pv_text(m)
                )
            }
        };
        if f.pv_visits {
            info.push_str(" pvVisits");
            for v in &m.pv_visits {
                let _ = write!(info, " {v}");
            }
        }
        parts.push(info);
    }
    if f.root_info {
        parts.push(format!(
            "rootInfo visits {} utility {:.4} winrate {:.4}{}",
            a.root_visits,
            2.0 * a.winrate - 1.0,
            a.winrate,
            score_fields(a.score_mean, a.score_lead, "")
        ));
    }
    if let Dialect::Kata { ownership: true } = f.dialect {
        if !a.ownership.is_empty() {
            // KataGo reports ownership from the side to move's point of view.
            let sign = if a.to_move == Color::Black { 1.0 } else { -1.0 };
            let mut s = String::from("ownership");
            for &o in &a.ownership {
                let _ = write!(s, " {:.3}", sign * o);
            }
            parts.push(s);
        }
    }
    parts.join(" ")
}

/// A GoGui `dboard`: one row of floats per board line, top row first.
#[must_use]
pub fn dboard(values: &[f32], size: usize) -> String {
    if values.len() != size * size {
        return String::new();
    }
    values
        .chunks(size)
        .map(|row| {
            row.iter()
                .map(|v| format!("{v:.2}"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A GoGui `sboard` of visit counts (`""` where a point has none), top row first.
#[must_use]
pub fn visits_sboard(a: &Analysis) -> String {
    let n = a.size;
    let mut grid = vec![String::from("\"\""); n * n];
    for m in &a.moves {
        if let crate::game::VertexMove::Play(v) = m.mv {
            if m.visits > 0 {
                let row = n - 1 - usize::from(v.y);
                grid[row * n + usize::from(v.x)] = m.visits.to_string();
            }
        }
    }
    grid.chunks(n)
        .map(|r| r.join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// GoGui live graphics for a running search: `gogui-gfx:`, the best move's principal
/// variation as a `VAR` line and a `TEXT` line, ending with a blank line (the caller writes it on
/// stderr with a newline). `None` before any move has been searched.
#[must_use]
pub fn gogui_gfx(a: &Analysis) -> Option<String> {
    let best = a.moves.first()?;
    let mut var = String::new();
    let mut col = a.to_move;
    for m in &best.pv {
        let _ = write!(var, " {} {m}", col.letter().to_ascii_lowercase());
        col = !col;
    }
    Some(format!(
        "gogui-gfx:\nVAR{var}\nTEXT {} playouts, win rate {:.1} %\n",
        a.playouts,
        100.0 * a.winrate
    ))
}

/// The stderr summary of a search.
#[must_use]
pub fn summary(a: &Analysis, played: &str, threads: usize) -> String {
    let mut s = format!(
        "{} {played}: {} playouts in {:.2} s ({:.0}/s, {threads} thread(s)), {} nodes, win rate {:.1} %",
        a.to_move.letter(),
        a.playouts,
        a.elapsed.as_secs_f64(),
        a.playouts_per_sec(),
        a.nodes,
        100.0 * a.winrate
    );
    if let Some(l) = a.score_lead {
        let _ = write!(s, ", score lead {l:+.1}");
    }
    let reused = u64::from(a.tree_visits).saturating_sub(a.playouts);
    if reused > 0 {
        let _ = write!(s, ", {reused} visits reused");
    }
    if let Some(stop) = a.stop {
        let _ = write!(s, ", stop: {stop:?}");
    }
    for m in a.moves.iter().take(4) {
        let _ = write!(
            s,
            "\n  {:<5} {:>8} visits  {:5.1} %  amaf {:5.1} % ({})  pv {}",
            m.mv.to_string(),
            m.visits,
            100.0 * m.winrate,
            100.0 * m.amaf_winrate,
            m.amaf_visits,
            pv_text(m)
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Vertex, VertexMove};
    use std::time::Duration;

    fn analysis() -> Analysis {
        let mv = |x, y| VertexMove::Play(Vertex::new(x, y));
        let info =
            |m: VertexMove, visits: u32, pv: Vec<VertexMove>, pv_visits: Vec<u32>| MoveInfo {
                mv: m,
                visits,
                winrate: 0.5,
                score_lead: Some(1.0),
                score_mean: Some(1.0),
                ownership: Vec::new(),
                amaf_winrate: 0.5,
                amaf_visits: 0,
                pv,
                pv_visits,
            };
        Analysis {
            size: 9,
            to_move: Color::Black,
            playouts: 30,
            elapsed: Duration::from_secs(1),
            nodes: 10,
            root_visits: 30,
            tree_visits: 30,
            moves: vec![
                info(mv(4, 4), 20, vec![mv(4, 4), mv(3, 3)], vec![20, 7]),
                info(mv(2, 2), 10, vec![mv(2, 2)], vec![10]),
                info(VertexMove::Pass, 0, vec![], vec![]),
            ],
            winrate: 0.5,
            score_lead: Some(1.0),
            score_mean: Some(1.0),
            ownership: Vec::new(),
            stop: None,
        }
    }

    fn moves(line: &str) -> Vec<&str> {
        line.split("info move ")
            .skip(1)
            .map(|s| s.split(' ').next().unwrap())
            .collect()
    }

    #[test]
    fn min_and_max_moves() {
        let a = analysis();
        let mut f = InfoFormat::plain(Dialect::Leela);
        assert_eq!(moves(&info_line(&a, &f, &[])), ["E5", "C3"]);
        f.min_moves = 3;
        assert_eq!(moves(&info_line(&a, &f, &[])), ["E5", "C3", "pass"]);
        f.max_moves = Some(1);
        assert_eq!(moves(&info_line(&a, &f, &[])), ["E5"]);
        f.max_moves = Some(0);
        assert_eq!(info_line(&a, &f, &[]), "");
    }

    #[test]
    fn priors_are_the_policy_of_the_position() {
        let a = analysis();
        let mut policy = vec![-1.0; 82];
        // E5 and C3 of 9x9, row by row from A9.
        policy[(8 - 4) * 9 + 4] = 0.25;
        policy[(8 - 2) * 9 + 2] = 0.5;
        let line = info_line(&a, &InfoFormat::plain(Dialect::Leela), &policy);
        assert!(
            line.contains("info move E5 visits 20 winrate 5000 prior 2500 "),
            "{line}"
        );
        assert!(
            line.contains("info move C3 visits 10 winrate 5000 prior 5000 "),
            "{line}"
        );
        let line = info_line(
            &a,
            &InfoFormat::plain(Dialect::Kata { ownership: false }),
            &policy,
        );
        assert!(line.contains(" prior 0.2500 "), "{line}");
        assert!(line.contains(" prior 0.5000 "), "{line}");
        // An illegal point (-1) or no policy at all gives 0, never a negative prior.
        policy[(8 - 4) * 9 + 4] = -1.0;
        let line = info_line(&a, &InfoFormat::plain(Dialect::Leela), &policy);
        assert!(
            line.contains("info move E5 visits 20 winrate 5000 prior 0 "),
            "{line}"
        );
    }

    #[test]
    fn pv_visits_and_root_info() {
        let a = analysis();
        let mut f = InfoFormat::plain(Dialect::Kata { ownership: false });
        f.pv_visits = true;
        f.root_info = true;
        let line = info_line(&a, &f, &[]);
        assert!(
            line.contains(" pv E5 D4 pvVisits 20 7 info move C3 "),
            "{line}"
        );
        assert!(line.ends_with(" pv C3 pvVisits 10 rootInfo visits 30 utility 0.0000 winrate 0.5000 scoreMean 1.00 scoreLead 1.00"), "{line}");
    }

    #[test]
    fn a_move_without_a_score_never_shows_zero() {
        let mut a = analysis();
        a.moves[1].score_lead = None;
        a.moves[1].score_mean = None;
        a.score_lead = Some(-3.5);
        a.score_mean = Some(-3.5);
        let mut f = InfoFormat::plain(Dialect::Kata { ownership: false });
        f.root_info = true;
        let line = info_line(&a, &f, &[]);
        assert!(
            line.contains(" scoreMean 1.00 scoreStdev 0 scoreLead 1.00 "),
            "{line}"
        );
        // C3 has no score of its own: the position's.
        assert!(
            line.contains("info move C3 visits 10 utility 0.0000 winrate 0.5000 scoreMean -3.50 "),
            "{line}"
        );
        // Nothing known at all: no score fields, not a 0.
        a.score_lead = None;
        a.score_mean = None;
        let line = info_line(&a, &f, &[]);
        assert!(
            line.contains("info move C3 visits 10 utility 0.0000 winrate 0.5000 prior "),
            "{line}"
        );
        assert!(line.ends_with("winrate 0.5000"), "{line}");
        assert!(!line.contains("0.00 scoreStdev"), "{line}");
    }
}
