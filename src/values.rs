//! One parser for each kind of value that the command line and GTP both read: board sizes,
//! komi, colours, vertices, counts, seconds, probabilities, on/off switches and rules.
//!
//! Each parser takes the text of one argument and returns the value or a [`BadValue`] that
//! says what is accepted. clap uses them as value parsers (its message is then
//! ``invalid value '25' for '--size <N>': board sizes 2 to 19 are supported ...``); GTP
//! answers `? syntax error: ...` for a value that has the wrong form and names the refusal of
//! one out of range (such as `unacceptable size`) where GTP has a word for it.

use crate::board::{BoardSize, Color, MAX_SIZE, MIN_SIZE};
use crate::game::{Vertex, VertexMove};

/// A value refused: `expected` says what would be accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{expected}")]
pub struct BadValue {
    /// The text has the right form, but the value is outside what is accepted (a board size
    /// of 25, a komi of 2000) rather than not a value of the kind at all.
    pub out_of_range: bool,
    /// What is accepted, as a sentence fragment ("expected a komi from -1000 to 1000").
    pub expected: String,
}

impl BadValue {
    fn syntax(expected: impl Into<String>) -> Self {
        Self {
            out_of_range: false,
            expected: expected.into(),
        }
    }

    fn range(expected: impl Into<String>) -> Self {
        Self {
            out_of_range: true,
            expected: expected.into(),
        }
    }

    fn new(out_of_range: bool, expected: impl Into<String>) -> Self {
        Self {
            out_of_range,
            expected: expected.into(),
        }
    }
}

/// The largest komi accepted, either sign.
pub const MAX_KOMI: f32 = 1000.0;

/// The value named `s` among `choices` (names compared without case); `expected` says what
/// is accepted.
pub fn one_of<T: Copy>(s: &str, choices: &[(&str, T)], expected: &str) -> Result<T, BadValue> {
    choices
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(s.trim()))
        .map(|&(_, v)| v)
        .ok_or_else(|| BadValue::syntax(expected))
}

/// A board side, 2 to 19: `9`, or `9x9`.
pub fn board_size(s: &str) -> Result<BoardSize, BadValue> {
    let t = s.trim();
    let side = match t.split_once(['x', 'X']) {
        Some((a, b)) if a.trim() == b.trim() => a.trim(),
        Some(_) => "",
        None => t,
    };
    let expected = format!(
        "board sizes {MIN_SIZE} to {MAX_SIZE} are supported (such as 9, 13 or 19; `9x9` also works)"
    );
    match side.parse::<usize>() {
        Ok(n) => BoardSize::new(n).ok_or_else(|| BadValue::range(expected)),
        Err(_) => Err(BadValue::syntax(expected)),
    }
}

/// Komi: a finite number from `-MAX_KOMI` to `MAX_KOMI`.
pub fn komi(s: &str) -> Result<f32, BadValue> {
    let expected = format!("expected a komi from -{MAX_KOMI} to {MAX_KOMI} (such as 7.5 or 6)");
    match s.trim().parse::<f32>() {
        Ok(k) if k.is_finite() && k.abs() <= MAX_KOMI => Ok(k),
        Ok(_) => Err(BadValue::range(expected)),
        Err(_) => Err(BadValue::syntax(expected)),
    }
}

/// A colour: `b`, `black`, `w`, `white`, any case.
pub fn color(s: &str) -> Result<Color, BadValue> {
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(BadValue::syntax("expected a colour: b, black, w or white")),
    }
}

/// A move on a `size` board: a vertex such as `D4` (columns A to T without I, rows from the
/// bottom, any case) or `pass`.
pub fn go_move(s: &str, size: usize) -> Result<VertexMove, BadValue> {
    let last = (b'A' + size as u8 - 1 + u8::from(size > 8)) as char;
    let expected = || format!("expected a vertex from A1 to {last}{size} (no column I) or pass");
    match s.parse::<VertexMove>() {
        Ok(VertexMove::Play(v)) if !v.is_on(size) => Err(BadValue::range(expected())),
        Ok(m) => Ok(m),
        Err(_) => Err(BadValue::syntax(expected())),
    }
}

