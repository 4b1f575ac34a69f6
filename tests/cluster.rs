//! The cluster mode under `mpirun -np 2` (built only with `--features cluster`; needs Open MPI's
//! `mpirun`): a short GTP game through the cluster with the other rank's visits merged into rank
//! 0's root, and a rank that stops answering reported on rank 0 within a bounded time.

#![cfg(feature = "cluster")]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// `mpirun -np 2 tengen gtp --cluster ARGS`, as root too (CI runs as root).
fn start(args: &[&str]) -> Child {
    Command::new("mpirun")
        .args(["-np", "2", "--oversubscribe", "--bind-to", "none"])
        .arg(env!("CARGO_BIN_EXE_tengen"))
        .args(["gtp", "--cluster", "--size", "9", "--threads", "1"])
        .args(args)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mpirun (Open MPI) must be installed to test the cluster feature")
}

/// A GTP session with a cluster: responses arrive on a channel, so a test can wait for one
/// with a deadline.
struct Session {
    child: Child,
    stdin: ChildStdin,
    responses: Receiver<String>,
}

impl Session {
    fn new(args: &[&str]) -> Session {
        let mut child = start(args);
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, responses) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut resp = String::new();
            let mut line = String::new();
            while r.read_line(&mut line).unwrap_or(0) > 0 {
                if line.trim().is_empty() {
                    if !resp.is_empty() && tx.send(std::mem::take(&mut resp)).is_err() {
                        return;
                    }
                } else {
                    resp.push_str(&line);
                }
                line.clear();
            }
        });
        Session {
            child,
            stdin,
            responses,
        }
    }

    /// Sends `cmd` and waits up to `within` for its response.
    fn ask(&mut self, cmd: &str, within: Duration) -> String {
        writeln!(self.stdin, "{cmd}").unwrap();
        self.stdin.flush().unwrap();
        match self.responses.recv_timeout(within) {
            Ok(r) => r.trim_end().to_string(),
            Err(e) => {
                // Killed first, so the ranks' stderr ends and can be read whole: a failure
                // under load then shows what the ranks said, not only that they were slow.
                let _ = self.child.kill();
                let mut err = String::new();
                if let Some(mut s) = self.child.stderr.take() {
                    let _ = s.read_to_string(&mut err);
                }
                panic!("no response to {cmd} within {within:?}: {e}; the ranks' stderr:\n{err}");
            }
        }
    }

    /// Ends the session (quit, then the end of the input), waiting up to 30 s for mpirun to
    /// exit; returns what the ranks wrote on stderr.
    fn end(mut self) -> String {
        let _ = writeln!(self.stdin, "quit");
        drop(self.stdin);
        let start = Instant::now();
        while self.child.try_wait().unwrap().is_none() {
            if start.elapsed() > Duration::from_secs(30) {
                let _ = self.child.kill();
                panic!("mpirun did not exit within 30 s of quit");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let mut err = String::new();
        self.child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        err
    }
}

fn is_move(r: &str) -> bool {
    let m = r.trim_start_matches("= ");
    r.starts_with("= ") && (m == "pass" || m == "resign" || m.len() >= 2)
}

/// A few moves through the cluster: each generated move is a move, merges happen, and rank 0's
/// first root holds about as many visits again as its own playouts (the other rank's).
#[test]
fn a_gtp_game_through_the_cluster() {
    let mut s = Session::new(&[
        "--playouts",
        "3000",
        "--no-early-stop",
        "--merge-interval",
        "20",
    ]);
    let long = Duration::from_secs(120);
    assert_eq!(s.ask("boardsize 9", long), "=");
    assert_eq!(s.ask("komi 7", long), "=");
    let first = s.ask("genmove b", long);
    assert!(is_move(&first), "{first}");
    // White answers on a point Black did not take (the first move is often the centre).
    let reply = if first == "= E5" {
        "play w D4"
    } else {
        "play w E5"
    };
    assert_eq!(s.ask(reply, long), "=");
    for c in ["b", "w", "b"] {
        let r = s.ask(&format!("genmove {c}"), long);
        assert!(is_move(&r), "{r}");
    }
    let err = s.end();
    let rounds: Vec<u64> = err
        .lines()
        .filter_map(|l| l.strip_prefix("cluster: 2 ranks, "))
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(rounds.len(), 4, "{err}");
    assert!(rounds.iter().all(|&r| r >= 2), "{err}");
    // The first search had no tree to reuse: every visit beyond rank 0's 3000 playouts came
    // from rank 1.
    let first_summary = err.lines().find(|l| l.starts_with("B ")).unwrap();
    let merged: u64 = first_summary
        .split(", ")
        .find_map(|p| p.strip_suffix(" visits reused"))
        .unwrap_or_else(|| panic!("no merged visits: {first_summary}"))
        .parse()
        .unwrap();
    assert!(merged >= 1000, "{first_summary}");
}

/// The pids of `mpirun`'s children that run rank `rank`.
fn rank_pids(mpirun: u32, rank: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // The parent pid is the second field after the parenthesised command name.
        let after = stat.rsplit(')').next().unwrap_or("");
        let ppid: u32 = after
            .split_whitespace()
            .nth(1)
            .and_then(|p| p.parse().ok())
            .unwrap_or(0);
        if ppid != mpirun {
            continue;
        }
        let env = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
        let want = format!("OMPI_COMM_WORLD_RANK={rank}");
        if env.split(|&b| b == 0).any(|v| v == want.as_bytes()) {
            out.push(pid);
        }
    }
    out
}

