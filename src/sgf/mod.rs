//! SGF (`FF[4]`) game records: a reader for the main line of a Go game and a writer.
//!
//! The reader keeps what an engine needs to set up a game: `SZ`, `KM`, `HA`, setup stones
//! (`AB`/`AW`, point lists `aa:cc` included) in the root, `PL`, then the moves of the main line
//! (the first variation at every branch), with `B[]` (or `B[tt]` up to 19x19) as a pass.
//! Players, result, rules and date are kept for the writer. Anything else is skipped.

use crate::board::{ByColor, Color, MAX_SIZE};
use crate::game::{Vertex, VertexMove};
use std::fmt::Write as _;
use std::io::Read as _;

/// The largest game record read from a file: far more than a 19x19 game with comments and
/// variations takes, and a bound on what a file (or `/dev/zero`) can make us allocate.
pub const MAX_BYTES: u64 = 4 << 20;

/// The bytes of the file `path`, or why they cannot be had: unreadable, or longer than `max`
/// bytes (read no further than that).
pub fn read_bounded(path: impl AsRef<std::path::Path>, max: u64) -> Result<Vec<u8>, String> {
    let (file, path) = (path.as_ref(), path.as_ref().display());
    let f = std::fs::File::open(file).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut bytes = Vec::new();
    f.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {path}: {e}"))?;
    if bytes.len() as u64 > max {
        return Err(format!(
            "{path} is larger than {} MiB, more than a game record",
            max >> 20
        ));
    }
    Ok(bytes)
}

/// A game record.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Record {
    pub size: usize,
    pub komi: Option<f32>,
    pub handicap: Option<usize>,
    /// Stones on the board before the first move.
    pub setup: ByColor<Vec<Vertex>>,
    /// Who moves first, if the record says (`PL`).
    pub player: Option<Color>,
    pub moves: Vec<(Color, VertexMove)>,
    pub black_name: Option<String>,
    pub white_name: Option<String>,
    pub result: Option<String>,
    pub rules: Option<String>,
    pub date: Option<String>,
    /// Free text for the game comment (`GC`).
    pub comment: Option<String>,
    /// Setup stones of later nodes (`AB`, `AW`, `AE` and `PL` after the first move), in the
    /// order read.
    pub edits: Vec<Edit>,
    /// The nodes' comments (`C`), each with the number of moves played at its node: 0 for the
    /// root (and any node before the first move), `k` for the node of move `k` and the nodes
    /// that follow it before the next move. In the order read.
    pub comments: Vec<(usize, String)>,
}

/// A setup node after the first move: stones added and points emptied once `at` moves are
/// played (before the next one), and the player to move if it says.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Edit {
    pub at: usize,
    pub add: ByColor<Vec<Vertex>>,
    pub empty: Vec<Vertex>,
    pub player: Option<Color>,
}

/// Why a record could not be read.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SgfError {
    #[error("SGF syntax error at byte {0}")]
    Syntax(usize),
    #[error("no game in the file")]
    Empty,
    #[error("not a game of Go (GM[{0}])")]
    NotGo(String),
    #[error("unsupported board size {0:?}")]
    Size(String),
    #[error("bad {prop} value {value:?}")]
    Value { prop: String, value: String },
}

type Node = Vec<(String, Vec<String>)>;

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn skip_ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.s.get(self.i).copied()
    }

    fn expect(&mut self, c: u8) -> Result<(), SgfError> {
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            Err(SgfError::Syntax(self.i))
        }
    }

    /// A game tree `( sequence subtrees )`; appends the main line's nodes to `out` if given.
    fn tree(&mut self, mut out: Option<&mut Vec<Node>>) -> Result<(), SgfError> {
        self.expect(b'(')?;
        let mut any = false;
        while self.peek() == Some(b';') {
            self.i += 1;
            let node = self.node()?;
            if let Some(o) = out.as_deref_mut() {
                o.push(node);
            }
            any = true;
        }
        if !any {
            return Err(SgfError::Syntax(self.i));
        }
        let mut first = true;
        while self.peek() == Some(b'(') {
            if first {
                self.tree(out.as_deref_mut())?;
                first = false;
            } else {
                self.tree(None)?;
            }
        }
        self.expect(b')')
    }

    fn node(&mut self) -> Result<Node, SgfError> {
        let mut props = Vec::new();
        loop {
            self.skip_ws();
            let start = self.i;
            while self.i < self.s.len() && self.s[self.i].is_ascii_alphabetic() {
                self.i += 1;
            }
            if self.i == start {
                return Ok(props);
            }
            // FF[3] allowed lowercase letters inside names ("AddBlack"): keep the capitals.
            let name: String = self.s[start..self.i]
                .iter()
                .filter(|c| c.is_ascii_uppercase())
                .map(|&c| c as char)
                .collect();
            let mut values = Vec::new();
            while self.peek() == Some(b'[') {
                values.push(self.value()?);
            }
            if values.is_empty() {
                return Err(SgfError::Syntax(self.i));
            }
            props.push((name, values));
        }
    }

    fn value(&mut self) -> Result<String, SgfError> {
        self.expect(b'[')?;
        let mut v = Vec::new();
        loop {
            match self.s.get(self.i) {
                None => return Err(SgfError::Syntax(self.i)),
                Some(b']') => {
                    self.i += 1;
                    return Ok(String::from_utf8_lossy(&v).into_owned());
                }
                Some(b'\\') => {
                    self.i += 1;
                    match self.s.get(self.i) {
                        None => return Err(SgfError::Syntax(self.i)),
                        // Soft line break: an escaped newline disappears.
                        Some(b'\n') | Some(b'\r') => {}
                        Some(&c) => v.push(c),
                    }
                    self.i += 1;
                }
                Some(&c) => {
                    v.push(c);
                    self.i += 1;
                }
            }
        }
    }
}

