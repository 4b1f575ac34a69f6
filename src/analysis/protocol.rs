//! The requests of the JSON analysis protocol, read from one line of JSON each (serde_json) and
//! checked field by field, so that a bad request is answered with the field at fault.
//!
//! Bounds: at most [`MAX_MOVES`] moves, one setup stone per point, `analyzeTurns` of distinct
//! turns, `maxVisits` at most [`MAX_VISITS`], at most [`MAX_RULES`] move rules of at most one
//! move per point each, times of at most [`MAX_SECONDS`]; the line itself is bounded by the
//! reader ([`super::MAX_LINE`]).
//!
//! `options` reads the fields that shape the search (times, priorities, `overrideSettings`).

use crate::board::{BoardSize, Color};
use crate::engine::{MoveRule, RuleKind};
use crate::game::{Rules, Vertex, VertexMove};
use crate::values;
use serde_json::{json, Map, Value};
use std::time::Duration;

/// Most moves a request may give: more than any real game (a long 19x19 game is about 400).
pub const MAX_MOVES: usize = 2000;

/// Most visits a request may ask for per turn: the search tree's default arena holds as many
/// nodes.
pub const MAX_VISITS: u64 = 1 << 24;

/// Most `allowMoves` plus `avoidMoves` entries.
pub const MAX_RULES: usize = 16;

/// Komi when a request gives none (the usual komi of area scoring).
pub const DEFAULT_KOMI: f32 = 7.5;

/// Longest time a request may give (`maxTime`, `reportDuringSearchEvery`), in seconds: a
/// larger one is taken as this (about 31 years: no limit in practice, as KataGo's default
/// `maxTime` of 1e20 means).
pub const MAX_SECONDS: f64 = 1e9;

/// Shortest interval between two reports during a search: a smaller
/// `reportDuringSearchEvery` is taken as this, so that a request cannot flood the output.
pub const MIN_REPORT_EVERY: Duration = Duration::from_millis(10);

/// The note of a query under territory rules, which tengen answers scored by area. It goes to
/// stderr, once a run, not to stdout: a client that reads every output line of a query as one
/// turn's answer (as batch scripts written for KataGo do, which has no such warning) would
/// miscount an extra line.
pub const TERRITORY: &str = "territory scoring is not played: tengen answers scored by area \
                             (Chinese rules: stones and empty points surrounded), so the score \
                             leads count area, not territory";

/// Fields read and used.
const USED: &[&str] = &[
    "id",
    "action",
    "terminateId",
    "moves",
    "initialStones",
    "initialPlayer",
    "rules",
    "komi",
    "boardXSize",
    "boardYSize",
    "maxVisits",
    "analyzeTurns",
    "includeOwnership",
    "includeMovesOwnership",
    "allowMoves",
    "avoidMoves",
    "includePolicy",
    "reportDuringSearchEvery",
    "priority",
    "priorities",
    "overrideSettings",
    "turnNumbers",
];

/// One position search: the game, the turns to analyse, what to report.
#[derive(Clone, Debug, PartialEq)]
pub struct Query {
    pub id: String,
    pub size: BoardSize,
    pub komi: f32,
    /// Setup stones before the moves.
    pub initial: Vec<(Color, Vertex)>,
    /// Who plays first when no move says so (`initialPlayer`, else Black).
    pub initial_player: Option<Color>,
    pub moves: Vec<(Color, VertexMove)>,
    /// Turns to analyse (the position after that many moves), in the order given.
    pub turns: Vec<usize>,
    /// Visits per turn, if the request sets them.
    pub max_visits: Option<u64>,
    pub ownership: bool,
    /// `includeMovesOwnership`: each move's ownership too.
    pub moves_ownership: bool,
    /// `allowMoves` and `avoidMoves`.
    pub rules: Vec<MoveRule>,
    /// `includePolicy`: answer with the move model's probabilities.
    pub policy: bool,
    /// `reportDuringSearchEvery`: the interval of the `isDuringSearch` reports (at least
    /// [`MIN_REPORT_EVERY`]), if any.
    pub report_every: Option<Duration>,
    /// `overrideSettings.maxTime`: the longest search of each turn, if the request sets it.
    pub max_time: Option<Duration>,
    /// The priority of each turn of `turns` (`priorities`, else `priority` for each, else 0):
    /// higher ones are searched first, ties in the order the turns arrived.
    pub priorities: Vec<i64>,
    /// The rules tengen plays the query under (`rules`).
    pub game_rules: Rules,
    /// Whether the query asked for territory scoring, answered under area scoring (a note on
    /// stderr says so, [`TERRITORY`]).
    pub territory: bool,
}

