//! The figures `tengen analysis` reports (issue 66's bar `analysis-figures`): visits without the
//! priors' virtual games, a score lead that agrees with the win rate, the final count of a
//! finished game, each move's ownership, and territory rules answered, turn by turn, with the
//! note on stderr.

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Stdio};

/// Sends `requests`, closes stdin, and returns every answer line, parsed.
fn exchange(requests: &[&str]) -> Vec<Value> {
    exchange_with_stderr(requests).0
}

/// [`exchange`], and what tengen wrote on stderr.
fn exchange_with_stderr(requests: &[&str]) -> (Vec<Value>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["analysis", "--threads", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tengen starts");
    let mut stdin = child.stdin.take().unwrap();
    for r in requests {
        writeln!(stdin, "{r}").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let answers = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (answers, String::from_utf8(out.stderr).unwrap())
}

fn f(v: &Value, k: &str) -> f64 {
    v[k].as_f64().unwrap_or_else(|| panic!("{k} in {v}"))
}

/// Visits sum to at most the root's; every move with 50 visits or more, and the root, has a
/// win rate and a score lead of the same sign (a lead within 0.5 of zero agrees with anything).
/// The issue's query: 9x9, B E5 W C3, 500 and 2,000 visits.
#[test]
fn visits_add_up_and_the_lead_agrees_with_the_win_rate() {
    let answers = exchange(&[
        r#"{"id":"a","moves":[["B","E5"],["W","C3"]],"komi":7.5,"boardXSize":9,"boardYSize":9,"maxVisits":500}"#,
        r#"{"id":"b","moves":[["B","E5"],["W","C3"]],"komi":7.5,"boardXSize":9,"boardYSize":9,"maxVisits":2000}"#,
        r#"{"id":"c","komi":7.5,"boardXSize":13,"boardYSize":13,"maxVisits":1000}"#,
    ]);
    assert_eq!(answers.len(), 3);
    let agrees = |w: f64, lead: f64| lead.abs() <= 0.5 || (w - 0.5) * lead >= 0.0;
    for a in &answers {
        let root = &a["rootInfo"];
        let infos = a["moveInfos"].as_array().unwrap();
        let sum: u64 = infos.iter().map(|m| m["visits"].as_u64().unwrap()).sum();
        let root_visits = root["visits"].as_u64().unwrap();
        assert!(sum <= root_visits, "{}: {sum} > {root_visits}", a["id"]);
        assert!(root_visits > 0);
        assert!(
            agrees(f(root, "winrate"), f(root, "scoreLead")),
            "root of {}: {root}",
            a["id"]
        );
        for m in infos.iter().filter(|m| m["visits"].as_u64().unwrap() >= 50) {
            assert!(
                agrees(f(m, "winrate"), f(m, "scoreLead")),
                "{}: {m}",
                a["id"]
            );
        }
        // Every move listed has a playout of its own.
        assert!(infos.iter().all(|m| m["visits"].as_u64().unwrap() > 0));
    }
}

/// A finished game (the issue's record, ended by two passes) is analysed as `final_score` counts
/// it, dead stones removed: W+18.5, within 0.5 points. Its turn before the last pass too.
#[test]
fn a_finished_game_is_scored_as_final_score_does() {
    let sgf = "cg ge de ed dd ec fg gg fe ff ef gf dc eg ee fd fh eh eb gc fi gh di fb ea db cb \
               ei hd gd hb gb hc ha ib he ie if id gi da fa dh dg cf ch bh ci bi bg bf af ag be \
               ae ad bd bc ac ab bb ad af ac ce cc cd ba aa ac ab bc ad df ca dh cc fh bc hg ih \
               ig hi hh ai ii ia ga";
    let cols = "ABCDEFGHJ";
    let mut moves = Vec::new();
    for (k, m) in sgf.split_whitespace().enumerate() {
        let b = m.as_bytes();
        let x = cols.as_bytes()[(b[0] - b'a') as usize] as char;
        let y = 9 - (b[1] - b'a');
        let c = if k % 2 == 0 { "B" } else { "W" };
        moves.push(format!(r#"["{c}","{x}{y}"]"#));
    }
    moves.push(r#"["B","pass"]"#.into());
    moves.push(r#"["W","pass"]"#.into());
    let n = moves.len();
    let q = format!(
        r#"{{"id":"end","moves":[{}],"komi":7.5,"boardXSize":9,"boardYSize":9,"maxVisits":2000,"analyzeTurns":[{},{n}],"includeOwnership":true}}"#,
        moves.join(","),
        n - 1
    );
    let answers = exchange(&[&q]);
    assert_eq!(answers.len(), 2, "{answers:?}");
    for a in &answers {
        let lead = f(&a["rootInfo"], "scoreLead");
        assert!(
            (lead - -18.5).abs() <= 0.5,
            "turn {}: {}",
            a["turnNumber"],
            a["rootInfo"]
        );
        assert!(f(&a["rootInfo"], "winrate") < 0.5, "{}", a["rootInfo"]);
    }
    assert_eq!(answers[1]["ownership"].as_array().unwrap().len(), 81);
}

/// `includeMovesOwnership`: each move carries an ownership array of the board's size, in
/// `[-1, 1]`, and no warning says the field is ignored.
#[test]
fn each_move_carries_its_ownership() {
    let answers = exchange(&[
        r#"{"id":"o","moves":[["B","E5"]],"boardXSize":9,"boardYSize":9,"maxVisits":300,"includeMovesOwnership":true}"#,
    ]);
    assert_eq!(answers.len(), 1, "{answers:?}");
    let infos = answers[0]["moveInfos"].as_array().unwrap();
    assert!(!infos.is_empty());
    for m in infos {
        let own = m["ownership"].as_array().unwrap();
        assert_eq!(own.len(), 81, "{m}");
        assert!(own.iter().all(|o| o.as_f64().unwrap().abs() <= 1.0));
    }
}

/// KaTrain's default rules, `japanese`, are answered scored by area, with a note on stderr
/// once a run and no extra line on stdout: a batch client that sends a whole game's turns (as
/// `katagoanal` does, `analyzeTurns` 0..=n) and reads one line a turn gets exactly its turns.
#[test]
fn territory_rules_are_answered_turn_by_turn() {
    let game = r#"{"id":"g","rules":"japanese","komi":6.5,"boardXSize":9,"boardYSize":9,
        "moves":[["B","E5"],["W","C3"],["B","G7"]],"analyzeTurns":[0,1,2,3],"maxVisits":50}"#;
    let again = r#"{"id":"h","rules":"korean","boardXSize":9,"boardYSize":9,"maxVisits":50}"#;
    let game = game.replace('\n', " ");
    let (answers, stderr) = exchange_with_stderr(&[game.as_str(), again]);
    let turns: Vec<u64> = answers
        .iter()
        .map(|a| {
            a["turnNumber"]
                .as_u64()
                .unwrap_or_else(|| panic!("not a turn: {a}"))
        })
        .collect();
    assert_eq!(turns.len(), 5, "{answers:?}");
    assert!(answers
        .iter()
        .all(|a| a["rootInfo"]["visits"].as_u64() > Some(0)));
    let notes: Vec<&str> = stderr.lines().filter(|l| l.contains("by area")).collect();
    assert_eq!(notes.len(), 1, "one note a run: {stderr}");
    assert!(notes[0].contains(r#""g""#), "{stderr}");
}