fn bad(prop: &str, value: &str) -> SgfError {
    SgfError::Value {
        prop: prop.to_string(),
        value: value.to_string(),
    }
}

/// The vertex of an SGF point `cd` on a `size` board (rows counted from the top).
fn point(prop: &str, v: &str, size: usize) -> Result<Vertex, SgfError> {
    let b = v.as_bytes();
    if b.len() != 2 || !b[0].is_ascii_lowercase() || !b[1].is_ascii_lowercase() {
        return Err(bad(prop, v));
    }
    let (x, row) = (usize::from(b[0] - b'a'), usize::from(b[1] - b'a'));
    if x >= size || row >= size {
        return Err(bad(prop, v));
    }
    Ok(Vertex::new(x, size - 1 - row))
}

/// A point list value: `cd` or the rectangle `aa:cc`. A point already in `out` is not added
/// again, so a list holds at most one entry per point whatever the file repeats.
fn points(prop: &str, v: &str, size: usize, out: &mut Vec<Vertex>) -> Result<(), SgfError> {
    let mut add = |v: Vertex| {
        if !out.contains(&v) {
            out.push(v);
        }
    };
    match v.split_once(':') {
        None => add(point(prop, v, size)?),
        Some((a, b)) => {
            let (p, q) = (point(prop, a, size)?, point(prop, b, size)?);
            for y in p.y.min(q.y)..=p.y.max(q.y) {
                for x in p.x.min(q.x)..=p.x.max(q.x) {
                    add(Vertex::new(usize::from(x), usize::from(y)));
                }
            }
        }
    }
    Ok(())
}

fn color(prop: &str, v: &str) -> Result<Color, SgfError> {
    match v.trim() {
        "B" | "b" => Ok(Color::Black),
        "W" | "w" => Ok(Color::White),
        _ => Err(bad(prop, v)),
    }
}

/// A `PL` value: `B` or `W`, or as some older programs wrote it after a slip in the FF[3]
/// definition, `1` for Black and `2` for White (GNU Go reads them so).
fn player(v: &str) -> Result<Color, SgfError> {
    match v.trim() {
        "1" => Ok(Color::Black),
        "2" => Ok(Color::White),
        _ => color("PL", v),
    }
}

