//! The move model: a learned strength ("gamma") for each value of each move feature
//! ([`features`]: tactical features, the 3x3 pattern, and the "diamond" of the twelve points
//! within two steps), fitted on game records by minorization-maximization ([`fit`]), so that the
//! probability of a move among the legal ones is its gammas' product over the sum of every
//! legal move's product (a generalised Bradley-Terry model).
//!
//! The search reads it as a prior: a new node's move gets `sqrt(p) * weight` virtual wins
//! (`--model-prior`, [`crate::mcts::Params::model_prior`]).
//!
//! The fitted table of 9x9 is committed (`data/model-9x9.tsv`) and compiled into the binary; a
//! test refits it from the committed records (`data/records-9x9/`) and fails when it is stale.
//! `tengen model fit` makes it, `tengen model eval` reports its prediction rate.
//!
//! A 19x19 table (`data/model-19x19.tsv`, from `data/records-19x19/`) is committed and checked
//! the same way, but not compiled in: in place of the 9x9 table, which the other sizes borrow
//! ([`crate::mcts::Params::model_every_size`]), its version before the diamonds won 30 of 80
//! games (37.5 % [27.7 %, 48.5 %]) of 19x19 self-play at 1,000 playouts a move
//! (perf/strength.md); refitted with them, it predicts held-out 19x19 moves less well than the
//! 9x9 table (`data/README.md`).
//!
//! Tables fitted on strong 19x19 records are read from `data/` at first use
//! ([`large_table`]) and lent to 13x13 and 19x19 under
//! [`crate::mcts::Params::model_19x19`]: `data/model-19x19-records.tsv` (today's features) and
//! `data/model-19x19-large.tsv` (with large spatial patterns, [`large`]).

pub mod features;
pub mod fit;
pub mod large;

use crate::mcts::LargeModel;
use features::{Features, DIAMOND, GROUPS, PATTERN, VALUES};
use large::LargeHashes;
use std::fmt::Write as _;
use std::sync::OnceLock;

/// Slots of each group's gammas: at least any group's number of [`VALUES`].
const MAX_VALUES: usize = 8;
const _: () = {
    let mut k = 0;
    while k < VALUES.len() {
        assert!(VALUES[k] <= MAX_VALUES);
        k += 1;
    }
};

/// Smallest gamma a table may hold (a value never chosen still has a strength above zero).
const MIN_GAMMA: f32 = 1e-6;

/// Gammas of every feature value.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// `gammas[g][v]` for every group but the two shapes' (`v` below `VALUES[g]`; the slots
    /// above hold 1). Fixed arrays rather than vectors: read for every legal move at every
    /// expansion, a lookup is then one load with a bounds check against a constant.
    gammas: [[f32; MAX_VALUES]; 9],
    /// Gamma of each canonical 3x3 code; codes without their own value hold `other`'s.
    patterns: Box<[f32; 1 << 16]>,
    /// The codes that have a value of their own, in increasing order.
    known: Vec<u16>,
    /// Gamma of the codes without their own value.
    other: f32,
    /// Every image under symmetry of each diamond with a value of its own, with its gamma, in
    /// an open-addressing table ([`DiamondTable`]): a move's diamond code is read as the board
    /// shows it, and looked up without reducing it.
    diamonds: DiamondTable,
    /// The diamonds that have a value of their own, as their smallest images, in increasing
    /// order, with their gammas (what the table's text lists).
    known_diamonds: Vec<(u32, f32)>,
    /// Gamma of the diamonds without their own value.
    other_diamond: f32,
    /// The large patterns with a value of their own ([`large`]: names of every radius), in
    /// an open-addressing table: a move's factor is its largest known pattern's gamma.
    large: DiamondTable,
    /// The same, in increasing order of name (what the table's text lists).
    known_large: Vec<(u32, f32)>,
    /// Gamma of a move none of whose large patterns is known (1 in a table without them).
    other_large: f32,
    /// Header lines of the table (what it was fitted on), without the leading `# `.
    about: Vec<String>,
}

