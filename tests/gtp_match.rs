//! `tengen match`: two engines, alternating colours, records written, and an engine that plays
//! an illegal move forfeits.

use std::path::Path;
use std::process::Command;

fn tengen() -> &'static str {
    env!("CARGO_BIN_EXE_tengen")
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("tengen-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn two_tengens_play_a_short_match() {
    let dir = temp_dir("match");
    let engine = format!("{} gtp --playouts 200 --quiet", tengen());
    let out = Command::new(tengen())
        .args([
            "match",
            "--a",
            &engine,
            "--b",
            "tengen gtp --playouts 50 --quiet",
        ])
        .args(["--games", "2", "--size", "5", "--komi", "0.5", "--sgf-dir"])
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("games 2, 5x5, komi 0.5"), "{stdout}");
    assert!(stdout.contains("A win rate"), "{stdout}");
    assert!(stdout.contains("Elo A - B"), "{stdout}");
    // A's margins in the games counted on the board, from the records' results.
    let mut margins = Vec::new();
    for g in 0..2 {
        let sgf = std::fs::read_to_string(dir.join(format!("game-{g:04}.sgf"))).unwrap();
        assert!(sgf.contains("SZ[5]") && sgf.contains("RE["), "{sgf}");
        let rec = tengen::sgf::parse(&sgf).unwrap();
        assert!(!rec.moves.is_empty());
        let re = &sgf[sgf.find("RE[").unwrap() + 3..];
        let re = &re[..re.find(']').unwrap()];
        let black_lead = match re.split_once('+') {
            Some((_, "R" | "F")) => continue,
            Some(("B", x)) => x.parse::<f64>().unwrap(),
            Some(("W", x)) => -x.parse::<f64>().unwrap(),
            _ => 0.0,
        };
        // A is Black in the even-numbered games.
        margins.push(if g % 2 == 0 { black_lead } else { -black_lead });
    }
    if margins.is_empty() {
        assert!(
            stdout.contains("no game was counted on the board"),
            "{stdout}"
        );
    } else {
        let mean = margins.iter().sum::<f64>() / margins.len() as f64;
        let line = format!("A's mean score margin {mean:+.1} points, 95 % interval [",);
        assert!(stdout.contains(&line), "{line}\n{stdout}");
        let count = format!("over {} game(s) counted on the board", margins.len());
        assert!(stdout.contains(&count), "{count}\n{stdout}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A GTP "engine" named `name`, run by `sh`, that accepts everything and answers every
/// genmove with `reply`.
fn sh_engine(name: &str, reply: &str) -> String {
    format!(
        r#"sh -c 'while read c rest; do case "$c" in genmove) echo "= {reply}";; name) echo "= {name}";; quit) echo "="; echo; exit 0;; *) echo "=";; esac; echo; done'"#
    )
}

/// A 5x5 match of `tengen gtp --playouts 50` (A) against a liar (B) that always answers A1,
/// which is occupied (or illegal) by its second move at the latest; see [`sh_match`].
fn match_against_liar(args: &[&str], dir: &Path) -> Option<(String, String)> {
    sh_match(
        "tengen gtp --playouts 50 --quiet",
        &sh_engine("liar", "A1"),
        args,
        dir,
    )
}

/// Whether `/bin/sh`, which runs the [`sh_engine`]s, is missing: the test is then skipped with
/// a notice, or fails under CI's `TENGEN_REQUIRE_EXTERNAL=1` (as tests/harness's skips do).
fn no_sh() -> bool {
    if Path::new("/bin/sh").exists() {
        return false;
    }
    let required =
        std::env::var_os("TENGEN_REQUIRE_EXTERNAL").is_some_and(|v| !v.is_empty() && v != "0");
    assert!(
        !required,
        "no /bin/sh: skipped, which TENGEN_REQUIRE_EXTERNAL=1 forbids"
    );
    eprintln!("NOTICE: no /bin/sh, skipping");
    true
}

/// A 5x5 match of `a` against `b` with `args`, records in `dir`; checks that it succeeds and
/// returns its stdout and stderr (`None`, with a notice, without `/bin/sh` to run the
/// [`sh_engine`]s).
fn sh_match(a: &str, b: &str, args: &[&str], dir: &Path) -> Option<(String, String)> {
    if no_sh() {
        return None;
    }
    let out = Command::new(tengen())
        .args(["match", "--a", a, "--b", b])
        .args(["--size", "5", "--sgf-dir"])
        .arg(dir)
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stdout}\n{stderr}");
    Some((stdout, stderr))
}

#[test]
fn an_illegal_move_forfeits() {
    let dir = temp_dir("forfeit");
    let Some((stdout, _)) = match_against_liar(&["--games", "2"], &dir) else {
        return;
    };
    assert!(stdout.contains("forfeits: illegal move A1"), "{stdout}");
    assert!(stdout.contains("A scored 2"), "{stdout}");
    assert!(
        stdout.contains("A's mean score margin: no game was counted on the board"),
        "{stdout}"
    );
    let sgf = std::fs::read_to_string(dir.join("game-0000.sgf")).unwrap();
    assert!(sgf.contains("RE[B+F]"), "{sgf}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_streams_play_every_game_once() {
    let dir = temp_dir("parallel");
    let Some((stdout, stderr)) = match_against_liar(&["--games", "5", "--parallel", "2"], &dir)
    else {
        return;
    };
    assert!(stdout.contains("games 5, 5x5"), "{stdout}");
    assert!(
        stdout.contains("A scored 5 (3 as Black, 2 as White)"),
        "{stdout}"
    );
    // Every game is reported once, and the forfeits are listed in game order.
    let mut at = 0;
    for g in 0..5 {
        assert_eq!(
            stderr.matches(&format!("game {}/5:", g + 1)).count(),
            1,
            "{stderr}"
        );
        let line = format!("game {g}: engine B");
        let pos = stdout[at..].find(&line).expect(&line) + at;
        at = pos;
        let sgf = std::fs::read_to_string(dir.join(format!("game-{g:04}.sgf"))).unwrap();
        // A is Black in the even-numbered games.
        let a_black = g % 2 == 0;
        assert_eq!(sgf.contains("PB[liar]"), !a_black, "{sgf}");
        assert_eq!(sgf.contains("PW[liar]"), a_black, "{sgf}");
        assert!(
            sgf.contains(if a_black { "RE[B+F]" } else { "RE[W+F]" }),
            "{sgf}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn more_than_two_streams_are_refused() {
    let out = Command::new(tengen())
        .args([
            "match",
            "--b",
            "tengen",
            "--preset",
            "light",
            "--parallel",
            "3",
        ])
        .output()
        .unwrap();
    // A clean error exits with 1 (an error) or 2 (a usage error), not a panic's 101 or a signal.
    assert!(matches!(out.status.code(), Some(1 | 2)));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--parallel"), "{stderr}");
    assert!(
        stderr.contains("1..=2") || stderr.contains("not in"),
        "{stderr}"
    );
}

#[test]
fn repeated_games_are_reported() {
    let dir = temp_dir("repeats");
    // Two engines that always pass: every game between them is the same game.
    let passer = sh_engine("passer", "pass");
    let Some((stdout, _)) = sh_match(&passer, &passer, &["--games", "5"], &dir) else {
        return;
    };
    // Games 0, 2 and 4 (A as Black) are one game, and 1 and 3 (A as White) another.
    assert!(
        stdout.contains("warning: 3 game(s) repeat an earlier game"),
        "{stdout}"
    );
    for (later, earlier) in [(2, 0), (3, 1), (4, 0)] {
        let line = format!("game {later}: repeats game {earlier} move for move");
        assert!(stdout.contains(&line), "{line}\n{stdout}");
    }
    assert!(!stdout.contains("game 1: repeats"), "{stdout}");
    // Every game ends W+7.5 on the empty board: -7.5 for A in the three games as Black,
    // +7.5 in the two as White.
    assert!(
        stdout.contains("A's mean score margin -1.5 points, 95 % interval [-8.7, +5.7], over 5 game(s) counted on the board\n"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn different_games_are_not_reported_as_repeats() {
    let dir = temp_dir("distinct");
    let Some((stdout, _)) = match_against_liar(&["--games", "2"], &dir) else {
        return;
    };
    assert!(stdout.contains("game 1: engine B"), "{stdout}");
    assert!(!stdout.contains("repeats game"), "{stdout}");
    assert!(!stdout.contains("warning:"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A directory that holds records of an earlier match is refused, and its records kept,
/// unless `--overwrite` is given (issue 39, item 6).
#[test]
fn earlier_records_are_not_overwritten_unasked() {
    let dir = temp_dir("keep-records");
    std::fs::create_dir_all(&dir).unwrap();
    let old = dir.join("game-0000.sgf");
    std::fs::write(&old, "(;GM[1]SZ[5]C[an earlier match])").unwrap();
    let run = |extra: &[&str]| {
        Command::new(tengen())
            .args(["match", "--a", "tengen gtp --playouts 20 --quiet"])
            .args(["--b", "tengen gtp --playouts 20 --quiet"])
            .args(["--games", "1", "--size", "5", "--sgf-dir"])
            .arg(&dir)
            .args(extra)
            .output()
            .unwrap()
    };
    let out = run(&[]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(matches!(out.status.code(), Some(1 | 2)));
    assert!(
        err.contains("already holds game records (game-0000.sgf)") && err.contains("--overwrite"),
        "{err}"
    );
    assert!(std::fs::read_to_string(&old)
        .unwrap()
        .contains("an earlier match"));
    let out = run(&["--overwrite"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!std::fs::read_to_string(&old)
        .unwrap()
        .contains("an earlier match"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// An engine that never answers forfeits each game after `--timeout`, from its first command
/// on (`name`), and the match goes on to its end (issue 39, item 10).
#[test]
fn a_silent_engine_forfeits_within_the_timeout() {
    if no_sh() {
        return;
    }
    let dir = temp_dir("silent");
    let start = std::time::Instant::now();
    let out = Command::new(tengen())
        .args(["match", "--a", "tengen gtp --playouts 20 --quiet"])
        .args(["--b", "sh -c 'while read l; do :; done'"])
        .args(["--games", "2", "--size", "5", "--timeout", "1", "--sgf-dir"])
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("A scored 2"), "{stdout}");
    assert!(stdout.contains("no answer to `name`"), "{stdout}");
    assert!(
        start.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The summary gives each engine's thinking time; the engine that runs 200 times the playouts
/// thinks longer.
#[test]
fn the_summary_gives_each_engines_thinking_time() {
    let dir = temp_dir("match-think");
    let a = format!("{} gtp --playouts 4000 --no-early-stop --quiet", tengen());
    let b = format!("{} gtp --playouts 20 --no-early-stop --quiet", tengen());
    let out = Command::new(tengen())
        .args(["match", "--a", &a, "--b", &b])
        .args([
            "--games",
            "2",
            "--size",
            "5",
            "--max-moves",
            "12",
            "--sgf-dir",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let line = stdout
        .lines()
        .find(|l| l.starts_with("thinking time"))
        .unwrap_or_else(|| panic!("no thinking time in {stdout}"));
    let secs = |who: &str| -> f64 {
        let rest = &line[line.find(who).unwrap() + who.len()..];
        rest.split_whitespace().next().unwrap().parse().unwrap()
    };
    let (ta, tb) = (secs(": A "), secs(", B "));
    assert!(ta > 0.0 && tb >= 0.0 && ta > tb, "{line}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The files of `dir` and their contents, in name order.
fn contents(dir: &Path) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().into_string().unwrap();
            (name, std::fs::read_to_string(e.path()).unwrap())
        })
        .collect();
    v.sort();
    v
}

/// `--continue` counts the recorded games, results read from their `RE[]`, and plays only the
/// games without a record, each with its number's colours (issue 39, item 6).
#[test]
fn a_match_continues_from_its_records() {
    let dir = temp_dir("continue");
    let Some(_) = match_against_liar(&["--games", "2"], &dir) else {
        return;
    };
    let before = contents(&dir);
    let Some((stdout, stderr)) = match_against_liar(&["--games", "5", "--continue"], &dir) else {
        return;
    };
    assert!(stderr.contains("2 games recorded in"), "{stderr}");
    assert!(stderr.contains(", 3 to play"), "{stderr}");
    for g in 1..=5 {
        let n = stderr.matches(&format!("game {g}/5:")).count();
        assert_eq!(n, usize::from(g > 2), "game {g}\n{stderr}");
    }
    assert!(stdout.contains("games 5, 5x5"), "{stdout}");
    assert!(
        stdout.contains("A scored 5 (3 as Black, 2 as White)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("2 of them recorded before this run"),
        "{stdout}"
    );
    // The old records are untouched; the new ones follow them with alternating colours.
    let after = contents(&dir);
    assert_eq!(after[..2], before[..]);
    assert_eq!(after.len(), 5);
    for (g, (name, sgf)) in after.iter().enumerate() {
        assert_eq!(name, &format!("game-{g:04}.sgf"));
        assert_eq!(sgf.contains("PB[liar]"), g % 2 == 1, "{sgf}");
    }
    // A result is read from the record: game 1 (A White) now says Black won on the board, and
    // game 3's record is gone, so only game 3 is played again.
    let g1 = dir.join("game-0001.sgf");
    let edited = after[1].1.replace("RE[W+F]", "RE[B+3.5]");
    assert_ne!(edited, after[1].1);
    std::fs::write(&g1, edited).unwrap();
    std::fs::remove_file(dir.join("game-0003.sgf")).unwrap();
    let Some((stdout, stderr)) = match_against_liar(&["--games", "5", "--continue"], &dir) else {
        return;
    };
    assert!(stderr.contains("4 games recorded in"), "{stderr}");
    assert!(stderr.contains("game 4/5:"), "{stderr}");
    assert_eq!(stderr.matches("/5:").count(), 1, "{stderr}");
    assert!(
        stdout.contains("A scored 4 (3 as Black, 1 as White)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("A's mean score margin -3.5 points"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--continue` with `--overwrite`, with an unreadable record, or with records past `--games`
/// is refused with a clear error, and no file is touched.
#[test]
fn a_match_that_cannot_continue_touches_nothing() {
    let dir = temp_dir("continue-bad");
    let Some(_) = match_against_liar(&["--games", "2"], &dir) else {
        return;
    };
    let run = |args: &[&str]| {
        Command::new(tengen())
            .args(["match", "--a", "tengen gtp --playouts 20 --quiet"])
            .args(["--b", "tengen gtp --playouts 20 --quiet"])
            .arg("--sgf-dir")
            .arg(&dir)
            .args(args)
            .output()
            .unwrap()
    };
    let refused = |args: &[&str], says: &[&str]| {
        let before = contents(&dir);
        let out = run(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(matches!(out.status.code(), Some(1 | 2)), "{args:?}: {err}");
        for s in says {
            assert!(err.contains(s), "{args:?}: {s:?} missing in {err}");
        }
        assert_eq!(contents(&dir), before, "{args:?}");
    };
    refused(
        &["--size", "5", "--games", "4", "--continue", "--overwrite"],
        &["--continue", "--overwrite"],
    );
    refused(
        &["--size", "5", "--games", "1", "--continue"],
        &["holds game 1", "past --games 1", "--games 2"],
    );
    refused(
        &["--games", "4", "--size", "7", "--continue"],
        &["game-0000.sgf is a 5x5 game, this match is 7x7"],
    );
    refused(
        &["--size", "5", "--games", "4", "--komi", "0.5", "--continue"],
        &["has komi 7.5"],
    );
    std::fs::write(dir.join("game-0002.sgf"), "not a game record").unwrap();
    refused(
        &["--size", "5", "--games", "4", "--continue"],
        &["cannot read", "game-0002.sgf"],
    );
    std::fs::write(dir.join("game-0002.sgf"), "(;GM[1]SZ[5]KM[7.5]RE[B+T])").unwrap();
    refused(
        &["--size", "5", "--games", "4", "--continue"],
        &["game-0002.sgf: result RE[B+T]"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}
