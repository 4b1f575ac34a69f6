//! A whole 9x9 game between `tengen gtp` and GNU Go, each process checking the other's moves:
//! every move must be legal for both, the game must end with two passes, no stone tengen plays
//! after GNU Go's first pass may be dead (or captured) at the end, and tengen's `final_score`
//! must agree with GNU Go's under Chinese rules. Reported as skipped in the test summary
//! (tests/harness) when GNU Go is not installed.

mod harness;

use harness::Outcome;
use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};

const GNUGO: &str = "/usr/games/gnugo";

fn main() -> ExitCode {
    harness::run(&[
        ("full_game_against_gnugo", full_game_against_gnugo),
        ("gnugo_is_found_in_usr_games", gnugo_is_found_in_usr_games),
        (
            "records_load_as_gnugo_loads_them",
            records_load_as_gnugo_loads_them,
        ),
    ])
}

/// The stones of a `showboard` answer, row by row from the top (`X`, `O`, `.`; GNU Go's `+`
/// star points are empty points).
fn stones(board: &str, size: usize) -> Vec<String> {
    board
        .lines()
        .filter_map(|l| {
            let mut t = l.split_whitespace();
            t.next()?.parse::<usize>().ok()?;
            let row: String = t
                .take(size)
                .map(|c| match c {
                    "X" | "O" => c,
                    _ => ".",
                })
                .collect();
            (row.len() == size).then_some(row)
        })
        .collect()
}

/// A record with a positional repetition (a ko retaken after two passes: the setup position
/// again) and one with setup stones in later nodes (issue 66, item 7) load at every move
/// number, with the position and the player to move GNU Go's `loadsgf` gives there. (GNU Go
/// 3.8 ignores `AE` in later nodes, so the record adds stones only; `src/sgf` tests `AE`.)
fn records_load_as_gnugo_loads_them() -> Outcome {
    if let Some(why) = gnugo_missing() {
        return Outcome::Skipped(why);
    }
    let mut tengen = Engine::start(
        "tengen",
        env!("CARGO_BIN_EXE_tengen"),
        &["gtp", "--playouts", "10", "--threads", "1"],
    );
    let mut gnugo = Engine::start("gnugo", GNUGO, &["--mode", "gtp", "--chinese-rules"]);
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gtp");
    for (file, moves) in [("repetition.sgf", 9), ("late_setup.sgf", 6)] {
        let path = format!("{dir}/{file}");
        for n in 1..=moves + 1 {
            let cmd = format!("loadsgf {path} {n}");
            let ours = tengen.ok(&cmd);
            let theirs = gnugo.ok(&cmd);
            assert_eq!(ours, theirs, "{cmd}: the player to move");
            let (a, b) = (tengen.ok("showboard"), gnugo.ok("showboard"));
            assert_eq!(stones(&a, 9), stones(&b, 9), "{cmd}:\n{a}\n{b}");
            assert_eq!(stones(&a, 9).len(), 9, "{a}");
        }
        // The whole record.
        let cmd = format!("loadsgf {path}");
        assert_eq!(tengen.ok(&cmd), gnugo.ok(&cmd), "{cmd}");
        let (a, b) = (tengen.ok("showboard"), gnugo.ok("showboard"));
        assert_eq!(stones(&a, 9), stones(&b, 9), "{cmd}:\n{a}\n{b}");
    }
    Outcome::Passed
}

fn gnugo_missing() -> Option<String> {
    (!Path::new(GNUGO).exists()).then(|| format!("{GNUGO} not found (apt-get install gnugo)"))
}

/// `tengen match --b "gnugo --mode gtp"` works on Debian, where `/usr/games` is often missing
/// from the `PATH` (issue 24, item 5).
fn gnugo_is_found_in_usr_games() -> Outcome {
    if let Some(why) = gnugo_missing() {
        return Outcome::Skipped(why);
    }
    let find = tengen::gtp::client::find_program;
    assert_eq!(
        find("gnugo", Some(OsStr::new("/nonexistent"))),
        Path::new(GNUGO)
    );
    assert_eq!(find("gnugo", None), Path::new(GNUGO));
    assert_eq!(find("./gnugo", None), Path::new("./gnugo"));
    assert_eq!(
        find("no-such-program-x", None),
        Path::new("no-such-program-x")
    );
    Outcome::Passed
}

