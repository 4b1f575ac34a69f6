//! GTP framing: cleaning an input line into a [`Command`], and reading arguments (with the
//! parsers of [`crate::values`], shared with the command line).

use crate::board::Color;
use crate::game::{Vertex, VertexMove};
use crate::values;

/// One command line: optional id, name, arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    pub id: Option<u64>,
    pub name: String,
    pub args: Vec<String>,
}

/// Cleans a raw line as GTP says: control characters other than HT and LF removed, HT turned
/// into a space, everything from `#` dropped, surrounding space trimmed.
#[must_use]
pub fn clean(raw: &str) -> String {
    let mut s: String = raw
        .chars()
        .filter(|&c| !c.is_control() || c == '\t' || c == '\n')
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    if let Some(i) = s.find('#') {
        s.truncate(i);
    }
    s.trim().to_string()
}

/// The command on a raw line, or `None` for a line that is empty once cleaned.
/// A line holding only an id gives a command with an empty name.
#[must_use]
pub fn command(raw: &str) -> Option<Command> {
    let line = clean(raw);
    let mut words = line.split_whitespace();
    let first = words.next()?;
    let (id, name) = match first.parse::<u64>() {
        Ok(id) if first.bytes().all(|b| b.is_ascii_digit()) => {
            (Some(id), words.next().unwrap_or("").to_string())
        }
        _ => (None, first.to_string()),
    };
    Some(Command {
        id,
        name,
        args: words.map(str::to_string).collect(),
    })
}

/// Whether a raw line is GoGui's interrupt request (`# interrupt`), sent while a command runs.
#[must_use]
pub fn is_interrupt(raw: &str) -> bool {
    raw.trim()
        .strip_prefix('#')
        .is_some_and(|r| r.trim() == "interrupt")
}

/// `b`, `black`, `w`, `white`, any case ([`values::color`]).
#[must_use]
pub fn color(s: &str) -> Option<Color> {
    values::color(s).ok()
}

/// A vertex on a `size` board, or `pass` ([`values::go_move`]).
#[must_use]
pub fn vertex_move(s: &str, size: usize) -> Option<VertexMove> {
    values::go_move(s, size).ok()
}

/// A vertex (not `pass`) on a `size` board ([`values::vertex`]).
#[must_use]
pub fn vertex(s: &str, size: usize) -> Option<Vertex> {
    values::vertex(s, size).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn framing() {
        assert_eq!(command("  # only a comment"), None);
        assert_eq!(command("\r\n"), None);
        let c = command("12 play\tb  D4 # comment\r").unwrap();
        assert_eq!(c.id, Some(12));
        assert_eq!(c.name, "play");
        assert_eq!(c.args, ["b", "D4"]);
        let c = command("genmove w").unwrap();
        assert_eq!((c.id, c.name.as_str()), (None, "genmove"));
        assert_eq!(command("7").unwrap().name, "");
        assert_eq!(command("pl\x01ay b a1").unwrap().name, "play");
        assert!(is_interrupt("# interrupt\r"));
        assert!(!is_interrupt("interrupt"));
    }

    #[test]
    fn arguments() {
        assert_eq!(color("WHITE"), Some(Color::White));
        assert_eq!(color("x"), None);
        assert_eq!(vertex_move("pass", 9), Some(VertexMove::Pass));
        assert_eq!(
            vertex_move("J9", 9),
            Some(VertexMove::Play(Vertex::new(8, 8)))
        );
        assert_eq!(vertex_move("K9", 9), None);
        assert_eq!(vertex_move("I5", 19), None);
        assert_eq!(vertex("pass", 9), None);
    }
}
