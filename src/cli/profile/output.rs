//! What a profile is written as: folded stacks, an SVG flamegraph (inferno), a pprof protobuf,
//! and the differential flamegraph of two folded files.

use super::sampler::Samples;
use super::symbols::{Frame, Symbolizer};
use anyhow::Context;
use pprof::protos::{self, Message};
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::Path;

/// Sampled stacks as folded lines: frame names root first, joined by `;`, and a count.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Folded {
    pub stacks: BTreeMap<String, u64>,
}

impl Folded {
    /// Symbolizes `samples`. Frame names lose their generic arguments (`ply<2, 9, Pcg>` is
    /// drawn `ply`), and each stack starts at its outermost frame in tengen's own source: the
    /// thread start-up frames of the runtime below it are dropped.
    pub fn from_samples(samples: &Samples, sym: &mut Symbolizer) -> Self {
        let mut stacks = BTreeMap::new();
        for (addrs, &n) in &samples.stacks {
            let mut frames = sym.stack(addrs);
            if let [pc] = addrs[..] {
                // Not unwound (outside tengen's code, see `sampler`): the caller is unknown.
                frames.push(Frame {
                    name: sym.mapping_name(pc),
                    file: None,
                    line: None,
                });
            }
            let start = frames
                .iter()
                .rposition(is_own)
                .map_or(0, |i| frames.len() - 1 - i);
            let names: Vec<&str> = frames
                .iter()
                .rev()
                .skip(start)
                .map(|f| without_generics(&f.name))
                .collect();
            *stacks.entry(names.join(";")).or_insert(0) += n;
        }
        Self { stacks }
    }

    /// Reads folded lines (`a;b;c 12`); blank lines are skipped.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut stacks = BTreeMap::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_end();
            if line.is_empty() {
                continue;
            }
            let (stack, n) = line
                .rsplit_once(' ')
                .and_then(|(s, n)| Some((s, n.parse::<u64>().ok()?)))
                .filter(|(s, _)| !s.is_empty())
                .ok_or_else(|| format!("line {}: expected `frame;frame;... count`", i + 1))?;
            *stacks.entry(stack.to_string()).or_insert(0) += n;
        }
        Ok(Self { stacks })
    }

    #[must_use]
    pub fn total(&self) -> u64 {
        self.stacks.values().sum()
    }

    /// The lines of the folded format, sorted by stack.
    #[must_use]
    pub fn lines(&self) -> Vec<String> {
        self.stacks
            .iter()
            .map(|(s, n)| format!("{s} {n}"))
            .collect()
    }

    /// The `n` frames with the most inclusive samples below the roots, most first, as
    /// (name, inclusive, self).
    #[must_use]
    pub fn hottest(&self, n: usize) -> Vec<(String, u64, u64)> {
        let mut incl: HashMap<&str, u64> = HashMap::new();
        let mut excl: HashMap<&str, u64> = HashMap::new();
        for (s, &c) in &self.stacks {
            let frames: Vec<&str> = s.split(';').collect();
            let mut seen: Vec<&str> = Vec::with_capacity(frames.len());
            for &f in &frames {
                if !seen.contains(&f) {
                    seen.push(f);
                    *incl.entry(f).or_insert(0) += c;
                }
            }
            if let Some(&leaf) = frames.last() {
                *excl.entry(leaf).or_insert(0) += c;
            }
        }
        let mut v: Vec<(String, u64, u64)> = incl
            .into_iter()
            .map(|(f, c)| (f.to_string(), c, excl.get(f).copied().unwrap_or(0)))
            .collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.cmp(&a.2)).then(a.0.cmp(&b.0)));
        v.truncate(n);
        v
    }
}

/// Whether a frame is in tengen's own source files (those of the crate this binary was built
/// from).
fn is_own(f: &Frame) -> bool {
    f.file
        .as_deref()
        .is_some_and(|file| file.starts_with(concat!(env!("CARGO_MANIFEST_DIR"), "/src/")))
}

/// `name` without a trailing generic argument list (`light_playout<9, 2, Pcg>` ->
/// `light_playout`); a name that is all one `<...>` group is kept.
fn without_generics(name: &str) -> &str {
    if !name.ends_with('>') {
        return name;
    }
    let mut depth = 0usize;
    for (i, c) in name.char_indices().rev() {
        match c {
            '>' => depth += 1,
            '<' => {
                depth -= 1;
                if depth == 0 {
                    return if i == 0 { name } else { &name[..i] };
                }
            }
            _ => {}
        }
    }
    name
}

