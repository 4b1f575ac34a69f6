//! GTP live analysis as two GUIs drive it (issue 62), through scripted clients that send their
//! commands and read the answers with their parsing rules:
//!
//! * Sabaki: `lz-analyze COLOR INTERVAL` (or `kata-analyze`), each `info` line split on
//!   `info`, the `pv` last in each entry and key-value pairs before it; a win rate with a
//!   decimal point is read as a fraction, without one as ten-thousandths. Any next command
//!   ends the analysis.
//! * Lizzie: `lz-analyze INTERVAL`, stopped with `name`; each entry's `visits`, `winrate`,
//!   `prior`, `lcb` and `order` read as integers (win rates in ten-thousandths), then the `pv`.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

struct Gtp {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

const WAIT: Duration = Duration::from_secs(60);

impl Gtp {
    fn start() -> Gtp {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
            .args(["gtp", "--quiet", "--playouts", "100000"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("tengen starts");
        let stdin = child.stdin.take().unwrap();
        let out = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for l in out.lines().map_while(Result::ok) {
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Gtp {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn line(&self) -> String {
        self.lines.recv_timeout(WAIT).expect("an answer line")
    }

    /// Sends `command` and returns its one-line answer (`=` included).
    fn ask(&mut self, command: &str) -> String {
        self.send(command);
        let a = self.line();
        assert_eq!(self.line(), "", "{command}: {a}");
        assert!(a.starts_with('='), "{command}: {a}");
        a
    }

    /// Starts `command`, reads `n` info lines, then ends the analysis with `stop` (the next
    /// command, answered after the blank line that ends the analysis).
    fn analyse(&mut self, command: &str, n: usize, stop: &str) -> Vec<String> {
        self.send(command);
        assert_eq!(self.line(), "=");
        let mut infos = Vec::new();
        while infos.len() < n {
            let l = self.line();
            assert!(l.starts_with("info "), "{l:?}");
            infos.push(l);
        }
        self.send(stop);
        loop {
            let l = self.line();
            if l.is_empty() {
                break;
            }
            assert!(l.starts_with("info "), "{l:?}");
        }
        let a = self.line();
        assert!(a.starts_with('='), "{stop}: {a}");
        assert_eq!(self.line(), "");
        infos
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

/// One entry of an info line as Sabaki reads it: the key-value pairs before `pv`, and the pv.
struct Variation {
    fields: HashMap<String, String>,
    pv: Vec<String>,
}

fn is_vertex(s: &str, size: usize) -> bool {
    let b = s.as_bytes();
    let col = b.first().copied().unwrap_or(0);
    let x = match col {
        b'A'..=b'H' => usize::from(col - b'A'),
        b'J'..=b'T' => usize::from(col - b'A') - 1,
        _ => return false,
    };
    let y: usize = s[1..].parse().unwrap_or(0);
    x < size && (1..=size).contains(&y)
}

/// Sabaki's reading of an info line: split on `info`; in each entry the pv is the run of
/// vertices (or passes) at its end, the word before it `pv`, the tokens before that
/// key-value pairs.
fn sabaki_parse(line: &str) -> Vec<Variation> {
    line.split("info ")
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .map(|e| {
            let tokens: Vec<&str> = e.split_whitespace().collect();
            let at = tokens
                .iter()
                .position(|&t| t == "pv")
                .unwrap_or_else(|| panic!("no pv in {e:?}"));
            let pv: Vec<String> = tokens[at + 1..].iter().map(|s| s.to_string()).collect();
            assert!(
                pv.iter().all(|m| m == "pass" || is_vertex(m, 19)),
                "the pv must end the entry: {e:?}"
            );
            let before = &tokens[..at];
            assert_eq!(before.len() % 2, 0, "key-value pairs before pv: {e:?}");
            let fields = before
                .chunks(2)
                .map(|kv| (kv[0].to_string(), kv[1].to_string()))
                .collect();
            Variation { fields, pv }
        })
        .collect()
}

/// Sabaki's win rate in percent: a number with a decimal point is a fraction, one without
/// ten-thousandths.
fn sabaki_winrate(v: &str) -> f64 {
    let x: f64 = v.parse().unwrap();
    if v.contains('.') {
        x * 100.0
    } else {
        x / 100.0
    }
}

fn setup(gtp: &mut Gtp) {
    gtp.ask("boardsize 19");
    gtp.ask("clear_board");
    gtp.ask("komi 7.5");
    gtp.ask("play B Q16");
    gtp.ask("play W D4");
}

#[test]
fn sabaki_reads_lz_and_kata_analyze() {
    let mut gtp = Gtp::start();
    setup(&mut gtp);
    for command in ["lz-analyze B 20", "kata-analyze B 20"] {
        let infos = gtp.analyse(command, 3, "name");
        for line in &infos {
            let vars = sabaki_parse(line);
            assert!(!vars.is_empty(), "{line}");
            for v in &vars {
                let mv = &v.fields["move"];
                assert!(is_vertex(mv, 19) || mv == "pass", "{mv}");
                assert!(v.fields["visits"].parse::<u64>().is_ok(), "{line}");
                let w = sabaki_winrate(&v.fields["winrate"]);
                assert!((0.0..=100.0).contains(&w), "{w} in {line}");
                assert_eq!(&v.pv[0], mv, "{line}");
                if command.starts_with("kata") {
                    assert!(v.fields["scoreLead"].parse::<f64>().is_ok(), "{line}");
                }
            }
            // Black's win rate, in both commands' forms, is the same scale.
            let w = sabaki_winrate(&vars[0].fields["winrate"]);
            assert!(w > 1.0, "{w} in {line}");
        }
    }
    // The session goes on: the position is unchanged.
    assert_eq!(gtp.ask("name"), "= tengen");
}

#[test]
fn lizzie_reads_lz_analyze() {
    let mut gtp = Gtp::start();
    setup(&mut gtp);
    // Lizzie's default interval (10 centiseconds), stopped with `name` as it does.
    let infos = gtp.analyse("lz-analyze 10", 5, "name");
    for line in &infos {
        let mut total = 0;
        // Priors are the move model's probabilities (in ten-thousandths), not one share each.
        let priors: Vec<i64> = sabaki_parse(line)
            .iter()
            .map(|v| v.fields["prior"].parse().unwrap())
            .collect();
        assert!(
            priors.iter().sum::<i64>() <= 10000 + priors.len() as i64,
            "{line}"
        );
        if priors.len() > 2 {
            assert!(priors.iter().any(|&p| p != priors[0]), "{line}");
        }
        for (k, v) in sabaki_parse(line).iter().enumerate() {
            for key in ["visits", "winrate", "prior", "lcb", "order"] {
                let value = v
                    .fields
                    .get(key)
                    .unwrap_or_else(|| panic!("{key} missing in {line}"));
                assert!(
                    value.parse::<i64>().is_ok(),
                    "Lizzie reads {key} as an integer: {value} in {line}"
                );
            }
            let w: i64 = v.fields["winrate"].parse().unwrap();
            assert!((0..=10000).contains(&w), "{line}");
            assert_eq!(v.fields["order"].parse::<usize>().unwrap(), k);
            total += v.fields["visits"].parse::<u64>().unwrap();
        }
        assert!(total > 0, "{line}");
    }
}