impl Query {
    /// The player to move at turn `t`: the next move's player, else the opposite of the last
    /// move's, else `initialPlayer` or Black.
    #[must_use]
    pub fn to_move(&self, t: usize) -> Color {
        match (
            self.moves.get(t),
            t.checked_sub(1).and_then(|p| self.moves.get(p)),
        ) {
            (Some(&(c, _)), _) => c,
            (None, Some(&(c, _))) => !c,
            (None, None) => self.initial_player.unwrap_or(Color::Black),
        }
    }
}

/// A request.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    Query(Query),
    /// `{"action": "query_version"}`.
    Version {
        id: String,
    },
    /// `{"action": "terminate", "terminateId": ...}` (`target` that id) or
    /// `{"action": "terminate_all"}` (`target` `None`: every query), each with optional
    /// `turnNumbers` (`turns`: only those turns): drop the queries' turns not yet searched and
    /// stop the running search.
    Terminate {
        id: String,
        target: Option<String>,
        turns: Option<Vec<usize>>,
    },
}

impl Request {
    /// The acknowledgement of a `terminate` or `terminate_all`: the request's fields echoed,
    /// as KataGo answers it. `None` for other requests.
    #[must_use]
    pub fn terminate_echo(&self) -> Option<Value> {
        let Request::Terminate { id, target, turns } = self else {
            return None;
        };
        let mut m = Map::new();
        m.insert("id".into(), id.clone().into());
        match target {
            Some(t) => {
                m.insert("action".into(), "terminate".into());
                m.insert("terminateId".into(), t.clone().into());
            }
            None => {
                m.insert("action".into(), "terminate_all".into());
            }
        }
        if let Some(t) = turns {
            m.insert("turnNumbers".into(), t.clone().into());
        }
        Some(Value::Object(m))
    }
}

/// A request refused: the message, and the request's id and the field at fault when known.
#[derive(Clone, Debug, PartialEq)]
pub struct BadRequest {
    pub id: Option<String>,
    pub field: Option<String>,
    pub error: String,
}

impl BadRequest {
    /// The error answer: `{"error": ..., "id": ..., "field": ...}` (id and field if known).
    #[must_use]
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("error".into(), self.error.clone().into());
        if let Some(f) = &self.field {
            m.insert("field".into(), f.clone().into());
        }
        if let Some(id) = &self.id {
            m.insert("id".into(), id.clone().into());
        }
        Value::Object(m)
    }
}

/// A request read from `line`, and a warning answer for every field it ignores (an
/// `overrideSettings` entry too).
pub fn parse(line: &str) -> (Result<Request, BadRequest>, Vec<Value>) {
    let value: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => {
            let error = format!("could not parse JSON: {e}");
            return (
                Err(BadRequest {
                    id: None,
                    field: None,
                    error,
                }),
                Vec::new(),
            );
        }
    };
    let Value::Object(m) = value else {
        let error = "a request must be a JSON object".to_string();
        let bad = BadRequest {
            id: None,
            field: None,
            error,
        };
        return (Err(bad), Vec::new());
    };
    let id = match m.get("id") {
        Some(Value::String(s)) => s.clone(),
        _ => {
            let bad = BadRequest {
                id: None,
                field: Some("id".into()),
                error: "a request must have a string id".into(),
            };
            return (Err(bad), Vec::new());
        }
    };
    let mut warnings: Vec<Value> = m
        .keys()
        .filter(|k| !USED.contains(&k.as_str()))
        .map(|k| json!({"id": id, "field": k, "warning": "unused field: tengen ignores it"}))
        .collect();
    let request = Fields { m: &m, id: &id }.request(&mut warnings);
    (request, warnings)
}

