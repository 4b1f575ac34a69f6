//! The answers of the JSON analysis protocol: one turn's search as a JSON object.
//!
//! The figures are [`Analysis`]'s (defined there, documented in the README's analysis
//! section), given from Black's side (as KataGo reports them with `reportAnalysisWinratesAs =
//! BLACK`): win rates, score leads and score means; ownership from Black's side too, row by row
//! from the top-left point. A move with no playout of its own is left out. `prior` and `policy`
//! are the move model's probabilities ([`crate::engine::player::Engine::policy`]).

use crate::board::Color;
use crate::engine::player::Analysis;
use crate::game::VertexMove;
use serde_json::{json, Map, Value};

/// `v` from the player to move's side to Black's.
fn blacks(to_move: Color, v: f32, flip: impl Fn(f32) -> f32) -> f32 {
    if to_move == Color::Black {
        v
    } else {
        flip(v)
    }
}

/// A number for JSON, rounded to 6 decimals (f32 noise dropped).
fn num(x: f32) -> Value {
    json!((f64::from(x) * 1e6).round() / 1e6)
}

/// What an answer holds besides the figures every answer has.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Extras {
    /// The position's ownership (`includeOwnership`).
    pub ownership: bool,
    /// Each move's ownership (`includeMovesOwnership`).
    pub moves_ownership: bool,
    /// `policy` (`includePolicy`).
    pub policy: bool,
    /// A report while the search runs (`isDuringSearch: true`), not its final answer.
    pub during_search: bool,
}

/// The answer for turn `turn` of query `id`, from the search `a`; `model` is the move model's
/// policy of the position ([`crate::engine::player::Engine::policy`]), each move's `prior`.
#[must_use]
pub fn turn(id: &str, turn: usize, a: &Analysis, model: &[f32], extras: Extras) -> Value {
    let c = a.to_move;
    let win = |w: f32| num(blacks(c, w, |w| 1.0 - w));
    let lead = |s: f32| num(blacks(c, s, |s| -s));
    let prior = |m: VertexMove| num(m.prior_in(model, a.size));
    let infos: Vec<Value> = a
        .moves
        .iter()
        .filter(|m| m.visits > 0)
        .enumerate()
        .map(|(order, m)| {
            let mut o = Map::new();
            o.insert("move".into(), m.mv.to_string().into());
            o.insert("visits".into(), m.visits.into());
            o.insert("winrate".into(), win(m.winrate));
            if let Some(s) = m.score_lead {
                o.insert("scoreLead".into(), lead(s));
            }
            if let Some(s) = m.score_mean {
                o.insert("scoreMean".into(), lead(s));
            }
            o.insert("prior".into(), prior(m.mv));
            o.insert("order".into(), order.into());
            let pv: Vec<String> = m.pv.iter().map(ToString::to_string).collect();
            o.insert("pv".into(), pv.into());
            if extras.moves_ownership {
                o.insert("ownership".into(), grid(&m.ownership, a.size));
            }
            Value::Object(o)
        })
        .collect();
    let mut root = Map::new();
    root.insert("visits".into(), a.root_visits.into());
    root.insert("winrate".into(), win(a.winrate));
    if let Some(s) = a.score_lead {
        root.insert("scoreLead".into(), lead(s));
    }
    if let Some(s) = a.score_mean {
        root.insert("scoreMean".into(), lead(s));
    }
    root.insert("currentPlayer".into(), c.letter().to_string().into());
    let mut out = Map::new();
    out.insert("id".into(), id.into());
    out.insert("isDuringSearch".into(), extras.during_search.into());
    out.insert("turnNumber".into(), turn.into());
    out.insert("moveInfos".into(), infos.into());
    out.insert("rootInfo".into(), Value::Object(root));
    if extras.ownership {
        out.insert("ownership".into(), grid(&a.ownership, a.size));
    }
    if extras.policy {
        let policy: Vec<Value> = model.iter().map(|&p| num(p)).collect();
        out.insert("policy".into(), policy.into());
    }
    Value::Object(out)
}

/// An ownership grid of a `size x size` board (zeros where the search has none).
fn grid(ownership: &[f32], size: usize) -> Value {
    let own: Vec<Value> = if ownership.len() == size * size {
        ownership.iter().map(|&o| num(o)).collect()
    } else {
        vec![num(0.0); size * size]
    };
    own.into()
}

/// The answer for a turn a `terminate` dropped before its search.
#[must_use]
pub fn no_results(id: &str, turn: usize) -> Value {
    json!({"id": id, "isDuringSearch": false, "turnNumber": turn, "noResults": true})
}