/// A vertex (not `pass`) on a `size` board.
pub fn vertex(s: &str, size: usize) -> Result<Vertex, BadValue> {
    match go_move(s, size)? {
        VertexMove::Play(v) => Ok(v),
        VertexMove::Pass => Err(BadValue::syntax(format!(
            "expected a vertex, not pass, on the {size}x{size} board"
        ))),
    }
}

/// A whole number; `_` separators are allowed (`200_000`).
fn whole(s: &str) -> Option<u64> {
    let t: String = s.trim().chars().filter(|&c| c != '_').collect();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

/// A whole number from `lo` to `hi`; `what` names it ("playouts", "threads").
pub fn count(s: &str, what: &str, lo: u64, hi: u64) -> Result<u64, BadValue> {
    let expected = if hi == u64::MAX {
        format!("expected a whole number of {what}, at least {lo}")
    } else {
        format!("expected a whole number of {what} from {lo} to {hi}")
    };
    match whole(s) {
        Some(n) if (lo..=hi).contains(&n) => Ok(n),
        Some(_) => Err(BadValue::range(expected)),
        // A negative or fractional number has the form of a number, just not an accepted one.
        None => Err(BadValue::new(s.trim().parse::<f64>().is_ok(), expected)),
    }
}

/// A finite number from `lo` to `hi`, described as `what`.
fn number(s: &str, what: &str, lo: f64, hi: f64) -> Result<f64, BadValue> {
    let expected = if hi == f64::INFINITY {
        format!("expected {what} of at least {lo}")
    } else {
        format!("expected {what} from {lo} to {hi}")
    };
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && (lo..=hi).contains(&x) => Ok(x),
        Ok(_) => Err(BadValue::range(expected)),
        Err(_) => Err(BadValue::syntax(expected)),
    }
}

/// A positive, finite number of seconds (such as 2 or 0.5).
pub fn positive_seconds(s: &str) -> Result<f64, BadValue> {
    match number(s, "", 0.0, f64::INFINITY) {
        Ok(x) if x > 0.0 => Ok(x),
        Ok(_) => Err(BadValue::range(
            "expected a positive, finite number of seconds (such as 2 or 0.5)",
        )),
        Err(e) => Err(BadValue::new(
            e.out_of_range,
            "expected a positive, finite number of seconds (such as 2 or 0.5)",
        )),
    }
}

/// A finite number of seconds, 0 or more (time settings and time left).
pub fn seconds(s: &str) -> Result<f64, BadValue> {
    number(s, "a number of seconds", 0.0, f64::INFINITY)
}

/// A finite number of at least 0 (`what` names it).
pub fn non_negative(s: &str, what: &str) -> Result<f64, BadValue> {
    number(s, what, 0.0, f64::INFINITY)
}

/// A finite number greater than 0 (`what` names it).
pub fn positive(s: &str, what: &str) -> Result<f64, BadValue> {
    positive_up_to(s, what, f64::INFINITY)
}

/// A number greater than 0 and at most `hi` (`what` names it; `hi` may be infinite).
pub fn positive_up_to(s: &str, what: &str, hi: f64) -> Result<f64, BadValue> {
    let expected = if hi == f64::INFINITY {
        format!("expected {what} greater than 0")
    } else {
        format!("expected {what} greater than 0 and at most {hi}")
    };
    match number(s, what, 0.0, hi) {
        Ok(x) if x > 0.0 => Ok(x),
        Ok(_) => Err(BadValue::range(expected)),
        Err(e) => Err(BadValue::new(e.out_of_range, expected)),
    }
}

/// A number from 0 to 1 (`what` names it: "a probability", "a win rate").
pub fn unit_interval(s: &str, what: &str) -> Result<f64, BadValue> {
    number(s, what, 0.0, 1.0)
}