impl Model {
    /// A model in which every gamma is 1 (every move equally likely).
    #[must_use]
    pub fn uniform() -> Model {
        Model {
            gammas: [[1.0; MAX_VALUES]; 9],
            // Through a vector: the array is never built on the stack (256 KB).
            patterns: vec![1.0; 1 << 16]
                .into_boxed_slice()
                .try_into()
                .expect("one gamma per 16-bit code"),
            known: Vec::new(),
            other: 1.0,
            diamonds: DiamondTable::new(&[]),
            known_diamonds: Vec::new(),
            other_diamond: 1.0,
            large: DiamondTable::new(&[]),
            known_large: Vec::new(),
            other_large: 1.0,
            about: Vec::new(),
        }
    }

    /// Sets the diamonds' gammas: `known` as (smallest image, gamma), `other` for the rest.
    fn set_diamonds(&mut self, mut known: Vec<(u32, f32)>, other: f32) {
        known.sort_by_key(|d| d.0);
        let mut all: Vec<(u32, f32)> = known
            .iter()
            .flat_map(|&(code, g)| {
                [false, true].into_iter().flat_map(move |mirror| {
                    (0..4).map(move |turn| (features::diamond_image(code, mirror, turn), g))
                })
            })
            .collect();
        all.sort_by_key(|d| d.0);
        all.dedup_by_key(|d| d.0);
        self.diamonds = DiamondTable::new(&all);
        self.known_diamonds = known;
        self.other_diamond = other;
    }

    /// Sets the large patterns' gammas: `known` as (name, gamma), `other` for the rest.
    fn set_large(&mut self, mut known: Vec<(u32, f32)>, other: f32) {
        known.sort_by_key(|d| d.0);
        self.large = DiamondTable::new(&known);
        self.known_large = known;
        self.other_large = other;
    }

    /// Whether the table knows large patterns (else [`Self::large_gamma`] is always 1 and a
    /// caller need not compute them).
    #[must_use]
    pub fn has_large(&self) -> bool {
        !self.known_large.is_empty()
    }

    /// The factor of a move whose large patterns are `names`: the gamma of the largest one the
    /// table knows, else the others' gamma.
    #[must_use]
    #[inline]
    pub fn large_gamma(&self, names: &LargeHashes) -> f32 {
        names
            .iter()
            .rev()
            .find_map(|&h| self.large.get(h))
            .unwrap_or(self.other_large)
    }

    /// [`Self::large_gamma`] of `c`'s move at the empty point `i`, computing its patterns'
    /// names only up to the first one the table lacks (the known ones nest, see
    /// [`large::large_hashes_while`]); 1 in a table without large patterns.
    #[must_use]
    pub fn large_gamma_at<const N: usize, const W: usize>(
        &self,
        board: &crate::board::Board<N, W>,
        c: crate::board::Color,
        i: usize,
    ) -> f32 {
        if !self.has_large() {
            return 1.0;
        }
        let mut g = self.other_large;
        large::large_hashes_while(board, c, i, |_, name| {
            self.large.get(name).map(|x| g = x).is_some()
        });
        g
    }

    /// The strength of a move with features `f`.
    #[must_use]
    #[inline]
    pub fn gamma(&self, f: &Features) -> f32 {
        let mut g = self
            .patterns
            .get(f.values[PATTERN] as usize)
            .copied()
            .unwrap_or(self.other);
        // An index loop with constant bounds: the compiler unrolls it (an iterator chain of
        // enumerate, take and skip here made each call about 280 instructions).
        for k in 1..DIAMOND {
            g *= self.gammas[k]
                .get(f.values[k] as usize)
                .copied()
                .unwrap_or(1.0);
        }
        g * self
            .diamonds
            .get(f.values[DIAMOND])
            .unwrap_or(self.other_diamond)
    }

    /// The gamma of group `g`'s value in `f` alone (1 for a group past the last).
    #[must_use]
    pub fn group_gamma(&self, g: usize, f: &Features) -> f32 {
        let v = f.values.get(g).copied().unwrap_or(0);
        match g {
            PATTERN => self.patterns.get(v as usize).copied().unwrap_or(self.other),
            DIAMOND => self.diamonds.get(v).unwrap_or(self.other_diamond),
            _ => self
                .gammas
                .get(g)
                .and_then(|row| row.get(v as usize))
                .copied()
                .unwrap_or(1.0),
        }
    }

