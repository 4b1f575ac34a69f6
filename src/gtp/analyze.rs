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

/// One analysis line: an `info` entry per move with visits, best first (KataGo's ownership at
/// the end). Empty when nothing has been searched yet.
#[must_use]
pub fn info_line(a: &Analysis, dialect: Dialect) -> String {
    let mut s = String::new();
    let searched: Vec<&MoveInfo> = a.moves.iter().filter(|m| m.visits > 0).collect();
    let prior = 1.0 / a.moves.len().max(1) as f32;
    for (order, m) in searched.iter().enumerate() {
        if !s.is_empty() {
            s.push(' ');
        }
        match dialect {
            Dialect::Leela => {
                let _ = write!(
                    s,
                    "info move {} visits {} winrate {} prior {} lcb {} order {order} pv {}",
                    m.mv,
                    m.visits,
                    (m.winrate * 10000.0).round() as i32,
                    (prior * 10000.0).round() as i32,
                    (lcb(m) * 10000.0).round() as i32,
                    pv_text(m)
                );
            }
            Dialect::Kata { .. } => {
                let lead = m.score_lead.unwrap_or(0.0);
                let _ = write!(
                    s,
                    "info move {} visits {} utility {:.4} winrate {:.4} scoreMean {lead:.2} \
                     scoreStdev 0 scoreLead {lead:.2} prior {prior:.4} lcb {:.4} order {order} pv {}",
                    m.mv,
                    m.visits,
                    2.0 * m.winrate - 1.0,
                    m.winrate,
                    lcb(m),
                    pv_text(m)
                );
            }
        }
    }
    if let Dialect::Kata { ownership: true } = dialect {
        if !a.ownership.is_empty() && !s.is_empty() {
            // KataGo reports ownership from the side to move's point of view.
            let sign = if a.to_move == Color::Black { 1.0 } else { -1.0 };
            s.push_str(" ownership");
            for &o in &a.ownership {
                let _ = write!(s, " {:.3}", sign * o);
            }
        }
    }
    s
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
    let reused = u64::from(a.root_visits).saturating_sub(a.playouts);
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
