//! A small backtracking regular-expression matcher for the expectations of GTP regression
//! files (`#? [pattern]`): literals, `.`, classes `[a-z]` / `[^...]`, escapes `\d \s \w \S \D \W`
//! and escaped metacharacters, groups with alternation `(a|b)`, and the greedy quantifiers
//! `* + ?`. A pattern must match the whole text; `.` matches newlines too.

#[derive(Debug, Clone)]
enum Node {
    Char(char),
    Any,
    Class(Vec<(char, char)>, bool),
    Group(Vec<Vec<Node>>),
    Repeat(Box<Node>, usize, Option<usize>),
}

pub struct Regex {
    alts: Vec<Vec<Node>>,
}

struct Parser<'a> {
    chars: Vec<char>,
    i: usize,
    src: &'a str,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> String {
        format!("bad pattern {:?} at {}: {what}", self.src, self.i)
    }

    fn alternatives(&mut self) -> Result<Vec<Vec<Node>>, String> {
        let mut alts = vec![self.sequence()?];
        while self.chars.get(self.i) == Some(&'|') {
            self.i += 1;
            alts.push(self.sequence()?);
        }
        Ok(alts)
    }

    fn sequence(&mut self) -> Result<Vec<Node>, String> {
        let mut seq = Vec::new();
        while let Some(&c) = self.chars.get(self.i) {
            if c == '|' || c == ')' {
                break;
            }
            self.i += 1;
            let atom = match c {
                '.' => Node::Any,
                '(' => {
                    let g = self.alternatives()?;
                    if self.chars.get(self.i) != Some(&')') {
                        return Err(self.error("missing )"));
                    }
                    self.i += 1;
                    Node::Group(g)
                }
                '[' => self.class()?,
                '\\' => self.escape()?,
                '*' | '+' | '?' => return Err(self.error("nothing to repeat")),
                c => Node::Char(c),
            };
            let atom = match self.chars.get(self.i) {
                Some('*') => Node::Repeat(Box::new(atom), 0, None),
                Some('+') => Node::Repeat(Box::new(atom), 1, None),
                Some('?') => Node::Repeat(Box::new(atom), 0, Some(1)),
                Some('{') => {
                    let (min, max) = self.counts()?;
                    seq.push(Node::Repeat(Box::new(atom), min, max));
                    continue;
                }
                _ => {
                    seq.push(atom);
                    continue;
                }
            };
            self.i += 1;
            seq.push(atom);
        }
        Ok(seq)
    }

    /// `{n}`, `{n,}` or `{n,m}` at the cursor.
    fn counts(&mut self) -> Result<(usize, Option<usize>), String> {
        let close = self.chars[self.i..]
            .iter()
            .position(|&c| c == '}')
            .ok_or_else(|| self.error("missing }"))?;
        let body: String = self.chars[self.i + 1..self.i + close].iter().collect();
        self.i += close + 1;
        let num = |s: &str| {
            s.trim()
                .parse::<usize>()
                .map_err(|_| self.error("bad count"))
        };
        Ok(match body.split_once(',') {
            None => {
                let n = num(&body)?;
                (n, Some(n))
            }
            Some((a, "")) => (num(a)?, None),
            Some((a, b)) => (num(a)?, Some(num(b)?)),
        })
    }

    fn escape(&mut self) -> Result<Node, String> {
        let c = *self
            .chars
            .get(self.i)
            .ok_or_else(|| self.error("dangling \\"))?;
        self.i += 1;
        let digit = vec![('0', '9')];
        let space = vec![(' ', ' '), ('\t', '\t'), ('\n', '\n'), ('\r', '\r')];
        let word = vec![('a', 'z'), ('A', 'Z'), ('0', '9'), ('_', '_')];
        Ok(match c {
            'd' => Node::Class(digit, false),
            'D' => Node::Class(digit, true),
            's' => Node::Class(space, false),
            'S' => Node::Class(space, true),
            'w' => Node::Class(word, false),
            'W' => Node::Class(word, true),
            'n' => Node::Char('\n'),
            c => Node::Char(c),
        })
    }

    fn class(&mut self) -> Result<Node, String> {
        let mut negate = false;
        if self.chars.get(self.i) == Some(&'^') {
            negate = true;
            self.i += 1;
        }
        let mut ranges = Vec::new();
        loop {
            let c = *self
                .chars
                .get(self.i)
                .ok_or_else(|| self.error("missing ]"))?;
            self.i += 1;
            if c == ']' && !ranges.is_empty() {
                return Ok(Node::Class(ranges, negate));
            }
            let c = if c == '\\' {
                let e = *self
                    .chars
                    .get(self.i)
                    .ok_or_else(|| self.error("dangling \\"))?;
                self.i += 1;
                e
            } else {
                c
            };
            if self.chars.get(self.i) == Some(&'-') && self.chars.get(self.i + 1) != Some(&']') {
                let hi = *self
                    .chars
                    .get(self.i + 1)
                    .ok_or_else(|| self.error("missing ]"))?;
                self.i += 2;
                ranges.push((c, hi));
            } else {
                ranges.push((c, c));
            }
        }
    }
}

