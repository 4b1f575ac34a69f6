//! `tengen profile`: the formats it writes (folded stacks, SVG, pprof, the differential
//! flamegraph), for the bench and the search workloads. Shapes, not timings.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh directory for one test's files.
fn scratch(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tengen-profile-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn tengen(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(args)
        .output()
        .expect("cannot run tengen");
    assert!(
        out.status.success(),
        "tengen {args:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Parses folded stacks (`frame;frame;... count` per line) into stacks and counts.
fn read_folded(p: &Path) -> Vec<(Vec<String>, u64)> {
    let text = std::fs::read_to_string(p).unwrap();
    let stacks: Vec<(Vec<String>, u64)> = text
        .lines()
        .map(|line| {
            let (stack, n) = line
                .rsplit_once(' ')
                .unwrap_or_else(|| panic!("no count: {line}"));
            let n: u64 = n.parse().unwrap_or_else(|_| panic!("bad count: {line}"));
            let frames: Vec<String> = stack.split(';').map(str::to_string).collect();
            assert!(frames.iter().all(|f| !f.is_empty()), "empty frame: {line}");
            (frames, n)
        })
        .collect();
    assert!(!stacks.is_empty(), "{} is empty", p.display());
    stacks
}

/// Inclusive samples of every frame name (once per sample however often it recurs).
fn inclusive(stacks: &[(Vec<String>, u64)]) -> HashMap<&str, u64> {
    let mut m = HashMap::new();
    for (frames, n) in stacks {
        let mut seen: Vec<&str> = Vec::new();
        for f in frames {
            if !seen.contains(&f.as_str()) {
                seen.push(f);
                *m.entry(f.as_str()).or_insert(0) += n;
            }
        }
    }
    m
}

/// Frames holding between 2 % and 90 % of the samples: with the playout's inline frames
/// resolved, several; with every sample given one stack per function, none.
fn frames_between(stacks: &[(Vec<String>, u64)]) -> Vec<String> {
    let total: u64 = stacks.iter().map(|s| s.1).sum();
    let mut v: Vec<String> = inclusive(stacks)
        .into_iter()
        .filter(|&(_, n)| n * 50 >= total && n * 10 <= total * 9)
        .map(|(f, _)| f.to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn bench_profile_writes_folded_svg_and_pprof_with_inline_frames() {
    let d = scratch("bench");
    let (svg, folded, pb) = (d.join("b.svg"), d.join("b.folded"), d.join("b.pb"));
    let out = tengen(&[
        "profile",
        "--size",
        "9",
        "--seconds",
        "1.5",
        "-o",
        path(&svg),
        "--folded",
        path(&folded),
        "--pprof",
        path(&pb),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("playouts/s") && stdout.contains("where the time goes"),
        "{stdout}"
    );

    let stacks = read_folded(&folded);
    let deepest = stacks.iter().map(|s| s.0.len()).max().unwrap();
    assert!(deepest >= 5, "stacks of at most {deepest} frames");
    let spread = frames_between(&stacks);
    assert!(
        spread.len() >= 3,
        "the work is not spread over frames: {spread:?}"
    );

    let svg_text = std::fs::read_to_string(&svg).unwrap();
    assert!(svg_text.starts_with("<?xml") && svg_text.contains("<svg"));
    for f in &spread {
        let escaped = f
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        assert!(
            svg_text.contains(&escaped),
            "frame {f} missing from the SVG"
        );
    }
    let pb_bytes = std::fs::read(&pb).unwrap();
    assert!(
        pb_bytes.len() > 100,
        "pprof file of {} bytes",
        pb_bytes.len()
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn search_profile_plays_its_genmoves() {
    let d = scratch("search");
    let (svg, folded) = (d.join("s.svg"), d.join("s.folded"));
    let out = tengen(&[
        "profile",
        "search",
        "--size",
        "9",
        "--preset",
        "light",
        // About 0.6 s of search: at 3,000 a move the run took 0.1 s, a dozen samples, few
        // enough for a fast host to see none.
        "--playouts",
        "20000",
        "--genmoves",
        "2",
        "--threads",
        "2",
        "-o",
        path(&svg),
        "--folded",
        path(&folded),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let moves = stdout
        .lines()
        .find_map(|l| l.strip_prefix("moves"))
        .unwrap_or_else(|| panic!("no moves line: {stdout}"));
    assert_eq!(moves.split(',').count(), 2, "{stdout}");
    assert!(
        moves.trim_start().starts_with("B ") && moves.contains("W "),
        "{moves}"
    );
    let stacks = read_folded(&folded);
    let spread = frames_between(&stacks);
    assert!(
        spread.len() >= 3,
        "the work is not spread over frames: {spread:?}"
    );
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn search_profile_starts_from_an_sgf_position() {
    let d = scratch("sgf");
    let sgf = d.join("g.sgf");
    std::fs::write(&sgf, "(;GM[1]FF[4]SZ[9]KM[7.5];B[ee];W[cc];B[gc])").unwrap();
    let svg = d.join("s.svg");
    let out = tengen(&[
        "profile",
        "search",
        "--preset",
        "light",
        // About 0.4 s of search (at 2,000 playouts the run took 0.04 s, two samples).
        "--playouts",
        "20000",
        "--sgf",
        path(&sgf),
        "-o",
        path(&svg),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    // Black moved last in the record: White is to move.
    assert!(stdout.contains("moves          W "), "{stdout}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn diff_of_two_real_profiles() {
    let d = scratch("diff");
    let (a, b, svg) = (d.join("a.folded"), d.join("b.folded"), d.join("d.svg"));
    for (f, size) in [(&a, "9"), (&b, "13")] {
        tengen(&[
            "profile",
            "--size",
            size,
            "--seconds",
            "1",
            "-o",
            path(&d.join("x.svg")),
            "--folded",
            path(f),
        ]);
    }
    tengen(&["profile", "--diff", path(&a), path(&b), "-o", path(&svg)]);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("<svg"));
    let shared = frames_between(&read_folded(&b));
    assert!(
        shared.iter().any(|f| text.contains(f.as_str())),
        "none of {shared:?} in the differential flamegraph"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn diff_refuses_a_file_that_is_not_folded() {
    let d = scratch("baddiff");
    let (a, b) = (d.join("a.folded"), d.join("b.folded"));
    std::fs::write(&a, "main;f 3\n").unwrap();
    std::fs::write(&b, "<svg>\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args([
            "profile",
            "--diff",
            path(&a),
            path(&b),
            "-o",
            path(&d.join("d.svg")),
        ])
        .output()
        .unwrap();
    // A clean error exits with 1 (an error) or 2 (a usage error), not a panic's 101 or a signal.
    assert!(matches!(out.status.code(), Some(1 | 2)));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not a folded file"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

/// A run that fails leaves the files it would have written as they were, and says what it
/// could not read (issue 39, item 5).
#[test]
fn a_failed_profile_keeps_existing_outputs() {
    let d = scratch("keep");
    let keep = d.join("keep.svg");
    std::fs::write(&keep, "an earlier flamegraph\n").unwrap();
    let present = d.join("present.folded");
    std::fs::write(&present, "main;f 3\n").unwrap();
    let missing = d.join("missing.folded");
    let missing_sgf = d.join("missing.sgf");
    let cases: [(Vec<&str>, &str); 3] = [
        (
            vec![
                "profile",
                "--diff",
                path(&missing),
                path(&present),
                "-o",
                path(&keep),
            ],
            "cannot read the folded file",
        ),
        (
            vec![
                "profile",
                "--seconds",
                "0.2",
                "-o",
                path(&keep),
                "--folded",
                "/nonexistent/dir/x.folded",
            ],
            "cannot create the folded stacks file",
        ),
        (
            vec![
                "profile",
                "search",
                "--sgf",
                path(&missing_sgf),
                "-o",
                path(&keep),
            ],
            "cannot read the game record",
        ),
    ];
    for (args, says) in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_tengen"))
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            matches!(out.status.code(), Some(1 | 2)),
            "{args:?}: no clean error"
        );
        assert!(err.contains(says), "{args:?}: {err}");
        assert_eq!(
            std::fs::read_to_string(&keep).unwrap(),
            "an earlier flamegraph\n",
            "{args:?} changed the existing output"
        );
        let names: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(
            names.iter().all(|n| !n.starts_with(".tengen-")),
            "{args:?} left a temporary file: {names:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// With `--json`, stdout holds one JSON object and nothing else (issue 39, item 8).
#[test]
fn a_json_profile_prints_only_json_on_stdout() {
    let d = scratch("json");
    let svg = d.join("j.svg");
    let out = tengen(&["profile", "--json", "--seconds", "0.5", "-o", path(&svg)]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<_> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{stdout}");
    assert!(
        lines[0].starts_with('{') && lines[0].ends_with('}'),
        "{stdout}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("where the time goes"));
    assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
    let _ = std::fs::remove_dir_all(&d);
}

/// The search workload stops at the end of the game: no genmove after two passes or a
/// resignation (issue 39, item 14).
#[test]
fn search_profile_stops_when_the_game_ends() {
    let d = scratch("ends");
    let svg = d.join("e.svg");
    let out = tengen(&[
        "profile",
        "search",
        // Enough search for the sampler to see: 3x3 at 300 playouts a move (with the early
        // stop) took 0.05 s in all, and a run on a fast host collected no sample, which
        // `profile` rightly refuses. 4x4 at 5,000 a move takes about half a second of CPU
        // (about 70 samples) and still ends in a dozen moves.
        "--size",
        "4",
        "--preset",
        "light",
        "--playouts",
        "5000",
        "--no-early-stop",
        "--genmoves",
        "1000",
        "-o",
        path(&svg),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let moves: Vec<&str> = stdout
        .lines()
        .find_map(|l| l.strip_prefix("moves"))
        .unwrap_or_else(|| panic!("no moves line: {stdout}"))
        .split(',')
        .map(str::trim)
        .collect();
    assert!(moves.len() < 1000, "{stdout}");
    let last = moves[moves.len() - 1].to_ascii_lowercase();
    let ended = last.ends_with("resign")
        || (last.ends_with("pass")
            && moves[moves.len() - 2]
                .to_ascii_lowercase()
                .ends_with("pass"));
    assert!(ended, "{moves:?}");
    assert!(stdout.contains("game over"), "{stdout}");
    let _ = std::fs::remove_dir_all(&d);
}