/// A number from `lo` to `hi` (`what` names it).
pub fn in_range(s: &str, what: &str, lo: f64, hi: f64) -> Result<f64, BadValue> {
    number(s, what, lo, hi)
}

/// An on/off switch: `on`, `off`, `true`, `false` (any case).
pub fn switch(s: &str) -> Result<bool, BadValue> {
    match s.trim().to_ascii_lowercase().as_str() {
        "on" | "true" => Ok(true),
        "off" | "false" => Ok(false),
        _ => Err(BadValue::syntax("expected on or off (or true or false)")),
    }
}

/// The rules a server or a record names. Scoring is always area scoring; the rules are
/// remembered for the game record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    Chinese,
    Japanese,
    Aga,
    NewZealand,
}

impl Rules {
    /// The SGF `RU` value.
    #[must_use]
    pub fn sgf_name(self) -> &'static str {
        match self {
            Rules::Chinese => "Chinese",
            Rules::Japanese => "Japanese",
            Rules::Aga => "AGA",
            Rules::NewZealand => "NZ",
        }
    }
}

/// Rules as KGS names them (`kgs-rules`): `chinese`, `japanese`, `aga`, `new_zealand`.
pub fn rules(s: &str) -> Result<Rules, BadValue> {
    match s.trim().to_ascii_lowercase().as_str() {
        "chinese" => Ok(Rules::Chinese),
        "japanese" => Ok(Rules::Japanese),
        "aga" => Ok(Rules::Aga),
        "new_zealand" => Ok(Rules::NewZealand),
        _ => Err(BadValue::syntax(
            "expected rules chinese, japanese, aga or new_zealand",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_komi() {
        assert_eq!(board_size("9"), Ok(BoardSize::NINE));
        assert_eq!(board_size("13x13"), Ok(BoardSize::THIRTEEN));
        assert!(board_size("25").unwrap_err().out_of_range);
        assert!(!board_size("9x13").unwrap_err().out_of_range);
        assert_eq!(komi("1000"), Ok(1000.0));
        assert_eq!(komi("-6.5"), Ok(-6.5));
        assert!(komi("1000.5").unwrap_err().out_of_range);
        assert!(!komi("x").unwrap_err().out_of_range);
        assert!(komi("nan").is_err());
    }

    #[test]
    fn moves_and_numbers() {
        assert_eq!(go_move("pass", 9), Ok(VertexMove::Pass));
        assert_eq!(go_move("j9", 9), Ok(VertexMove::Play(Vertex::new(8, 8))));
        let e = go_move("K9", 9).unwrap_err();
        assert!(e.out_of_range && e.expected.contains("A1 to J9"), "{e}");
        assert!(go_move("H8", 8).is_ok() && go_move("J8", 8).is_err());
        assert!(vertex("pass", 9).is_err());
        assert_eq!(count("200_000", "playouts", 1, u64::MAX), Ok(200_000));
        assert!(
            count("-5", "playouts", 1, u64::MAX)
                .unwrap_err()
                .out_of_range
        );
        assert!(
            !count("x", "playouts", 1, u64::MAX)
                .unwrap_err()
                .out_of_range
        );
        assert!(non_negative("-1", "a constant").unwrap_err().out_of_range);
        assert_eq!(positive_up_to("10", "a gain", 10.0), Ok(10.0));
        for (bad, range) in [("0", true), ("10.5", true), ("-1", true), ("x", false)] {
            let e = positive_up_to(bad, "a gain", 10.0).unwrap_err();
            assert_eq!(e.out_of_range, range, "{bad}");
            assert_eq!(
                e.expected, "expected a gain greater than 0 and at most 10",
                "{bad}"
            );
        }
        assert_eq!(
            positive("0", "a gain").unwrap_err().expected,
            "expected a gain greater than 0"
        );
        assert_eq!(switch("ON"), Ok(true));
        assert_eq!(switch("false"), Ok(false));
        assert!(switch("maybe").is_err());
        assert_eq!(rules("Japanese"), Ok(Rules::Japanese));
        assert!(rules("nonsense").is_err());
    }
}