    /// The table as text: one `group<TAB>value<TAB>gamma` line a value (the pattern's values
    /// as four hex digits, the diamond's as six, each shape's group with an `other` line),
    /// after `# ` header lines.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for line in &self.about {
            let _ = writeln!(s, "# {line}");
        }
        for (k, name) in GROUPS.iter().enumerate().take(DIAMOND).skip(1) {
            for (v, g) in self.gammas[k][..VALUES[k]].iter().enumerate() {
                let _ = writeln!(s, "{name}\t{v}\t{g:.6e}");
            }
        }
        let _ = writeln!(s, "pattern\tother\t{:.6e}", self.other);
        for &code in &self.known {
            let g = self.patterns[usize::from(code)];
            let _ = writeln!(s, "pattern\t{code:04x}\t{g:.6e}");
        }
        let _ = writeln!(s, "diamond\tother\t{:.6e}", self.other_diamond);
        for &(code, g) in &self.known_diamonds {
            let _ = writeln!(s, "diamond\t{code:06x}\t{g:.6e}");
        }
        if self.has_large() {
            let _ = writeln!(s, "large\tother\t{:.6e}", self.other_large);
            for &(name, g) in &self.known_large {
                let _ = writeln!(s, "large\t{name:08x}\t{g:.6e}");
            }
        }
        s
    }

    /// Reads a table written by [`Self::to_text`].
    ///
    /// # Errors
    /// A line that is not a known group's value with a positive gamma, or a missing value.
    pub fn parse(text: &str) -> Result<Model, String> {
        let mut m = Model::uniform();
        let mut seen: [Vec<bool>; 9] = VALUES.map(|n| vec![false; n]);
        let (mut other, mut other_diamond, mut other_large) = (None, None, None);
        let (mut pats, mut diamonds, mut larges) = (Vec::new(), Vec::new(), Vec::new());
        for (n, line) in text.lines().enumerate() {
            let bad = |why: &str| format!("model line {}: {why}: {line:?}", n + 1);
            if let Some(h) = line.strip_prefix('#') {
                // Trimmed: the line's own ending (`\r\n`) is not part of it.
                m.about.push(h.trim().to_string());
                continue;
            }
            if line.trim().is_empty() {
                continue;
            }
            let mut cols = line.split('\t');
            let (Some(group), Some(value), Some(gamma), None) =
                (cols.next(), cols.next(), cols.next(), cols.next())
            else {
                return Err(bad("not three tab-separated columns"));
            };
            let gamma: f32 = gamma.parse().map_err(|_| bad("bad gamma"))?;
            if !(gamma.is_finite() && gamma >= MIN_GAMMA) {
                return Err(bad("gamma out of range"));
            }
            if group == "large" {
                if value == "other" {
                    other_large = Some(gamma);
                } else {
                    let name = u32::from_str_radix(value, 16)
                        .ok()
                        .filter(|&h| h != 0 && h != u32::MAX && value.len() == 8)
                        .ok_or_else(|| bad("bad name (eight hex digits)"))?;
                    larges.push((name, gamma));
                }
                continue;
            }
            let k = GROUPS
                .iter()
                .position(|g| *g == group)
                .ok_or_else(|| bad("unknown group"))?;
            if k == PATTERN {
                if value == "other" {
                    other = Some(gamma);
                } else {
                    let code = u16::from_str_radix(value, 16).map_err(|_| bad("bad code"))?;
                    pats.push((code, gamma));
                }
                continue;
            }
            if k == DIAMOND {
                if value == "other" {
                    other_diamond = Some(gamma);
                } else {
                    let code = u32::from_str_radix(value, 16)
                        .ok()
                        .filter(|&c| c < 1 << 24 && features::canonical_diamond(c) == c)
                        .ok_or_else(|| bad("bad code (six hex digits, the smallest image)"))?;
                    diamonds.push((code, gamma));
                }
                continue;
            }
            let v: usize = value.parse().map_err(|_| bad("bad value"))?;
            let slot = seen[k]
                .get_mut(v)
                .ok_or_else(|| bad("value out of range"))?;
            if std::mem::replace(slot, true) {
                return Err(bad("value given twice"));
            }
            m.gammas[k][v] = gamma;
        }
        for (k, s) in seen.iter().enumerate().take(DIAMOND).skip(1) {
            if let Some(v) = s.iter().position(|&x| !x) {
                return Err(format!("model: no gamma for {} value {v}", GROUPS[k]));
            }
        }
        m.other = other.ok_or("model: no gamma for the other patterns")?;
        m.patterns.fill(m.other);
        pats.sort_by_key(|p| p.0);
        for w in pats.windows(2) {
            if w[0].0 == w[1].0 {
                return Err(format!("model: pattern {:04x} given twice", w[0].0));
            }
        }
        for &(code, g) in &pats {
            m.patterns[usize::from(code)] = g;
        }
        m.known = pats.iter().map(|p| p.0).collect();
        let other_diamond = other_diamond.ok_or("model: no gamma for the other diamonds")?;
        diamonds.sort_by_key(|d| d.0);
        for w in diamonds.windows(2) {
            if w[0].0 == w[1].0 {
                return Err(format!("model: diamond {:06x} given twice", w[0].0));
            }
        }
        m.set_diamonds(diamonds, other_diamond);
        larges.sort_by_key(|d| d.0);
        if let Some(w) = larges.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(format!("model: large pattern {:08x} given twice", w[0].0));
        }
        let other_large = match (other_large, larges.is_empty()) {
            (Some(g), false) => g,
            (None, true) => 1.0,
            (Some(_), true) => return Err("model: large patterns' other gamma without any".into()),
            (None, false) => return Err("model: no gamma for the other large patterns".into()),
        };
        m.set_large(larges, other_large);
        Ok(m)
    }

    /// The header lines (what the table was fitted on).
    #[must_use]
    pub fn about(&self) -> &[String] {
        &self.about
    }
}

