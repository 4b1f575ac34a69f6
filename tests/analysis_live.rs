//! `tengen analysis` driven as a live client drives it (issue 62): started the way KataGo front
//! ends start KataGo, waiting for its ready line; KaTrain 1.20's own queries (its
//! `request_analysis`: priority, policy, ownership, `overrideSettings`, avoid moves for "find
//! alternatives"); a continuous ("ponder") query with reports during the search, ended by
//! `terminate`; `maxTime`; and priorities.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// A running `tengen analysis`: requests go in as they are written, answers come back with the
/// time they arrived.
struct Live {
    child: Child,
    stdin: Option<ChildStdin>,
    answers: Receiver<(Instant, Value)>,
    stderr: Receiver<String>,
}

impl Live {
    fn start(args: &[&str]) -> Live {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
            .arg("analysis")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("tengen starts");
        let (tx, answers) = mpsc::channel();
        let out = BufReader::new(child.stdout.take().unwrap());
        std::thread::spawn(move || {
            for l in out.lines() {
                let l = l.unwrap();
                let v = serde_json::from_str(&l).unwrap_or_else(|e| panic!("{l:?}: {e}"));
                if tx.send((Instant::now(), v)).is_err() {
                    break;
                }
            }
        });
        let (tx, stderr) = mpsc::channel();
        let err = BufReader::new(child.stderr.take().unwrap());
        std::thread::spawn(move || {
            for l in err.lines().map_while(Result::ok) {
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Live {
            child,
            stdin,
            answers,
            stderr,
        }
    }

    /// Waits for the ready line on stderr, as katagoanal does; returns the lines before it.
    fn wait_ready(&self) -> Vec<String> {
        let mut before = Vec::new();
        loop {
            let l = self
                .stderr
                .recv_timeout(Duration::from_secs(30))
                .expect("a ready line on stderr");
            if l.ends_with("Started, ready to begin handling requests") {
                return before;
            }
            before.push(l);
        }
    }

    fn send(&mut self, request: &Value) -> Instant {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{request}").unwrap();
        stdin.flush().unwrap();
        Instant::now()
    }

    /// The next answer, within a minute.
    fn next(&self) -> (Instant, Value) {
        self.answers
            .recv_timeout(Duration::from_secs(60))
            .expect("an answer within a minute")
    }

    /// Answers until the final one of `id` (`isDuringSearch` false, or an error), that one
    /// included.
    fn until_final(&self, id: &str) -> Vec<(Instant, Value)> {
        let mut got = Vec::new();
        loop {
            let (t, a) = self.next();
            let done = a["id"] == id
                && (a["isDuringSearch"] == false || a["error"].is_string())
                && a["warning"].is_null();
            got.push((t, a));
            if done {
                return got;
            }
        }
    }

    fn finish(mut self) {
        drop(self.stdin.take());
        assert!(self.child.wait().unwrap().success());
    }
}

/// KaTrain 1.20's `request_analysis` query for a node (`engine.py`), with its default settings
/// (rules `japanese`, `max_visits` 500, `max_time` 8.0, `wide_root_noise` 0.04, ownership on).
fn katrain_query(id: &str, size: usize, initial: Value, moves: Value) -> Value {
    let turns = moves.as_array().unwrap().len();
    json!({
        "id": id,
        "rules": "japanese",
        "priority": 0,
        "analyzeTurns": [turns],
        "maxVisits": 500,
        "komi": 6.5,
        "boardXSize": size,
        "boardYSize": size,
        "includeOwnership": true,
        "includeMovesOwnership": true,
        "includePolicy": true,
        "initialStones": initial,
        "initialPlayer": "B",
        "moves": moves,
        "overrideSettings": {"reportAnalysisWinratesAs": "BLACK", "wideRootNoise": 0.04, "maxTime": 8.0},
    })
}

/// Index of a vertex in a policy or ownership list of a `size` board (row by row from the top
/// left).
fn index(v: &str, size: usize) -> usize {
    let col = v.as_bytes()[0];
    let x = usize::from(col - b'A' - u8::from(col > b'I'));
    let y: usize = v[1..].parse().unwrap();
    (size - y) * size + x
}

/// Checks a final answer of KaTrain's query: moves, ownership and policy of the board's size,
/// each move's prior its policy value.
fn check_answer(a: &Value, size: usize, taken: &[&str]) {
    assert_eq!(a["isDuringSearch"], false, "{a}");
    let infos = a["moveInfos"].as_array().unwrap();
    assert!(!infos.is_empty(), "{a}");
    assert_eq!(a["ownership"].as_array().unwrap().len(), size * size);
    let policy: Vec<f64> = a["policy"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_f64().unwrap())
        .collect();
    assert_eq!(policy.len(), size * size + 1);
    for v in taken {
        assert_eq!(policy[index(v, size)], -1.0, "{v}");
    }
    let sum: f64 = policy.iter().filter(|&&p| p >= 0.0).sum();
    assert!((sum - 1.0).abs() < 1e-3, "{sum}");
    for m in infos {
        let mv = m["move"].as_str().unwrap();
        let k = if mv == "pass" {
            size * size
        } else {
            index(mv, size)
        };
        assert!(
            (m["prior"].as_f64().unwrap() - policy[k]).abs() < 1e-6,
            "{m} against {}",
            policy[k]
        );
    }
    // The model's priors differ between moves (not one over the number of moves).
    let priors: Vec<f64> = infos.iter().map(|m| m["prior"].as_f64().unwrap()).collect();
    assert!(priors.iter().any(|&p| p != priors[0]), "{priors:?}");
}

/// Started as KataGo front ends start KataGo (`analysis -config CFG -model MODEL`), tengen
/// notes the flags it ignores, prints KataGo's ready line, then answers KaTrain's queries on
/// 9x9, 13x13 and 19x19 with handicap stones, and KaTrain's "find alternatives" (the moves
/// already shown avoided).
#[test]
fn katrain_queries() {
    let mut e = Live::start(&[
        "-model",
        "kata.bin.gz",
        "-config",
        "analysis.cfg",
        "-override-config",
        "homeDataDir=/tmp",
        "--playouts",
        "300",
    ]);
    let notes = e.wait_ready();
    assert_eq!(notes.len(), 3, "{notes:?}");
    assert!(
        notes.iter().all(|n| n.contains("ignoring KataGo's -")),
        "{notes:?}"
    );
    let cases = [
        (
            9,
            json!([]),
            json!([["B", "E5"], ["W", "C3"]]),
            vec!["E5", "C3"],
        ),
        (
            13,
            json!([]),
            json!([["B", "D4"], ["W", "K10"]]),
            vec!["D4", "K10"],
        ),
        (
            19,
            json!([["B", "D4"], ["B", "Q16"]]),
            json!([["W", "Q4"]]),
            vec!["D4", "Q16", "Q4"],
        ),
    ];
    for (k, (size, initial, moves, taken)) in cases.into_iter().enumerate() {
        let id = format!("QUERY:{}", k + 1);
        e.send(&katrain_query(&id, size, initial.clone(), moves.clone()));
        let got = e.until_final(&id);
        // What tengen cannot honour gets a warning each: wideRootNoise 0.04. Japanese rules
        // are answered scored by area, with a note on stderr, not a line here.
        let warned: Vec<&str> = got[..got.len() - 1]
            .iter()
            .map(|(_, w)| w["field"].as_str().unwrap_or_default())
            .collect();
        assert_eq!(warned, ["overrideSettings.wideRootNoise"], "{got:?}");
        let a = &got.last().unwrap().1;
        check_answer(a, size, &taken);
        for m in a["moveInfos"].as_array().unwrap() {
            assert_eq!(m["ownership"].as_array().unwrap().len(), size * size, "{m}");
        }
        // Find alternatives: the moves shown avoided, as KaTrain asks (here the best five).
        let shown: Vec<Value> = a["moveInfos"]
            .as_array()
            .unwrap()
            .iter()
            .take(5)
            .map(|m| m["move"].clone())
            .collect();
        let mut q = katrain_query(&format!("{id}-alt"), size, initial, moves);
        q["avoidMoves"] = json!([{"moves": shown, "player": "B", "untilDepth": 1}]);
        e.send(&q);
        let alt = e.until_final(&format!("{id}-alt"));
        let alt = &alt.last().unwrap().1;
        let alt_moves: Vec<&Value> = alt["moveInfos"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| &m["move"])
            .collect();
        assert!(!alt_moves.is_empty(), "{alt}");
        assert!(
            alt_moves.iter().all(|m| !shown.contains(m)),
            "{alt_moves:?}"
        );
    }
    e.finish();
}

/// KaTrain's continuous analysis: 10,000,000 visits with a report every 0.25 s, ended by
/// `terminate`. Reports come at least once a second while it runs, and the terminate ends it
/// promptly with one final answer.
#[test]
fn continuous_analysis_then_terminate() {
    let mut e = Live::start(&[]);
    e.wait_ready();
    let mut q = katrain_query("ponder", 19, json!([]), json!([["B", "Q16"]]));
    q["maxVisits"] = json!(10_000_000);
    q["reportDuringSearchEvery"] = json!(0.25);
    q["overrideSettings"] = json!({"reportAnalysisWinratesAs": "BLACK", "wideRootNoise": 0.0});
    let sent = e.send(&q);
    let mut reports = Vec::new();
    while sent.elapsed() < Duration::from_secs(3) {
        let (t, a) = e.next();
        if a["id"] == "ponder" && a["isDuringSearch"] == true {
            assert_eq!(a["policy"].as_array().unwrap().len(), 362);
            assert!(!a["moveInfos"].as_array().unwrap().is_empty(), "{a}");
            reports.push((t, a["rootInfo"]["visits"].as_u64().unwrap()));
        } else {
            assert!(a["warning"].is_string(), "{a}");
        }
    }
    assert!(reports.len() >= 6, "{} reports in 3 s", reports.len());
    let mut last = sent;
    for &(t, _) in &reports {
        assert!(t - last < Duration::from_secs(1), "{:?}", t - last);
        last = t;
    }
    assert!(reports.windows(2).all(|w| w[0].1 <= w[1].1), "{reports:?}");
    let stopped = e.send(&json!({"id": "stop", "action": "terminate", "terminateId": "ponder"}));
    let mut acknowledged = false;
    let finals = loop {
        let (t, a) = e.next();
        if a["action"] == "terminate" {
            assert_eq!(a["terminateId"], "ponder");
            acknowledged = true;
        } else if a["id"] == "ponder" && a["isDuringSearch"] == false {
            break (t, a);
        }
    };
    assert!(acknowledged);
    let (t, a) = finals;
    assert!(
        t - stopped < Duration::from_millis(500),
        "{:?}",
        t - stopped
    );
    let visits = a["rootInfo"]["visits"].as_u64().unwrap();
    assert!(
        visits < 10_000_000 && visits >= reports.last().unwrap().1,
        "{a}"
    );
    e.finish();
}

/// `overrideSettings.maxTime` bounds each turn's search: within 10 % plus 50 ms of it, from
/// the request to the answer.
#[test]
fn max_time_bounds_the_search() {
    let mut e = Live::start(&[]);
    e.wait_ready();
    for (size, seconds) in [(19, 1.0), (9, 0.5)] {
        let q = json!({"id": "t", "boardXSize": size, "boardYSize": size, "maxVisits": 10_000_000,
                       "moves": [["B", "D4"]], "overrideSettings": {"maxTime": seconds}});
        let sent = e.send(&q);
        let (t, a) = e.until_final("t").pop().unwrap();
        let took = (t - sent).as_secs_f64();
        assert!(
            took <= seconds * 1.1 + 0.05 && took >= seconds * 0.9,
            "{size}x{size}, maxTime {seconds}: answered in {took:.3} s"
        );
        assert!(a["rootInfo"]["visits"].as_u64().unwrap() < 10_000_000);
    }
    e.finish();
}

/// Queries are searched by priority, ties in the order they arrived; `terminate_all` ends
/// every query, answering the ones not started with `noResults`.
#[test]
fn priorities_and_terminate_all() {
    let mut e = Live::start(&[]);
    e.wait_ready();
    let q = |id: &str, priority: i64| json!({"id": id, "boardXSize": 9, "boardYSize": 9, "maxVisits": 200, "priority": priority});
    let long = json!({"id": "long", "boardXSize": 19, "boardYSize": 19, "maxVisits": 10_000_000,
                      "priority": 10});
    e.send(&long);
    e.send(&q("low", -1));
    e.send(&q("mid", 0));
    e.send(&q("high", 5));
    std::thread::sleep(Duration::from_millis(300));
    e.send(&json!({"id": "all", "action": "terminate_all"}));
    e.send(&q("after", 0));
    let mut order = Vec::new();
    while order.len() < 5 {
        let (_, a) = e.next();
        if let Some(id) = a["id"].as_str().filter(|_| a["isDuringSearch"] == false) {
            let searched = a["noResults"].is_null();
            order.push((id.to_string(), searched));
        }
    }
    // Terminated: "long" stopped (with what it found), the three waiting ones dropped in
    // priority order; the query sent after the terminate_all is searched.
    let dropped: Vec<&str> = order
        .iter()
        .filter(|(_, s)| !s)
        .map(|(id, _)| id.as_str())
        .collect();
    assert_eq!(dropped, ["low", "mid", "high"], "{order:?}");
    assert!(order.contains(&("long".into(), true)), "{order:?}");
    assert_eq!(order.last().unwrap(), &("after".to_string(), true));
    e.finish();

    // Without a terminate: highest priority first.
    let mut e = Live::start(&[]);
    e.wait_ready();
    e.send(&q("first", 9));
    e.send(&q("low", -1));
    e.send(&q("mid", 0));
    e.send(&q("high", 5));
    let mut order = Vec::new();
    while order.len() < 4 {
        let (_, a) = e.next();
        if a["isDuringSearch"] == false {
            order.push(a["id"].as_str().unwrap().to_string());
        }
    }
    assert_eq!(order, ["first", "high", "mid", "low"]);
    e.finish();
}