/// Plays a first move through the cluster, then sends `signal` to rank 1's process.
fn signal_rank_1_after_a_move(s: &mut Session, signal: i32) {
    let long = Duration::from_secs(120);
    assert_eq!(s.ask("boardsize 9", long), "=");
    assert!(is_move(&s.ask("genmove b", long)));
    let pids = rank_pids(s.child.id(), 1);
    assert_eq!(pids.len(), 1, "rank 1's process");
    // SAFETY: kill(2) with a pid and a signal number; no memory is involved.
    assert_eq!(unsafe { libc::kill(pids[0] as i32, signal) }, 0);
}

/// A rank that stops (SIGSTOP: alive, answering nothing) fails the next genmove on rank 0 with
/// an error naming it, within the timeout and a margin; the session answers other commands
/// after, and quitting ends the whole job.
#[test]
fn a_rank_that_hangs_is_reported_on_rank_0() {
    let mut s = Session::new(&[
        "--playouts",
        "2000",
        "--merge-interval",
        "20",
        "--cluster-timeout",
        "2",
    ]);
    signal_rank_1_after_a_move(&mut s, libc::SIGSTOP);
    let long = Duration::from_secs(120);
    let t = Instant::now();
    let r = s.ask("genmove w", Duration::from_secs(30));
    let took = t.elapsed();
    assert!(r.starts_with("? cluster: rank 1 did not answer"), "{r}");
    assert!(took < Duration::from_secs(10), "{took:?}");
    assert_eq!(s.ask("showboard", long).chars().next(), Some('='));
    let again = s.ask("genmove w", Duration::from_secs(30));
    assert!(again.starts_with("? cluster: rank 1"), "{again}");
    let err = s.end();
    assert!(err.contains("tengen: ending the MPI job"), "{err}");
}