/// Gammas of diamond codes (and of large patterns' names) in an open-addressing table with
/// linear probing, at most half full: read at every expansion for every legal move, a lookup is a multiply and one or two
/// probes. (A binary search over the sorted codes cost 3.6 % more instructions of a 9x9
/// search, `perf/search.md`.)
#[derive(Clone, Debug, PartialEq)]
struct DiamondTable {
    /// `(code, gamma)`, [`DiamondTable::EMPTY`] as the code of an empty slot.
    slots: Box<[(u32, f32)]>,
    /// `32 - log2(slots)`: the hash's top bits pick the first slot.
    shift: u32,
}

impl DiamondTable {
    /// No code has it: diamond codes are 24 bits, large patterns' names are below it.
    const EMPTY: u32 = u32::MAX;

    /// A table of `entries` (distinct codes other than [`Self::EMPTY`]).
    fn new(entries: &[(u32, f32)]) -> DiamondTable {
        let bits = (2 * entries.len())
            .max(2)
            .next_power_of_two()
            .trailing_zeros();
        let mut slots = vec![(Self::EMPTY, 0.0); 1 << bits].into_boxed_slice();
        let shift = 32 - bits;
        for &(code, g) in entries {
            let mut k = Self::hash(code, shift);
            while slots[k].0 != Self::EMPTY {
                k = (k + 1) & (slots.len() - 1);
            }
            slots[k] = (code, g);
        }
        DiamondTable { slots, shift }
    }

    #[inline]
    fn hash(code: u32, shift: u32) -> usize {
        (code.wrapping_mul(0x9e37_79b1) >> shift) as usize
    }

    /// The gamma of `code`, if the table has it. Ends: the table has an empty slot.
    #[inline]
    fn get(&self, code: u32) -> Option<f32> {
        let mask = self.slots.len() - 1;
        let mut k = Self::hash(code, self.shift);
        loop {
            let (c, g) = self.slots[k];
            if c == code {
                return Some(g);
            }
            if c == Self::EMPTY {
                return None;
            }
            k = (k + 1) & mask;
        }
    }
}

