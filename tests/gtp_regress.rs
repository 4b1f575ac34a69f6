//! Runs the GTP regression files in `tests/gtp/` (gogui-regress format) through the engine.
//!
//! A file is a GTP session. Commands that carry an id may be followed by `#? [pattern]`: the
//! response must match the pattern entirely (a failure response is matched as `?` followed by
//! its message). `#? [!pattern]` must not match; a trailing `*` marks a known failure, reported
//! but not fatal. The engine runs in-process with one thread, a fixed seed and few playouts, so
//! every file is reproducible.

#[path = "gtp/regex.rs"]
mod regex;

use regex::Regex;
use std::collections::HashMap;
use std::io::Cursor;
use std::path::Path;
use tengen::gtp::{self, Settings};
use tengen::mcts::Limits;

struct Expectation {
    id: u64,
    line: usize,
    pattern: String,
    negate: bool,
    known_failure: bool,
}

/// The expectations of a regression file.
fn expectations(text: &str) -> Vec<Expectation> {
    let mut out = Vec::new();
    let mut last_id = None;
    for (n, line) in text.lines().enumerate() {
        let t = line.trim();
        if let Some(rest) = t.strip_prefix("#?") {
            let rest = rest.trim();
            let (body, known_failure) = match rest.strip_suffix('*') {
                Some(b) => (b.trim_end(), true),
                None => (rest, false),
            };
            let inner = body
                .strip_prefix('[')
                .and_then(|b| b.strip_suffix(']'))
                .unwrap_or_else(|| panic!("line {}: expected #? [pattern]", n + 1));
            let (pattern, negate) = match inner.strip_prefix('!') {
                Some(p) => (p.to_string(), true),
                None => (inner.to_string(), false),
            };
            let id = last_id.unwrap_or_else(|| panic!("line {}: #? without a command id", n + 1));
            out.push(Expectation {
                id,
                line: n + 1,
                pattern,
                negate,
                known_failure,
            });
        } else if !t.starts_with('#') && !t.is_empty() {
            last_id = t
                .split_whitespace()
                .next()
                .and_then(|w| w.parse::<u64>().ok());
        }
    }
    out
}

/// Responses by id: `=` responses as their text, `?` responses as `?` plus the message.
fn responses(output: &str) -> HashMap<u64, String> {
    let mut map = HashMap::new();
    let mut lines = output.split('\n');
    while let Some(first) = lines.next() {
        if first.is_empty() {
            continue;
        }
        let status = first.chars().next().unwrap();
        assert!(status == '=' || status == '?', "not a response: {first:?}");
        let rest = &first[1..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let mut text = rest[digits.len()..]
            .strip_prefix(' ')
            .unwrap_or(&rest[digits.len()..])
            .to_string();
        for l in lines.by_ref() {
            if l.is_empty() {
                break;
            }
            if !text.is_empty() || !l.is_empty() {
                text.push('\n');
            }
            text.push_str(l);
        }
        let text = text.trim_start_matches('\n').to_string();
        if let Ok(id) = digits.parse::<u64>() {
            map.insert(
                id,
                if status == '?' {
                    format!("?{text}")
                } else {
                    text
                },
            );
        }
    }
    map
}

fn settings() -> Settings {
    // Debug builds check the board after every move: fewer playouts keep them bearable.
    let playouts = if cfg!(debug_assertions) { 1000 } else { 4000 };
    let mut s = Settings {
        limits: Limits {
            playouts: Some(playouts),
            time: None,
            early_stop: true,
        },
        size: tengen::board::BoardSize::NINE,
        verbose: false,
        ..Settings::default()
    };
    s.config.estimate_playouts = playouts / 2;
    s.config.params.threads = 1;
    s
}

/// Runs one file; returns the failures as messages.
fn run_file(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = Vec::new();
    let mut err = Vec::new();
    gtp::run(
        settings(),
        Cursor::new(text.clone().into_bytes()),
        &mut out,
        &mut err,
    )
    .expect("the session runs");
    let output = String::from_utf8(out).expect("responses are UTF-8");
    let got = responses(&output);
    let mut failures = Vec::new();
    let name = path.file_name().unwrap().to_string_lossy();
    for e in expectations(&text) {
        let re = Regex::new(&e.pattern).unwrap_or_else(|m| panic!("{name}:{}: {m}", e.line));
        let response = got.get(&e.id).cloned();
        let ok = response
            .as_deref()
            .is_some_and(|r| re.is_full_match(r) != e.negate);
        let shown = response.unwrap_or_else(|| "<no response>".into());
        if !ok && !e.known_failure {
            failures.push(format!(
                "{name}:{}: command {} answered {shown:?}, expected {}[{}]",
                e.line,
                e.id,
                if e.negate { "!" } else { "" },
                e.pattern
            ));
        } else if ok && e.known_failure {
            eprintln!("{name}:{}: command {} now passes (marked *)", e.line, e.id);
        } else if !ok {
            eprintln!(
                "{name}:{}: known failure: command {} answered {shown:?}",
                e.line, e.id
            );
        }
    }
    failures
}

#[test]
fn gtp_regression_files() {
    // The matcher backtracks recursively; give it room (debug frames are large).
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(run_all_files)
        .unwrap()
        .join()
        .unwrap();
}

fn run_all_files() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gtp");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tst"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .tst files in {}", dir.display());
    let mut failures = Vec::new();
    for f in &files {
        let start = std::time::Instant::now();
        failures.extend(run_file(f));
        eprintln!("{}: {:.2} s", f.display(), start.elapsed().as_secs_f64());
    }
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn harness_parses_expectations() {
    let e = expectations("10 play b E5\n#? []\n# note\n20 genmove w\n#? [!pass]*\n");
    assert_eq!(e.len(), 2);
    assert_eq!(
        (e[0].id, e[0].pattern.as_str(), e[0].negate),
        (10, "", false)
    );
    assert!(e[1].negate && e[1].known_failure && e[1].pattern == "pass");
    let r = responses("=1 a\nb\n\n?2 illegal move\n\n=3 \n\n=4\ninfo x\n\n");
    assert_eq!(r[&1], "a\nb");
    assert_eq!(r[&2], "?illegal move");
    assert_eq!(r[&3], "");
    assert_eq!(r[&4], "info x");
}

/// A command line longer than the bound is refused with a clear error and skipped, and the
/// session goes on (issue 39, item 7): memory stays bounded whatever a controller sends.
#[test]
fn an_overlong_line_is_refused_and_skipped() {
    let mut input = Vec::new();
    input.extend_from_slice(b"1 boardsize ");
    input.extend(std::iter::repeat_n(b'9', 1 << 20));
    input.extend_from_slice(b"\n2 name\n");
    let mut out = Vec::new();
    gtp::run(settings(), Cursor::new(input), &mut out, Vec::new()).expect("the session runs");
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.starts_with("? line too long: a command line holds at most 65536 bytes\n\n=2 tengen"),
        "{out}"
    );
}
