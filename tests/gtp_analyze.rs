//! Live analysis and interrupts over a real pipe: `lz-analyze` and `kata-analyze` stream `info`
//! lines until the next input line, `*-genmove_analyze` ends with `play`, and GoGui's
//! `# interrupt` line cuts a long `genmove` short.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
            .arg("gtp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("tengen starts");
        let stdin = child.stdin.take().unwrap();
        let out = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for l in out.lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn line(&self, wait: Duration) -> String {
        self.lines
            .recv_timeout(wait)
            .unwrap_or_else(|e| panic!("no output within {wait:?}: {e}"))
    }

    /// Lines up to the blank line ending a response.
    fn response(&self, wait: Duration) -> Vec<String> {
        let mut v = Vec::new();
        loop {
            let l = self.line(wait);
            if l.is_empty() {
                return v;
            }
            v.push(l);
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

const WAIT: Duration = Duration::from_secs(60);

/// Playouts per move: debug builds check the board after every move and run far slower.
fn playouts(release: u32) -> String {
    if cfg!(debug_assertions) {
        (release / 20).to_string()
    } else {
        release.to_string()
    }
}

#[test]
fn lz_analyze_streams_until_the_next_line() {
    let mut s = Session::start(&["--quiet"]);
    s.send("boardsize 9");
    assert_eq!(s.response(WAIT), ["= "]);
    s.send("1 lz-analyze 5");
    assert_eq!(s.line(WAIT), "=1");
    let mut infos = 0;
    while infos < 3 {
        let l = s.line(WAIT);
        assert!(l.starts_with("info move "), "{l:?}");
        for key in [
            " visits ",
            " winrate ",
            " prior ",
            " lcb ",
            " order ",
            " pv ",
        ] {
            assert!(l.contains(key), "{key} missing in {l:?}");
        }
        infos += 1;
    }
    s.send("2 name");
    // The analysis ends with a blank line (after any line already on its way), then `name`.
    loop {
        let l = s.line(WAIT);
        if l.is_empty() {
            break;
        }
        assert!(l.starts_with("info move "), "{l:?}");
    }
    assert_eq!(s.response(WAIT), ["=2 tengen"]);
}

#[test]
fn kata_analyze_reports_ownership() {
    let mut s = Session::start(&["--quiet"]);
    s.send("boardsize 9");
    s.response(WAIT);
    s.send("play b E5");
    s.response(WAIT);
    s.send("3 kata-analyze w 5 ownership true");
    assert_eq!(s.line(WAIT), "=3");
    let l = s.line(WAIT);
    assert!(l.starts_with("info move "), "{l:?}");
    for key in [
        " winrate 0.",
        " scoreLead ",
        " scoreMean ",
        " prior ",
        " pv ",
    ] {
        assert!(l.contains(key), "{key} missing in {l:?}");
    }
    let own = l.split(" ownership ").nth(1).expect("ownership");
    let values: Vec<f32> = own.split(' ').map(|v| v.parse().unwrap()).collect();
    assert_eq!(values.len(), 81);
    assert!(values.iter().all(|v| (-1.0..=1.0).contains(v)));
    // From White's side, Black's stone on E5 (row 5 from the top, column E) is the opponent's.
    assert!(values[4 * 9 + 4] < 0.0, "E5 ownership {}", values[40]);
    s.send("4 protocol_version");
    loop {
        if s.line(WAIT).is_empty() {
            break;
        }
    }
    assert_eq!(s.response(WAIT), ["=4 2"]);
}

#[test]
fn genmove_analyze_ends_with_the_move() {
    let mut s = Session::start(&["--quiet", "--playouts", &playouts(3000)]);
    s.send("boardsize 9");
    s.response(WAIT);
    s.send("5 lz-genmove_analyze b 1");
    let r = s.response(WAIT);
    assert_eq!(r[0], "=5");
    let last = r.last().unwrap();
    assert!(last.starts_with("play "), "{r:?}");
    assert!(r[1..r.len() - 1]
        .iter()
        .all(|l| l.starts_with("info move ")));
    // The move was played: Black's stone is on the board.
    s.send("showboard");
    let board = s.response(WAIT).join("\n");
    assert!(board.contains('X'), "{board}");
}

#[test]
fn gogui_interrupt_cuts_a_long_genmove_short() {
    let mut s = Session::start(&["--quiet", "--seconds", "60", "--no-early-stop"]);
    s.send("6 gogui-interrupt");
    assert_eq!(s.response(WAIT), ["=6 "]);
    s.send("boardsize 9");
    s.response(WAIT);
    s.send("7 genmove b");
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    s.send("# interrupt");
    let r = s.response(WAIT);
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "answered after {:?}",
        start.elapsed()
    );
    assert!(r.len() == 1 && r[0].starts_with("=7 "), "{r:?}");
}

#[test]
fn commands_sent_during_a_search_wait_their_turn() {
    let mut s = Session::start(&["--quiet", "--playouts", &playouts(20_000)]);
    s.send("boardsize 9");
    s.response(WAIT);
    s.send("8 genmove b");
    s.send("9 name");
    let first = s.response(WAIT);
    assert!(first[0].starts_with("=8 "), "{first:?}");
    assert_eq!(s.response(WAIT), ["=9 tengen"]);
}

/// The moves named by the `info` entries of an analysis line.
fn info_moves(line: &str) -> Vec<&str> {
    line.split("info move ")
        .skip(1)
        .filter_map(|s| s.split(' ').next())
        .collect()
}

#[test]
fn analysis_avoids_moves_and_forgets_the_rule_afterwards() {
    let avoided = ["E5", "D5", "F5", "E4", "E6", "D4", "F4", "D6", "F6"];
    let mut s = Session::start(&["--quiet", "--playouts", &playouts(3000)]);
    s.send("boardsize 9");
    s.response(WAIT);
    s.send("1 lz-analyze b 5 avoid b e5,d5,f5,e4,e6,d4,f4,d6,f6 1");
    assert_eq!(s.line(WAIT), "=1");
    for _ in 0..5 {
        let l = s.line(WAIT);
        assert!(l.starts_with("info move "), "{l:?}");
        // Only moves with a playout of their own are listed (issue 66).
        let moves = info_moves(&l);
        assert!(moves.len() >= 5, "{l:?}");
        assert!(moves.iter().all(|m| !avoided.contains(m)), "{l:?}");
    }
    // The rule was for that analysis only: the next search visits the centre again.
    s.send("2 tengen-visits b");
    loop {
        let l = s.line(WAIT);
        if l.is_empty() {
            break;
        }
        assert!(info_moves(&l).iter().all(|m| !avoided.contains(m)), "{l:?}");
    }
    let rows = s.response(WAIT);
    assert_eq!(rows.len(), 9, "{rows:?}");
    // E5: row 5 from the top, column E.
    let e5 = rows[4].split(' ').nth(4).unwrap();
    assert!(e5.parse::<u32>().is_ok_and(|n| n > 0), "{rows:?}");
}

#[test]
fn malformed_analysis_arguments_start_no_stream() {
    let mut s = Session::start(&["--quiet"]);
    s.send("boardsize 9");
    s.response(WAIT);
    for (id, cmd) in [
        (4, "kata-analyze foo"),
        (5, "lz-analyze x"),
        (6, "lz-analyze -5"),
        (7, "kata-analyze 50 ownership maybe"),
    ] {
        s.send(&format!("{id} {cmd}"));
        let first = s.line(WAIT);
        assert!(
            first.starts_with(&format!("?{id} syntax error: ")),
            "{cmd}: {first:?}"
        );
        assert_eq!(s.line(WAIT), "", "{cmd}");
    }
}