/// A GTP engine in a child process.
struct Engine {
    name: &'static str,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn start(name: &'static str, program: &str, args: &[&str]) -> Engine {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Engine {
            name,
            child,
            stdin,
            stdout,
        }
    }

    /// Sends a command; `Ok(text)` for `=`, `Err(message)` for `?`.
    fn send(&mut self, cmd: &str) -> Result<String, String> {
        writeln!(self.stdin, "{cmd}").unwrap();
        self.stdin.flush().unwrap();
        let mut lines = Vec::new();
        loop {
            let mut l = String::new();
            let n = self.stdout.read_line(&mut l).unwrap();
            assert!(n > 0, "{} closed its output after {cmd:?}", self.name);
            let l = l.trim_end_matches(['\r', '\n']).to_string();
            if l.is_empty() {
                if lines.is_empty() {
                    continue;
                }
                break;
            }
            lines.push(l);
        }
        let first = &lines[0];
        let text = first[1..].trim_start().to_string();
        let rest = lines[1..].join("\n");
        let body = if rest.is_empty() {
            text
        } else if text.is_empty() {
            rest
        } else {
            format!("{text}\n{rest}")
        };
        match first.chars().next() {
            Some('=') => Ok(body),
            Some('?') => Err(body),
            _ => panic!("{} sent {first:?}", self.name),
        }
    }

    fn ok(&mut self, cmd: &str) -> String {
        self.send(cmd)
            .unwrap_or_else(|e| panic!("{} refused {cmd:?}: {e}", self.name))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

/// The vertices of a GTP vertex list, lower case.
fn vertices(list: &str) -> Vec<String> {
    list.split_whitespace().map(str::to_lowercase).collect()
}

/// `B+3.5` / `W+0.5` / `0` as Black's lead.
fn lead(score: &str) -> f32 {
    let s = score.trim();
    if s == "0" {
        return 0.0;
    }
    let (who, n) = s.split_at(2);
    let n: f32 = n.parse().unwrap_or_else(|_| panic!("bad score {s:?}"));
    match who {
        "B+" => n,
        "W+" => -n,
        _ => panic!("bad score {s:?}"),
    }
}

fn full_game_against_gnugo() -> Outcome {
    if let Some(why) = gnugo_missing() {
        return Outcome::Skipped(why);
    }
    let playouts = if cfg!(debug_assertions) {
        "300"
    } else {
        "3000"
    };
    // TENGEN_GNUGO_SEED replays the game with another seed (for exploring by hand).
    let seed = std::env::var("TENGEN_GNUGO_SEED").unwrap_or_else(|_| "7".into());
    let mut tengen = Engine::start(
        "tengen",
        env!("CARGO_BIN_EXE_tengen"),
        &[
            "gtp",
            "--playouts",
            playouts,
            "--resign",
            "0",
            "--quiet",
            "--seed",
            &seed,
        ],
    );
    let mut gnugo = Engine::start(
        "gnugo",
        GNUGO,
        // A fixed seed: GNU Go's choices among equal moves are random otherwise, so a failing
        // game could not be replayed.
        &[
            "--mode",
            "gtp",
            "--chinese-rules",
            "--level",
            "1",
            "--seed",
            "1",
        ],
    );
    for e in [&mut tengen, &mut gnugo] {
        e.ok("boardsize 9");
        e.ok("clear_board");
        e.ok("komi 7.5");
    }
    let mut passes = 0;
    let mut record = Vec::new();
    for ply in 0..250 {
        let black = ply % 2 == 0;
        let color = if black { "black" } else { "white" };
        let (mover, other) = if black {
            (&mut tengen, &mut gnugo)
        } else {
            (&mut gnugo, &mut tengen)
        };
        let mv = mover.ok(&format!("genmove {color}")).to_lowercase();
        record.push(mv.clone());
        if mv == "resign" {
            panic!("{} resigned after {record:?}", mover.name);
        }
        if let Err(e) = other.send(&format!("play {color} {mv}")) {
            panic!(
                "{} refused {}'s move {color} {mv} ({e}) after {record:?}",
                other.name, mover.name
            );
        }
        passes = if mv == "pass" { passes + 1 } else { 0 };
        if passes == 2 {
            break;
        }
    }
    assert_eq!(passes, 2, "the game did not end in 250 plies: {record:?}");
    let ours = tengen.ok("final_score");
    let theirs = gnugo.ok("final_score");
    let board = gnugo.ok("showboard");
    // Once GNU Go (White) has passed, the game is settled for it: every further stone of
    // tengen's (Black) must still stand, alive, at the end. A stone played into a settled area
    // only to die there is the engine failing to pass.
    let first_pass = record.iter().position(|m| m == "pass");
    let late: Vec<&String> = first_pass.map_or(Vec::new(), |i| {
        record[i..]
            .iter()
            .enumerate()
            .filter(|&(k, m)| (i + k) % 2 == 0 && m != "pass")
            .map(|(_, m)| m)
            .collect()
    });
    let black = vertices(&gnugo.ok("list_stones black"));
    let dead = vertices(&gnugo.ok("final_status_list dead"));
    let wasted: Vec<&&String> = late
        .iter()
        .filter(|m| !black.contains(**m) || dead.contains(**m))
        .collect();
    assert!(
        wasted.is_empty(),
        "tengen played {wasted:?} after GNU Go passed, dead or captured at the end\n{board}\nmoves: {record:?}"
    );
    assert_eq!(
        lead(&ours),
        lead(&theirs),
        "tengen says {ours}, GNU Go says {theirs}\n{board}\nmoves: {record:?}"
    );
    Outcome::Passed
}