/// Writes the folded lines.
pub fn write_folded(f: &Folded, w: &mut impl Write) -> std::io::Result<()> {
    for line in f.lines() {
        writeln!(w, "{line}")?;
    }
    Ok(())
}

fn flame_options(title: &str, count_name: &str) -> inferno::flamegraph::Options<'static> {
    let mut o = inferno::flamegraph::Options::default();
    o.title = title.to_string();
    o.count_name = count_name.to_string();
    o.min_width = 0.05;
    o
}

/// Writes an SVG flamegraph of `f`.
pub fn write_svg(f: &Folded, title: &str, w: &mut impl Write) -> anyhow::Result<()> {
    let lines = f.lines();
    let mut opts = flame_options(title, "samples");
    inferno::flamegraph::from_lines(&mut opts, lines.iter().map(String::as_str), w)
        .context("inferno could not draw the flamegraph")
}

/// Writes the differential flamegraph of `before` -> `after` (folded files): frames are drawn
/// with `after`'s widths, red where `after` has more of the samples than `before`, blue where
/// fewer. Counts are normalised to the same total first.
pub fn write_diff(before: &Path, after: &Path, w: &mut impl Write) -> anyhow::Result<()> {
    for p in [before, after] {
        check_folded(p)?;
    }
    let mut diff = Vec::new();
    let opts = inferno::differential::Options {
        normalize: true,
        ..Default::default()
    };
    inferno::differential::from_files(opts, before, after, &mut diff)
        .context("inferno could not compare the two profiles")?;
    let title = format!(
        "tengen profile: {} -> {} (red: more samples, blue: fewer)",
        file_name(before),
        file_name(after)
    );
    let mut fo = flame_options(&title, "samples");
    inferno::flamegraph::from_reader(&mut fo, diff.as_slice(), w)
        .context("inferno could not draw the differential flamegraph")
}

/// Reads the folded stacks at `p` and checks them: readable, folded, and not empty.
pub fn check_folded(p: &Path) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(p)
        .with_context(|| format!("cannot read the folded file {}", p.display()))?;
    let f = Folded::parse(&text)
        .map_err(|e| anyhow::anyhow!("{}: not a folded file: {e}", p.display()))?;
    anyhow::ensure!(f.total() > 0, "{}: no samples", p.display());
    Ok(())
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into())
}

/// A pprof `Profile` of `samples`: one location per sampled address, holding its inline
/// frames as several lines (innermost first, as the format wants), so `pprof` shows inlined
/// functions too. Values: samples, and CPU nanoseconds at `hz`.
pub fn pprof(
    samples: &Samples,
    sym: &mut Symbolizer,
    hz: u32,
    duration: std::time::Duration,
) -> protos::Profile {
    let mut strings = Strings::default();
    let mut functions: HashMap<(String, Option<String>), u64> = HashMap::new();
    let mut fn_table = Vec::new();
    let mut locations: HashMap<usize, u64> = HashMap::new();
    let mut loc_table = Vec::new();
    let mut sample_table = Vec::new();
    let period = 1_000_000_000 / i64::from(hz.max(1));

    let mut function_id = |f: &Frame, strings: &mut Strings| {
        let key = (f.name.clone(), f.file.clone());
        if let Some(&id) = functions.get(&key) {
            return id;
        }
        let id = fn_table.len() as u64 + 1;
        fn_table.push(protos::Function {
            id,
            name: strings.id(&f.name),
            system_name: strings.id(&f.name),
            filename: strings.id(f.file.as_deref().unwrap_or("")),
            ..Default::default()
        });
        functions.insert(key, id);
        id
    };
    // Sorted for a deterministic file.
    let mut stacks: Vec<(&Vec<usize>, &u64)> = samples.stacks.iter().collect();
    stacks.sort();
    for (addrs, &n) in stacks {
        let mut ids = Vec::with_capacity(addrs.len());
        for (i, &a) in addrs.iter().enumerate() {
            let at = if i == 0 { a } else { a.saturating_sub(1) };
            let id = if let Some(&id) = locations.get(&at) {
                id
            } else {
                let id = loc_table.len() as u64 + 1;
                let lines = sym
                    .frames(at)
                    .iter()
                    .map(|f| protos::Line {
                        function_id: function_id(f, &mut strings),
                        line: f.line.map_or(0, i64::from),
                        ..Default::default()
                    })
                    .collect::<Vec<_>>();
                loc_table.push(protos::Location {
                    id,
                    address: at as u64,
                    line: lines,
                    ..Default::default()
                });
                locations.insert(at, id);
                id
            };
            ids.push(id);
        }
        sample_table.push(protos::Sample {
            location_id: ids,
            value: vec![n as i64, n as i64 * period],
            ..Default::default()
        });
    }
    let value_type = |ty: &str, unit: &str, strings: &mut Strings| protos::ValueType {
        ty: strings.id(ty),
        unit: strings.id(unit),
        ..Default::default()
    };
    let samples_type = value_type("samples", "count", &mut strings);
    let cpu_type = value_type("cpu", "nanoseconds", &mut strings);
    protos::Profile {
        sample_type: vec![samples_type, cpu_type.clone()],
        sample: sample_table,
        location: loc_table,
        function: fn_table,
        string_table: strings.table,
        duration_nanos: i64::try_from(duration.as_nanos()).unwrap_or(i64::MAX),
        period_type: Some(cpu_type).into(),
        period,
        ..Default::default()
    }
}