/// The committed table of 9x9, as text.
pub const TABLE_9X9: &str = include_str!("../../../data/model-9x9.tsv");

/// The 9x9 table with the line gammas fitted on 19x19 records (`tengen model fit --base
/// data/model-9x9.tsv --free line`), as text.
pub const TABLE_19X19_LINES: &str = include_str!("../../../data/model-19x19-lines.tsv");

/// Where the table fitted on the strong 19x19 records (`tengen model fit --records
/// ARCHIVE...`) is read from: the checkout's `data/` directory, whose path is fixed when the
/// binary is built.
///
/// The two tables fitted on the records are read at first use, not compiled in: together they
/// are 0.58 MB of text, which would take the release binary past its 6.5 MB bar
/// (`perf/build.md`). Parsing one takes a few milliseconds.
pub const TABLE_19X19_RECORDS_FILE: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/data/model-19x19-records.tsv");

/// Where the table fitted on the same records with large patterns as well (`tengen model fit
/// --records ARCHIVE... --large-patterns 3`) is read from (see [`TABLE_19X19_RECORDS_FILE`]).
pub const TABLE_19X19_LARGE_FILE: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/data/model-19x19-large.tsv");

/// The largest table file read (a committed table is well under 1 MB).
const MAX_TABLE_BYTES: u64 = 16 << 20;

/// Reads and parses the table at `path`, saying which file failed and why.
fn read_table(path: &str) -> Result<Model, String> {
    let n = std::fs::metadata(path)
        .map_err(|e| format!("{path}: {e}"))?
        .len();
    if n > MAX_TABLE_BYTES {
        return Err(format!(
            "{path}: {n} bytes, more than a table's {MAX_TABLE_BYTES}"
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    Model::parse(&text).map_err(|e| format!("{path}: {e}"))
}

/// The table `which` chooses for 13x13 and larger boards, read and parsed on first use: for
/// [`LargeModel::Records`] and [`LargeModel::Large`], the file's table or why it cannot be
/// read (`--model-19x19` checks this when it is given); for the others, the compiled-in
/// table that [`lent`] gives 19x19.
pub fn large_table(which: LargeModel) -> Result<&'static Model, String> {
    static LINES: OnceLock<Result<Model, String>> = OnceLock::new();
    static RECORDS: OnceLock<Result<Model, String>> = OnceLock::new();
    static LARGE: OnceLock<Result<Model, String>> = OnceLock::new();
    match which {
        LargeModel::Nine => builtin(9).ok_or_else(|| "data/model-9x9.tsv".to_string()),
        LargeModel::Lines => LINES
            .get_or_init(|| Model::parse(TABLE_19X19_LINES))
            .as_ref()
            .map_err(Clone::clone),
        LargeModel::Records => RECORDS
            .get_or_init(|| read_table(TABLE_19X19_RECORDS_FILE))
            .as_ref()
            .map_err(Clone::clone),
        LargeModel::Large => LARGE
            .get_or_init(|| read_table(TABLE_19X19_LARGE_FILE))
            .as_ref()
            .map_err(Clone::clone),
    }
}

/// The table lent to boards of side `n` in place of the 9x9 one under `which`, if there is one:
/// [`LargeModel::Lines`] lends [`TABLE_19X19_LINES`] to 19x19, [`LargeModel::Records`] and
/// [`LargeModel::Large`] their files' tables to 13x13 and up ([`large_table`]).
#[must_use]
pub fn lent(n: usize, which: LargeModel) -> Option<&'static Model> {
    match which {
        LargeModel::Lines if n == 19 => large_table(which).ok(),
        LargeModel::Records | LargeModel::Large if n >= 13 => large_table(which).ok(),
        _ => None,
    }
}

/// The table the search reads on boards of side `n` when the move model is on every size
/// ([`crate::mcts::Params::model_every_size`]): `n`'s own, else the one `which` lends
/// ([`crate::mcts::Params::model_19x19`]), else the 9x9 one.
#[must_use]
pub fn for_side(n: usize, which: LargeModel) -> Option<&'static Model> {
    builtin(n).or_else(|| lent(n, which)).or_else(|| builtin(9))
}