/// The fields of one request, read with errors that name them.
struct Fields<'a> {
    m: &'a Map<String, Value>,
    id: &'a str,
}

impl Fields<'_> {
    fn bad(&self, field: &str, error: impl Into<String>) -> BadRequest {
        BadRequest {
            id: Some(self.id.to_string()),
            field: Some(field.to_string()),
            error: error.into(),
        }
    }

    fn request(&self, warnings: &mut Vec<Value>) -> Result<Request, BadRequest> {
        let id = self.id.to_string();
        match self.m.get("action") {
            None => Ok(Request::Query(self.query(warnings)?)),
            Some(Value::String(a)) if a == "query_version" => Ok(Request::Version { id }),
            Some(Value::String(a)) if a == "terminate" => match self.m.get("terminateId") {
                Some(Value::String(t)) => Ok(Request::Terminate {
                    id,
                    target: Some(t.clone()),
                    turns: self.turn_numbers()?,
                }),
                _ => Err(self.bad("terminateId", "terminate needs a string terminateId")),
            },
            Some(Value::String(a)) if a == "terminate_all" => Ok(Request::Terminate {
                id,
                target: None,
                turns: self.turn_numbers()?,
            }),
            Some(_) => Err(self.bad(
                "action",
                "unknown action: tengen knows query_version, terminate and terminate_all",
            )),
        }
    }

    fn query(&self, warnings: &mut Vec<Value>) -> Result<Query, BadRequest> {
        let size = self.size()?;
        let n = size.get();
        let komi = match self.m.get("komi") {
            None => DEFAULT_KOMI,
            Some(v) => v
                .as_f64()
                .filter(|k| k.is_finite() && k.abs() <= f64::from(values::MAX_KOMI))
                .map(|k| k as f32)
                .ok_or_else(|| {
                    self.bad(
                        "komi",
                        format!("komi must be a number from -{0} to {0}", values::MAX_KOMI),
                    )
                })?,
        };
        let (rules_played, territory) = self.rules()?;
        let moves = self.moves("moves", n, MAX_MOVES, true)?;
        let initial = self
            .moves("initialStones", n, n * n, false)?
            .into_iter()
            .filter_map(|(c, m)| match m {
                VertexMove::Play(v) => Some((c, v)),
                VertexMove::Pass => None,
            })
            .collect();
        let initial_player =
            match self.m.get("initialPlayer") {
                None => None,
                Some(v) => Some(v.as_str().and_then(|s| values::color(s).ok()).ok_or_else(
                    || self.bad("initialPlayer", "initialPlayer must be \"B\" or \"W\""),
                )?),
            };
        let turns = self.turns(moves.len())?;
        let max_visits = match self.m.get("maxVisits") {
            None => None,
            Some(v) => Some(
                v.as_u64()
                    .filter(|&x| (1..=MAX_VISITS).contains(&x))
                    .ok_or_else(|| {
                        self.bad(
                            "maxVisits",
                            format!("maxVisits must be a whole number from 1 to {MAX_VISITS}"),
                        )
                    })?,
            ),
        };
        let ownership = self.flag("includeOwnership")?;
        let policy = self.flag("includePolicy")?;
        let report_every = match self.m.get("reportDuringSearchEvery") {
            None => None,
            Some(v) => Some(
                self.seconds(v, "reportDuringSearchEvery")?
                    .max(MIN_REPORT_EVERY),
            ),
        };
        let priorities = self.priorities(turns.len())?;
        let max_time = self.override_settings(warnings)?;
        let moves_ownership = self.flag("includeMovesOwnership")?;
        let mut rules = self.move_rules("allowMoves", RuleKind::Allow, n)?;
        if rules.len() > 1 {
            return Err(self.bad("allowMoves", "at most one allowMoves entry is supported"));
        }
        rules.extend(self.move_rules("avoidMoves", RuleKind::Avoid, n)?);
        Ok(Query {
            id: self.id.to_string(),
            size,
            komi,
            initial,
            initial_player,
            moves,
            turns,
            max_visits,
            ownership,
            moves_ownership,
            rules,
            policy,
            report_every,
            max_time,
            priorities,
            game_rules: rules_played,
            territory,
        })
    }

    /// A true-or-false field, false when missing.
    fn flag(&self, field: &str) -> Result<bool, BadRequest> {
        match self.m.get(field) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(self.bad(field, format!("{field} must be true or false"))),
        }
    }

    fn size(&self) -> Result<BoardSize, BadRequest> {
        let side = |field: &str| -> Result<u64, BadRequest> {
            self.m
                .get(field)
                .and_then(Value::as_u64)
                .ok_or_else(|| self.bad(field, format!("{field} must be a whole number")))
        };
        let (x, y) = (side("boardXSize")?, side("boardYSize")?);
        if x != y {
            return Err(self.bad(
                "boardYSize",
                format!("tengen plays square boards only: boardXSize {x}, boardYSize {y}"),
            ));
        }
        usize::try_from(x)
            .ok()
            .and_then(BoardSize::new)
            .ok_or_else(|| {
                self.bad(
                    "boardXSize",
                    format!("board size {x} is not supported: 2 to 19"),
                )
            })
    }

    /// `rules`: a KataGo name or object ([`Rules::from_json`]; Chinese when missing). Territory
    /// rules (`japanese`, `korean`, or an object with `"scoring": "TERRITORY"` and otherwise
    /// playable fields) are answered, scored by area under Chinese rules: the second value says
    /// so, for the warning.
    fn rules(&self) -> Result<(Rules, bool), BadRequest> {
        let Some(v) = self.m.get("rules") else {
            return Ok((Rules::CHINESE, false));
        };
        match Rules::from_json(v) {
            Ok(r) => Ok((r, false)),
            Err(e) if e.is_scoring() => {
                // The same rules with area scoring (and the territory rules' taxes set aside):
                // what tengen answers with.
                let mut area = v.clone();
                if let Value::Object(m) = &mut area {
                    m.remove("scoring");
                    m.remove("tax");
                }
                match area {
                    Value::Object(m) => Rules::from_object(&m).map(|r| (r, true)),
                    _ => Ok((Rules::CHINESE, true)),
                }
                .map_err(|e| self.bad("rules", format!("rules: {e}")))
            }
            Err(e) => Err(self.bad("rules", format!("rules: {e}"))),
        }
    }

    /// A list of `[player, vertex]` pairs of at most `max` entries (`passes` allowed or not).
    fn moves(
        &self,
        field: &str,
        n: usize,
        max: usize,
        passes: bool,
    ) -> Result<Vec<(Color, VertexMove)>, BadRequest> {
        let Some(v) = self.m.get(field) else {
            return Ok(Vec::new());
        };
        let list = v.as_array().ok_or_else(|| {
            self.bad(field, format!("{field} must be a list of [player, vertex]"))
        })?;
        if list.len() > max {
            return Err(self.bad(
                field,
                format!("{field} has {} entries, at most {max}", list.len()),
            ));
        }
        list.iter()
            .enumerate()
            .map(|(k, e)| {
                let pair = e.as_array().filter(|p| p.len() == 2);
                let (c, m) = pair
                    .and_then(|p| Some((p[0].as_str()?, p[1].as_str()?)))
                    .ok_or_else(|| {
                        self.bad(
                            field,
                            format!("{field}[{k}] must be a [player, vertex] pair"),
                        )
                    })?;
                let c = values::color(c)
                    .map_err(|_| self.bad(field, format!("{field}[{k}]: bad player {c:?}")))?;
                let m = values::go_move(m, n)
                    .ok()
                    .filter(|m| passes || *m != VertexMove::Pass)
                    .ok_or_else(|| {
                        self.bad(
                            field,
                            format!("{field}[{k}]: bad vertex {m:?} on a {n}x{n} board"),
                        )
                    })?;
                Ok((c, m))
            })
            .collect()
    }

    fn turns(&self, moves: usize) -> Result<Vec<usize>, BadRequest> {
        let Some(v) = self.m.get("analyzeTurns") else {
            return Ok(vec![moves]);
        };
        let list = v
            .as_array()
            .ok_or_else(|| self.bad("analyzeTurns", "analyzeTurns must be a list of turns"))?;
        if list.len() > moves + 1 {
            return Err(self.bad(
                "analyzeTurns",
                "analyzeTurns lists more turns than there are",
            ));
        }
        let mut seen = vec![false; moves + 1];
        list.iter()
            .map(|t| {
                let t = t
                    .as_u64()
                    .and_then(|t| usize::try_from(t).ok())
                    .filter(|&t| t <= moves)
                    .ok_or_else(|| {
                        self.bad(
                            "analyzeTurns",
                            format!("turns must be whole numbers from 0 to {moves}"),
                        )
                    })?;
                if std::mem::replace(&mut seen[t], true) {
                    return Err(self.bad("analyzeTurns", format!("turn {t} is listed twice")));
                }
                Ok(t)
            })
            .collect()
    }

    /// `allowMoves` / `avoidMoves`: `[{"player": "B", "moves": ["D4", ...], "untilDepth": 1}]`.
    fn move_rules(
        &self,
        field: &str,
        kind: RuleKind,
        n: usize,
    ) -> Result<Vec<MoveRule>, BadRequest> {
        let Some(v) = self.m.get(field) else {
            return Ok(Vec::new());
        };
        let list = v
            .as_array()
            .filter(|l| l.len() <= MAX_RULES)
            .ok_or_else(|| {
                self.bad(
                    field,
                    format!("{field} must be a list of at most {MAX_RULES} entries"),
                )
            })?;
        list.iter()
            .enumerate()
            .map(|(k, e)| {
                let shape = || {
                    self.bad(
                        field,
                        format!("{field}[{k}] must be {{\"player\", \"moves\", \"untilDepth\"}}"),
                    )
                };
                let e = e.as_object().ok_or_else(shape)?;
                let color = e
                    .get("player")
                    .and_then(Value::as_str)
                    .and_then(|c| values::color(c).ok())
                    .ok_or_else(shape)?;
                let until_depth = e
                    .get("untilDepth")
                    .and_then(Value::as_u64)
                    .filter(|&d| d >= 1)
                    .ok_or_else(|| {
                        self.bad(field, format!("{field}[{k}].untilDepth must be 1 or more"))
                    })?;
                let list = e
                    .get("moves")
                    .and_then(Value::as_array)
                    .filter(|m| m.len() <= n * n + 1)
                    .ok_or_else(shape)?;
                let moves = list
                    .iter()
                    .map(|m| {
                        m.as_str()
                            .and_then(|s| values::go_move(s, n).ok())
                            .ok_or_else(|| self.bad(field, format!("{field}[{k}]: bad vertex {m}")))
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(MoveRule {
                    color,
                    kind,
                    moves,
                    until_depth: u32::try_from(until_depth).unwrap_or(u32::MAX),
                })
            })
            .collect()
    }
}

mod options;
#[cfg(test)]
mod tests;