/// The protobuf encoding of `p`.
pub fn pprof_bytes(p: &protos::Profile) -> anyhow::Result<Vec<u8>> {
    p.write_to_bytes()
        .context("cannot encode the pprof profile")
}

/// pprof's string table: index 0 is the empty string.
struct Strings {
    table: Vec<String>,
    index: HashMap<String, i64>,
}

impl Default for Strings {
    fn default() -> Self {
        Self {
            table: vec![String::new()],
            index: HashMap::from([(String::new(), 0)]),
        }
    }
}

impl Strings {
    fn id(&mut self, s: &str) -> i64 {
        if let Some(&i) = self.index.get(s) {
            return i;
        }
        let i = self.table.len() as i64;
        self.table.push(s.to_string());
        self.index.insert(s.to_string(), i);
        i
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Folded {
        Folded::parse("main;a;b 3\nmain;a 2\n\nmain;c;a 5\n").unwrap()
    }

    #[test]
    fn folded_round_trip_and_counts() {
        let f = sample();
        assert_eq!(f.total(), 10);
        let hot = f.hottest(3);
        assert_eq!(hot[0], ("a".to_string(), 10, 7));
        assert_eq!(hot[1], ("main".to_string(), 10, 0));
        assert_eq!(hot[2], ("c".to_string(), 5, 0));
        let again = Folded::parse(&f.lines().join("\n")).unwrap();
        assert_eq!(again, f);
    }

    #[inline(never)]
    fn a_sampled_function() -> usize {
        std::hint::black_box(a_sampled_function as *const () as usize)
    }

    #[test]
    fn pprof_profile_decodes_with_its_frames() {
        let pc = a_sampled_function() + 1;
        let samples = Samples {
            stacks: HashMap::from([(vec![pc], 3), (vec![pc, pc + 8], 2)]),
            dropped: 0,
        };
        let p = pprof(
            &samples,
            &mut Symbolizer::new(),
            250,
            std::time::Duration::from_secs(1),
        );
        let bytes = pprof_bytes(&p).unwrap();
        let back = protos::Profile::parse_from_bytes(&bytes).unwrap();
        assert_eq!(back.string_table[0], "");
        assert_eq!(back.sample.len(), 2);
        let counts: i64 = back.sample.iter().map(|s| s.value[0]).sum();
        assert_eq!(counts, 5);
        assert_eq!(back.sample[0].value[1], 3 * 4_000_000);
        let names: Vec<&str> = back
            .function
            .iter()
            .map(|f| back.string_table[f.name as usize].as_str())
            .collect();
        assert!(
            names.iter().any(|n| n.ends_with("a_sampled_function")),
            "{names:?}"
        );
        assert!(back.location.iter().all(|l| !l.line.is_empty()));
    }

    #[test]
    fn generic_arguments_are_dropped() {
        assert_eq!(without_generics("ply<2, 9, rand_pcg::Pcg<u8>>"), "ply");
        assert_eq!(without_generics("{closure#0}<9, 2>"), "{closure#0}");
        assert_eq!(without_generics("<Foo as Bar<u8>>"), "<Foo as Bar<u8>>");
        assert_eq!(without_generics("<Foo>::new"), "<Foo>::new");
        assert_eq!(without_generics("a->b>"), "a->b>");
    }

    #[test]
    fn bad_folded_lines_are_refused() {
        for bad in ["main;a", "main;a x", " 3"] {
            assert!(Folded::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn svg_holds_the_frames() {
        let mut svg = Vec::new();
        write_svg(&sample(), "t", &mut svg).unwrap();
        let svg = String::from_utf8(svg).unwrap();
        assert!(svg.contains("<svg"), "{svg}");
        for frame in ["main (10 samples, 100.00%)", "b (3 samples, 30.00%)"] {
            assert!(svg.contains(frame), "{frame} missing from {svg}");
        }
    }
}