/// A rank that is killed: Open MPI ends the whole job (the default), so the GTP session ends
/// (its controller sees the end of the output) within a bounded time, with `mpirun`'s report
/// naming the rank on stderr, instead of a move made without it.
#[test]
fn a_killed_rank_ends_the_job_with_a_report() {
    let mut s = Session::new(&["--playouts", "2000", "--merge-interval", "20"]);
    signal_rank_1_after_a_move(&mut s, libc::SIGKILL);
    let t = Instant::now();
    let _ = writeln!(s.stdin, "genmove w");
    let _ = s.stdin.flush();
    while s.child.try_wait().unwrap().is_none() {
        if t.elapsed() > Duration::from_secs(30) {
            let _ = s.child.kill();
            let mut err = String::new();
            let _ = s.child.stderr.take().unwrap().read_to_string(&mut err);
            panic!("mpirun still runs 30 s after rank 1 was killed; the ranks' stderr:\n{err}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!s.child.wait().unwrap().success());
    let mut err = String::new();
    s.child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(err.contains("rank 1") && err.contains("signal 9"), "{err}");
    // No move was answered to the genmove after the kill.
    assert!(s.responses.try_iter().all(|r| !r.starts_with("= ")));
}

// ----- the messages and the bench's aggregate (no MPI needed) -----

mod wire {
    use tengen::board::{ByColor, Color};
    use tengen::cluster::wire::*;
    use tengen::game::{Vertex, VertexMove};
    use tengen::mcts::share::Counts;
    use tengen::mcts::Action;

    fn position() -> Position {
        Position {
            size: 9,
            komi: 6.5,
            to_search: Color::White,
            setup: ByColor([vec![Vertex { x: 2, y: 2 }], vec![]]),
            setup_to_move: Color::Black,
            moves: vec![
                (Color::Black, VertexMove::Play(Vertex { x: 4, y: 4 })),
                (Color::White, VertexMove::Pass),
            ],
        }
    }

    fn counts(v: [u32; 4]) -> Counts {
        Counts {
            visits: v[0],
            wins: v[1],
            amaf_visits: v[2],
            amaf_wins: v[3],
        }
    }

    #[test]
    fn ops_and_entries_round_trip() {
        for op in [Op::Quit, Op::Search(position())] {
            assert_eq!(decode_op(&encode_op(&op)), Ok(op));
        }
        let t = vec![
            (vec![], counts([9, 10, 0, 0])),
            (vec![Action(3), Action(81)], counts([1, 2, 3, 4])),
        ];
        assert_eq!(decode_totals(&encode_totals(Some(&t))), Ok(Some(t.clone())));
        assert_eq!(decode_totals(&encode_totals(None)), Ok(None));
        let mut b = Vec::new();
        encode_entries(t.iter().map(|(p, c)| (p, *c)), &mut b);
        assert_eq!(b.len(), 4 + (1 + 16) + (1 + 4 + 16));
        assert_eq!(decode_entries(&b), Ok(t));
    }

    /// Every cut of a valid message and junk are refused with an error, never a panic.
    #[test]
    fn malformed_messages_are_refused() {
        let op = encode_op(&Op::Search(position()));
        for n in 0..op.len() {
            assert!(decode_op(&op[..n]).is_err(), "{n}");
        }
        let mut long = op.clone();
        long.push(0);
        assert!(decode_op(&long)
            .unwrap_err()
            .to_string()
            .contains("trailing bytes"));
        assert!(decode_op(&[7]).is_err());
        let e = decode_entries(&[255, 255, 255, 255]).unwrap_err();
        assert!(
            e.to_string().contains("entry count beyond the message"),
            "{e}"
        );
        let mut path = vec![1, 0, 0, 0, 65];
        path.extend([0; 200]);
        assert!(decode_entries(&path)
            .unwrap_err()
            .to_string()
            .contains("path too long"));
        assert!(decode_totals(&[2]).is_err());
    }
}

mod bench {
    use std::time::Duration;
    use tengen::cluster::bench::aggregate;
    use tengen::playout::batch::BenchStats;

    fn stats(playouts: u64, signature: u64, wall_ms: u64) -> BenchStats {
        BenchStats {
            playouts,
            moves: 100 * playouts,
            black_wins: playouts / 2,
            score_sum: 1.5 * playouts as f64,
            capped: 1,
            signature,
            wall: Duration::from_millis(wall_ms),
            cpu: Duration::from_millis(wall_ms),
        }
    }

    /// Counts add up, the rate is over the slowest rank's time, and the signature depends on
    /// every rank's and on their order.
    #[test]
    fn the_aggregate_of_two_ranks() {
        let (a, b) = (stats(1000, 7, 100), stats(3000, 9, 200));
        let all = aggregate(&[a, b]);
        assert_eq!(
            (all.playouts, all.moves, all.black_wins, all.capped),
            (4000, 400_000, 2000, 2)
        );
        assert_eq!(all.wall, Duration::from_millis(200));
        assert_eq!(all.cpu, Duration::from_millis(300));
        assert!((all.playouts_per_sec() - 20_000.0).abs() < 1e-6);
        assert!((all.mean_score() - 1.5).abs() < 1e-12);
        assert_ne!(all.signature, aggregate(&[b, a]).signature);
        assert_ne!(all.signature, aggregate(&[a]).signature);
        assert_eq!(all.signature, aggregate(&[a, b]).signature);
    }
}