/// Reads the first game of an SGF collection.
pub fn parse(text: &str) -> Result<Record, SgfError> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    // Anything before the first '(' is ignored, as readers usually do.
    match text.find('(') {
        Some(i) => p.i = i,
        None => return Err(SgfError::Empty),
    }
    let mut nodes = Vec::new();
    p.tree(Some(&mut nodes))?;
    let root = nodes.first().ok_or(SgfError::Empty)?;
    let get = |n: &Node, k: &str| n.iter().find(|(name, _)| name == k).map(|(_, v)| v.clone());
    if let Some(gm) = get(root, "GM") {
        if gm[0].trim() != "1" {
            return Err(SgfError::NotGo(gm[0].clone()));
        }
    }
    let size = match get(root, "SZ") {
        None => 19,
        Some(v) => {
            let s = v[0].trim();
            let n = match s.split_once(':') {
                Some((a, b)) if a.trim() == b.trim() => a.trim().parse::<usize>(),
                Some(_) => return Err(SgfError::Size(s.to_string())),
                None => s.parse::<usize>(),
            };
            match n {
                Ok(n) if (1..=MAX_SIZE).contains(&n) => n,
                _ => return Err(SgfError::Size(s.to_string())),
            }
        }
    };
    let text_of = |k: &str| get(root, k).map(|v| v[0].clone());
    let mut rec = Record {
        size,
        black_name: text_of("PB"),
        white_name: text_of("PW"),
        result: text_of("RE"),
        rules: text_of("RU"),
        date: text_of("DT"),
        comment: text_of("GC"),
        ..Record::default()
    };
    if let Some(v) = text_of("KM") {
        let k: f32 = v.trim().parse().map_err(|_| bad("KM", &v))?;
        if !k.is_finite() {
            return Err(bad("KM", &v));
        }
        rec.komi = Some(k);
    }
    if let Some(v) = text_of("HA") {
        rec.handicap = Some(v.trim().parse().map_err(|_| bad("HA", &v))?);
    }
    for node in &nodes {
        for (name, values) in node {
            match name.as_str() {
                "AB" | "AW" if rec.moves.is_empty() => {
                    let c = if name == "AB" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    for v in values {
                        points(name, v, size, &mut rec.setup[c])?;
                    }
                }
                "AB" | "AW" | "AE" | "PL" if !rec.moves.is_empty() => {
                    let at = rec.moves.len();
                    if rec.edits.last().is_none_or(|e| e.at != at) {
                        rec.edits.push(Edit {
                            at,
                            ..Edit::default()
                        });
                    }
                    let Some(e) = rec.edits.last_mut() else {
                        continue;
                    };
                    let list = match name.as_str() {
                        "AB" => &mut e.add[Color::Black],
                        "AW" => &mut e.add[Color::White],
                        "AE" => &mut e.empty,
                        _ => {
                            e.player = Some(player(&values[0])?);
                            continue;
                        }
                    };
                    for v in values {
                        points(name, v, size, list)?;
                    }
                }
                "PL" => rec.player = Some(player(&values[0])?),

                "B" | "W" => {
                    let c = if name == "B" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let v = values[0].trim();
                    let m = if v.is_empty() || (v == "tt" && size <= 19) {
                        VertexMove::Pass
                    } else {
                        VertexMove::Play(point(name, v, size)?)
                    };
                    rec.moves.push((c, m));
                }
                _ => {}
            }
        }
        // After the node's move, whatever the order of its properties: a comment on a move's
        // node is that move's.
        if let Some(c) = get(node, "C") {
            rec.comments.push((rec.moves.len(), c[0].clone()));
        }
    }
    Ok(rec)
}