/// The built-in model of boards of side `n`, if there is one (9x9 only), parsed on first use.
#[must_use]
pub fn builtin(n: usize) -> Option<&'static Model> {
    static NINE: OnceLock<Option<Model>> = OnceLock::new();
    if n != 9 {
        return None;
    }
    NINE.get_or_init(|| Model::parse(TABLE_9X9).ok()).as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_diamond_table_finds_what_it_holds_and_nothing_else() {
        let entries: Vec<(u32, f32)> = (0..1000u32)
            .map(|k| (k * 7919 % (1 << 24), k as f32))
            .collect();
        let t = DiamondTable::new(&entries);
        for &(code, g) in &entries {
            assert_eq!(t.get(code), Some(g));
        }
        assert_eq!(t.get(1), None);
        assert_eq!(DiamondTable::new(&[]).get(0), None);
    }

    #[test]
    fn the_committed_table_parses() {
        let m = Model::parse(TABLE_9X9).expect("data/model-9x9.tsv");
        assert!(builtin(9).is_some() && builtin(19).is_none());
        assert_eq!(Model::parse(&m.to_text()).unwrap(), m);
    }

    #[test]
    fn the_lent_19x19_table_is_the_9x9_table_with_its_own_lines() {
        let (nine, lent19) = (
            builtin(9).unwrap(),
            lent(19, LargeModel::Lines).expect("data/model-19x19-lines.tsv"),
        );
        assert!(lent(9, LargeModel::Lines).is_none() && lent(13, LargeModel::Lines).is_none());
        assert!(lent(19, LargeModel::Nine).is_none());
        let line = GROUPS.iter().position(|g| *g == "line").unwrap();
        for (g, (a, b)) in nine.gammas.iter().zip(&lent19.gammas).enumerate() {
            if g == line {
                assert_ne!(a, b);
            } else {
                assert_eq!(a, b, "group {}", GROUPS[g]);
            }
        }
        assert!(nine.patterns == lent19.patterns && nine.known_diamonds == lent19.known_diamonds);
    }

    /// The records table parses, is lent to 13x13 and 19x19 only under
    /// [`LargeModel::Records`], and is a table of its own (not the 9x9 one's patterns).
    #[test]
    fn the_records_table_is_lent_to_large_boards() {
        let records = lent(19, LargeModel::Records).expect("data/model-19x19-records.tsv");
        assert!(std::ptr::eq(
            records,
            lent(13, LargeModel::Records).unwrap()
        ));
        assert!(lent(9, LargeModel::Records).is_none() && lent(11, LargeModel::Records).is_none());
        assert!(std::ptr::eq(
            for_side(19, LargeModel::Records).unwrap(),
            records
        ));
        assert!(std::ptr::eq(
            for_side(13, LargeModel::Lines).unwrap(),
            builtin(9).unwrap()
        ));
        assert!(std::ptr::eq(
            for_side(9, LargeModel::Records).unwrap(),
            builtin(9).unwrap()
        ));
        assert!(records.patterns != builtin(9).unwrap().patterns);
        assert_eq!(Model::parse(&records.to_text()).unwrap(), *records);
    }

    /// The large-pattern table is lent like the records table, knows large patterns, and
    /// the engine's early-stopping read of a move's factor is the full read's on a seeded
    /// random 19x19 game (every empty point, both colours, every tenth move).
    #[test]
    fn the_large_table_reads_the_same_stopping_early() {
        use crate::board::{Board19, Move};
        let m = lent(19, LargeModel::Large).expect("data/model-19x19-large.tsv");
        assert!(std::ptr::eq(m, lent(13, LargeModel::Large).unwrap()));
        assert!(lent(9, LargeModel::Large).is_none() && m.has_large());
        assert!(!lent(19, LargeModel::Records).unwrap().has_large());
        let mut b = Board19::new();
        let mut seed = 0x853c_49e6_748f_ea9bu64;
        let (mut c, mut known, mut played) = (crate::board::Color::Black, 0, 0);
        while played < 160 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            if played % 10 == 0 {
                for p in b.points() {
                    let i = p.index();
                    if b.cell_at(i) != 0 {
                        continue;
                    }
                    for side in [c, !c] {
                        let full = m.large_gamma(&large::large_hashes(&b, side, i));
                        assert_eq!(m.large_gamma_at(&b, side, i), full, "{i}");
                        known += usize::from(full != m.other_large);
                    }
                }
            }
            let p = b
                .point((seed % 19) as usize, ((seed >> 8) % 19) as usize)
                .unwrap();
            if b.play(c, Move::Play(p)).is_ok() {
                played += 1;
                c = !c;
            }
        }
        assert!(known > 100, "{known} moves with a known large pattern");
    }

    #[test]
    fn a_table_file_that_cannot_be_read_is_named_in_the_error() {
        let e = read_table("/nonexistent/model.tsv").unwrap_err();
        assert!(e.starts_with("/nonexistent/model.tsv: "), "{e}");
        let bad = std::env::temp_dir().join(format!("tengen-bad-table-{}.tsv", std::process::id()));
        std::fs::write(&bad, "capture\t9\t1\n").unwrap();
        let e = read_table(bad.to_str().unwrap()).unwrap_err();
        std::fs::remove_file(&bad).unwrap();
        assert!(e.contains("out of range"), "{e}");
    }

    #[test]
    fn bad_tables_are_refused_with_the_line() {
        let good = Model::uniform().to_text();
        assert_eq!(Model::parse(&good).unwrap(), Model::uniform());
        // Large patterns: the largest known one's gamma, written back as read.
        let with_large =
            format!("{good}large\tother\t5e-1\nlarge\t0000abcd\t3\nlarge\t00000007\t2\n");
        let m = Model::parse(&with_large).unwrap();
        assert!(m.has_large() && !Model::uniform().has_large());
        assert_eq!(m.large_gamma(&[0xabcd, 1, 2, 3, 7, 9]), 2.0);
        assert_eq!(m.large_gamma(&[0xabcd, 1, 2, 3, 4, 9]), 3.0);
        assert_eq!(m.large_gamma(&[1, 2, 3, 4, 5, 6]), 0.5);
        assert_eq!(Model::uniform().large_gamma(&[0xabcd, 1, 2, 3, 7, 9]), 1.0);
        assert_eq!(Model::parse(&m.to_text()).unwrap(), m);
        let no_other = good.replace("pattern\tother\t1.000000e0\n", "");
        assert!(Model::parse(&no_other)
            .unwrap_err()
            .contains("other patterns"));
        let no_other = good.replace("diamond\tother\t1.000000e0\n", "");
        assert!(Model::parse(&no_other)
            .unwrap_err()
            .contains("other diamonds"));
        for (bad, why) in [
            ("capture\t9\t1\n", "out of range"),
            ("capture\t0\t0\n", "gamma out of range"),
            ("capture\t0\t1\n", "given twice"),
            ("colour\t0\t1\n", "unknown group"),
            ("pattern\tzz\t1\n", "bad code"),
            // A diagonal stone's smallest image is at the ring's cell 0, not 6.
            ("diamond\t001000\t1\n", "bad code"),
            ("diamond\t1000000\t1\n", "bad code"),
            ("diamond\t000001\t1\ndiamond\t000001\t2\n", "given twice"),
            ("large\t0000abcd\t1\n", "other large patterns"),
            ("large\tother\t1\n", "without any"),
            ("large\tother\t1\nlarge\tabcd\t2\n", "bad name"),
            ("large\tother\t1\nlarge\tffffffff\t2\n", "bad name"),
            (
                "large\tother\t1\nlarge\t0000abcd\t2\nlarge\t0000abcd\t3\n",
                "given twice",
            ),
            ("capture 0 1\n", "three tab-separated"),
        ] {
            let e = Model::parse(&format!("{good}{bad}")).unwrap_err();
            assert!(e.contains(why), "{bad:?}: {e}");
        }
    }
}