impl Regex {
    pub fn new(src: &str) -> Result<Regex, String> {
        let mut p = Parser {
            chars: src.chars().collect(),
            i: 0,
            src,
        };
        let alts = p.alternatives()?;
        if p.i != p.chars.len() {
            return Err(p.error("unbalanced )"));
        }
        Ok(Regex { alts })
    }

    /// Whether the pattern matches all of `text`.
    pub fn is_full_match(&self, text: &str) -> bool {
        let t: Vec<char> = text.chars().collect();
        let n = t.len();
        self.alts
            .iter()
            .any(|seq| match_seq(seq, &t, 0, &mut |e| e == n))
    }
}

/// Matches `seq` at `t[i..]`, calling `k` with each end position until it accepts one.
fn match_seq(seq: &[Node], t: &[char], i: usize, k: &mut dyn FnMut(usize) -> bool) -> bool {
    match seq.split_first() {
        None => k(i),
        Some((first, rest)) => match_node(first, t, i, &mut |j| match_seq(rest, t, j, k)),
    }
}

fn match_node(n: &Node, t: &[char], i: usize, k: &mut dyn FnMut(usize) -> bool) -> bool {
    match n {
        Node::Char(c) => t.get(i) == Some(c) && k(i + 1),
        Node::Any => i < t.len() && k(i + 1),
        Node::Class(ranges, negate) => match t.get(i) {
            Some(&c) => {
                let inside = ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi);
                inside != *negate && k(i + 1)
            }
            None => false,
        },
        Node::Group(alts) => alts.iter().any(|seq| match_seq(seq, t, i, k)),
        Node::Repeat(inner, min, max) => repeat(inner, *min, *max, t, i, 0, k),
    }
}

/// Greedy repetition: try one more (if allowed and progressing), then stop here.
fn repeat(
    inner: &Node,
    min: usize,
    max: Option<usize>,
    t: &[char],
    i: usize,
    done: usize,
    k: &mut dyn FnMut(usize) -> bool,
) -> bool {
    if max.map_or(true, |m| done < m)
        && match_node(inner, t, i, &mut |j| {
            j > i && repeat(inner, min, max, t, j, done + 1, k)
        })
    {
        return true;
    }
    done >= min && k(i)
}

#[cfg(test)]
mod tests {
    use super::Regex;

    #[test]
    fn matches() {
        let m = |p: &str, t: &str| Regex::new(p).unwrap().is_full_match(t);
        assert!(m("E5", "E5"));
        assert!(!m("E5", "E55"));
        assert!(m("(E5|D4)", "D4"));
        assert!(m("B\\+[0-9]+\\.5", "B+12.5"));
        assert!(m(".*true.*", "x\ntrue"));
        assert!(m("[^p].*", "C3"));
        assert!(!m("[^p].*", "pass"));
        assert!(m("\\?illegal move", "?illegal move"));
        assert!(m("a?b+c*", "bbb"));
        assert!(m("", ""));
        assert!(m("(A|B)*", "ABBA"));
        assert!(m("(ab){2}c{1,}d{0,1}", "ababcc"));
        assert!(!m("a{3}", "aa"));
        assert!(Regex::new("(a").is_err());
    }
}