/// Today's date (UTC) as `YYYY-MM-DD`, for `DT`.
#[must_use]
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The proleptic Gregorian date of day `z` counted from 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Escapes a text value (`]` and `\`).
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}

fn sgf_point(v: Vertex, size: usize) -> String {
    let x = (b'a' + v.x) as char;
    let row = (b'a' + (size - 1 - usize::from(v.y)) as u8) as char;
    format!("{x}{row}")
}

/// Writes a record as `FF[4]` SGF: the root properties on the first line, then the moves, about
/// ten to a line (no empty lines, so the text can go in a GTP response as it is).
#[must_use]
pub fn write(rec: &Record) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "(;FF[4]GM[1]CA[UTF-8]AP[tengen:{}]SZ[{}]",
        env!("CARGO_PKG_VERSION"),
        rec.size
    );
    if let Some(k) = rec.komi {
        let _ = write!(s, "KM[{k}]");
    }
    let _ = write!(
        s,
        "RU[{}]",
        escape(rec.rules.as_deref().unwrap_or("Chinese"))
    );
    if let Some(h) = rec.handicap.filter(|&h| h > 0) {
        let _ = write!(s, "HA[{h}]");
    }
    for (k, v) in [
        ("PB", &rec.black_name),
        ("PW", &rec.white_name),
        ("DT", &rec.date),
        ("RE", &rec.result),
        ("GC", &rec.comment),
    ] {
        if let Some(v) = v {
            let _ = write!(s, "{k}[{}]", escape(v));
        }
    }
    for (k, c) in [("AB", Color::Black), ("AW", Color::White)] {
        if !rec.setup[c].is_empty() {
            s.push_str(k);
            for &v in &rec.setup[c] {
                let _ = write!(s, "[{}]", sgf_point(v, rec.size));
            }
        }
    }
    if let Some(c) = rec.player {
        let _ = write!(s, "PL[{}]", c.letter());
    }
    // The comments of the node after `k` moves (the root's for 0), joined by a blank line when
    // several nodes had one there; comments beyond the last move stay on it.
    let comment_at = |k: usize| {
        let last = rec.moves.len();
        let texts: Vec<&str> = rec
            .comments
            .iter()
            .filter(|(at, _)| (*at).min(last) == k)
            .map(|(_, t)| t.as_str())
            .collect();
        (!texts.is_empty()).then(|| format!("C[{}]", escape(&texts.join("\n\n"))))
    };
    if let Some(c) = comment_at(0) {
        s.push_str(&c);
    }
    for (i, &(c, m)) in rec.moves.iter().enumerate() {
        if i % 10 == 0 {
            s.push('\n');
        }
        let v = match m {
            VertexMove::Pass => String::new(),
            VertexMove::Play(v) => sgf_point(v, rec.size),
        };
        let _ = write!(s, ";{}[{v}]", c.letter());
        if let Some(c) = comment_at(i + 1) {
            s.push_str(&c);
        }
    }
    s.push_str(")\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_main_line() {
        let text = "(;FF[4]GM[1]SZ[9]KM[6.5]HA[2]AB[cc][gg]PL[W]PB[a\\]b]
            ;W[ee](;B[dc];W[];B[tt])(;B[aa]))";
        let r = parse(text).unwrap();
        assert_eq!(r.size, 9);
        assert_eq!(r.komi, Some(6.5));
        assert_eq!(r.handicap, Some(2));
        assert_eq!(r.black_name.as_deref(), Some("a]b"));
        assert_eq!(
            r.setup[Color::Black],
            vec![Vertex::new(2, 6), Vertex::new(6, 2)]
        );
        assert_eq!(r.player, Some(Color::White));
        let moves: Vec<String> = r.moves.iter().map(|(c, m)| format!("{c} {m}")).collect();
        assert_eq!(moves, ["white E5", "black D7", "white pass", "black pass"]);
    }

    #[test]
    fn round_trip() {
        let text = "(;GM[1]SZ[13]KM[7.5]AB[aa:bb]AW[mm];B[gg];W[];B[ag])";
        let r = parse(text).unwrap();
        assert_eq!(r.setup[Color::Black].len(), 4);
        let again = parse(&write(&r)).unwrap();
        assert_eq!(again.moves, r.moves);
        assert_eq!(again.setup, r.setup);
        assert_eq!(again.size, 13);
        assert!(!write(&r).contains("\n\n"));
    }

    /// Setup stones after the first move, `PL[1]`/`PL[2]`, and comments on the root and the
    /// moves (issue 66, items 6 and 7).
    #[test]
    fn later_setup_players_and_comments() {
        let r = parse(
            "(;SZ[9]C[root]PL[2];W[aa]C[first];B[bb]C[second]\n;AB[cc:cd]AE[aa]PL[1]C[setup];B[ee])",
        )
        .unwrap();
        assert_eq!(r.player, Some(Color::White));
        assert_eq!(r.moves.len(), 3);
        assert_eq!(r.edits.len(), 1);
        let e = &r.edits[0];
        assert_eq!(e.at, 2);
        assert_eq!(e.add[Color::Black].len(), 2);
        assert_eq!(e.empty, vec![Vertex::new(0, 8)]);
        assert_eq!(e.player, Some(Color::Black));
        assert_eq!(
            r.comments,
            vec![
                (0, "root".to_string()),
                (1, "first".to_string()),
                (2, "second".to_string()),
                (2, "setup".to_string())
            ]
        );
        let text = write(&r);
        for c in ["C[root]", ";W[aa]C[first]", ";B[bb]C[second\n\nsetup]"] {
            assert!(text.contains(c), "{c} in {text}");
        }
        assert_eq!(parse("(;SZ[9]PL[1])").unwrap().player, Some(Color::Black));
        // A point list repeated is read once.
        assert_eq!(
            parse("(;SZ[9]AB[aa:ii][aa:ii])").unwrap().setup[Color::Black].len(),
            81
        );
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(today().len(), 10);
    }

    #[test]
    fn errors() {
        assert!(matches!(parse(""), Err(SgfError::Empty)));
        assert!(matches!(parse("(;SZ[9]"), Err(SgfError::Syntax(_))));
        assert!(matches!(parse("(;GM[2])"), Err(SgfError::NotGo(_))));
        assert!(matches!(parse("(;SZ[25])"), Err(SgfError::Size(_))));
        assert!(matches!(parse("(;SZ[9:13])"), Err(SgfError::Size(_))));
        assert!(matches!(
            parse("(;SZ[9];B[zz])"),
            Err(SgfError::Value { .. })
        ));
        assert!(matches!(
            parse("(;SZ[9]KM[x])"),
            Err(SgfError::Value { .. })
        ));
        assert!(matches!(
            parse("(;SZ[9];B[aa];AB[bb:bz])"),
            Err(SgfError::Value { .. })
        ));
        assert!(parse("(;SZ[9]C[a [b\\] c])").is_ok());
    }
}
