use super::*;
use crate::game::Vertex;
use std::time::Duration;

fn query(line: &str) -> Query {
    match parse(line) {
        (Ok(Request::Query(q)), w) => {
            assert!(w.is_empty(), "{w:?}");
            q
        }
        other => panic!("{line}: {other:?}"),
    }
}

/// The error a line is answered with, as (field, message).
fn refused(line: &str) -> (Option<String>, String) {
    match parse(line).0 {
        Err(b) => (b.field, b.error),
        Ok(r) => panic!("{line}: accepted as {r:?}"),
    }
}

#[test]
fn a_full_query() {
    let q = query(
        r#"{"id":"a","moves":[["B","D4"],["w","pass"],["B","Q16"]],"initialStones":[["W","K10"]],
            "rules":"Chinese","komi":6.5,"boardXSize":19,"boardYSize":19,"maxVisits":50,
            "analyzeTurns":[3,0],"includeOwnership":true,
            "avoidMoves":[{"player":"W","moves":["A1","B2"],"untilDepth":2}],
            "allowMoves":[{"player":"B","moves":["C3"],"untilDepth":1}]}"#,
    );
    assert_eq!(q.id, "a");
    assert_eq!(q.size.get(), 19);
    assert_eq!(q.komi, 6.5);
    assert_eq!(q.initial, [(Color::White, Vertex::new(9, 9))]);
    assert_eq!(q.moves.len(), 3);
    assert_eq!(q.moves[1], (Color::White, VertexMove::Pass));
    assert_eq!(q.turns, [3, 0]);
    assert_eq!(q.max_visits, Some(50));
    assert!(q.ownership);
    assert_eq!(q.rules.len(), 2);
    assert_eq!(q.rules[0].kind, RuleKind::Allow);
    assert_eq!(q.rules[0].color, Color::Black);
    assert_eq!(q.rules[1].kind, RuleKind::Avoid);
    assert_eq!(q.rules[1].until_depth, 2);
    assert_eq!(q.rules[1].moves.len(), 2);
    assert_eq!(q.to_move(0), Color::Black);
    assert_eq!(q.to_move(1), Color::White);
    assert_eq!(q.to_move(3), Color::White);
}

#[test]
fn defaults() {
    let q = query(r#"{"id":"d","boardXSize":9,"boardYSize":9}"#);
    assert_eq!(q.komi, DEFAULT_KOMI);
    assert_eq!(q.turns, [0]);
    assert_eq!(q.max_visits, None);
    assert!(!q.ownership && q.moves.is_empty() && q.rules.is_empty());
    assert_eq!(q.to_move(0), Color::Black);
    let q = query(r#"{"id":"d","boardXSize":9,"boardYSize":9,"initialPlayer":"W"}"#);
    assert_eq!(q.to_move(0), Color::White);
}

#[test]
fn other_actions() {
    assert_eq!(
        parse(r#"{"id":"v","action":"query_version"}"#).0,
        Ok(Request::Version { id: "v".into() })
    );
    assert_eq!(
        parse(r#"{"id":"t","action":"terminate","terminateId":"a"}"#).0,
        Ok(Request::Terminate {
            id: "t".into(),
            target: Some("a".into()),
            turns: None,
        })
    );
    let all = parse(r#"{"id":"t","action":"terminate_all","turnNumbers":[3,1]}"#).0;
    assert_eq!(
        all,
        Ok(Request::Terminate {
            id: "t".into(),
            target: None,
            turns: Some(vec![3, 1]),
        })
    );
    assert_eq!(
        all.unwrap().terminate_echo().unwrap(),
        serde_json::json!({"id":"t","action":"terminate_all","turnNumbers":[3,1]})
    );
    assert_eq!(
        refused(r#"{"id":"t","action":"terminate","terminateId":"a","turnNumbers":[-1]}"#)
            .0
            .as_deref(),
        Some("turnNumbers")
    );
    assert_eq!(
        refused(r#"{"id":"t","action":"terminate"}"#).0.as_deref(),
        Some("terminateId")
    );
    assert_eq!(
        refused(r#"{"id":"t","action":"dance"}"#).0.as_deref(),
        Some("action")
    );
}

#[test]
fn ignored_fields_are_warned_about() {
    let (r, w) = parse(r#"{"id":"w","boardXSize":9,"boardYSize":9,"rootPolicyTemperature":2}"#);
    assert!(matches!(r, Ok(Request::Query(_))));
    assert_eq!(w.len(), 1);
    assert_eq!(w[0]["field"], "rootPolicyTemperature");
    assert_eq!(w[0]["id"], "w");
    assert!(w[0]["warning"].is_string());
}

/// The fields KaTrain sends with every query (issue 62): `includePolicy`, `priority`,
/// `reportDuringSearchEvery` and `overrideSettings` are read, not warned about; of the
/// settings, `maxTime` is honoured and those tengen cannot honour get a warning each.
#[test]
fn katrain_fields_are_read() {
    let (r, w) = parse(
        r#"{"id":"k","boardXSize":19,"boardYSize":19,"includePolicy":true,"priority":3,
            "reportDuringSearchEvery":0.25,"overrideSettings":{"reportAnalysisWinratesAs":"BLACK",
            "wideRootNoise":0.04,"maxTime":8.0,"cpuctExploration":1.1}}"#,
    );
    let Ok(Request::Query(q)) = r else {
        panic!("{r:?}")
    };
    assert!(q.policy);
    assert_eq!(q.priorities, [3]);
    assert_eq!(q.report_every, Some(Duration::from_millis(250)));
    assert_eq!(q.max_time, Some(Duration::from_secs(8)));
    let fields: Vec<&str> = w.iter().map(|w| w["field"].as_str().unwrap()).collect();
    assert_eq!(
        fields,
        [
            "overrideSettings.cpuctExploration",
            "overrideSettings.wideRootNoise"
        ]
    );
    // What tengen does anyway is no warning; a tiny interval is taken as the shortest.
    let (r, w) = parse(
        r#"{"id":"k","boardXSize":9,"boardYSize":9,"reportDuringSearchEvery":1e-9,
            "overrideSettings":{"reportAnalysisWinratesAs":"black","wideRootNoise":0,"maxTime":1e300}}"#,
    );
    assert!(w.is_empty(), "{w:?}");
    let Ok(Request::Query(q)) = r else {
        panic!("{r:?}")
    };
    assert_eq!(q.report_every, Some(MIN_REPORT_EVERY));
    assert_eq!(q.max_time, Some(Duration::from_secs_f64(MAX_SECONDS)));
    let q = query(r#"{"id":"d","boardXSize":9,"boardYSize":9}"#);
    assert!(!q.policy && q.report_every.is_none() && q.max_time.is_none());
    assert_eq!(q.priorities, [0]);
}

/// Territory rules (KaTrain's default is `japanese`) are answered, scored by area, and marked
/// for the note on stderr, with no warning line among the answers; KataGo's rules names and
/// objects whose fields tengen plays are read.
#[test]
fn territory_rules_are_answered_without_a_warning_line() {
    use crate::game::HandicapBonus;
    for rules in [
        r#""japanese""#,
        r#""korean""#,
        r#"{"scoring":"TERRITORY","tax":"SEKI"}"#,
    ] {
        let (r, w) = parse(&format!(
            r#"{{"id":"j","boardXSize":9,"boardYSize":9,"rules":{rules}}}"#
        ));
        let Ok(Request::Query(q)) = r else {
            panic!("{rules}: {r:?}")
        };
        assert!(q.territory, "{rules}");
        assert!(w.is_empty(), "{rules}: {w:?}");
    }
    let (r, w) = parse(
        r#"{"id":"c","boardXSize":9,"boardYSize":9,"rules":{"scoring":"AREA","whiteHandicapBonus":"0"}}"#,
    );
    let Ok(Request::Query(q)) = r else {
        panic!("{r:?}")
    };
    assert!(w.is_empty() && !q.territory);
    assert_eq!(q.game_rules.handicap_bonus, HandicapBonus::Zero);
}

#[test]
fn bad_requests_name_their_field() {
    let base = r#""id":"x","boardXSize":9,"boardYSize":9"#;
    let bad = |extra: &str| refused(&format!("{{{base},{extra}}}"));
    for (extra, field, says) in [
        (r#""komi":"7""#, "komi", "komi must be a number"),
        (r#""komi":5000"#, "komi", "from -1000 to 1000"),
        (
            r#""rules":"tromp-taylor""#,
            "rules",
            "suicide: tengen forbids suicide",
        ),
        (
            r#""rules":{"ko":"SIMPLE"}"#,
            "rules",
            "ko: tengen plays positional superko",
        ),
        (r#""rules":7"#, "rules", "a name or an object"),
        (
            r#""moves":[["B","Z9"]]"#,
            "moves",
            "moves[0]: bad vertex \"Z9\"",
        ),
        (r#""moves":[["X","D4"]]"#, "moves", "bad player"),
        (r#""moves":[["B"]]"#, "moves", "pair"),
        (r#""moves":"D4""#, "moves", "list"),
        (
            r#""initialStones":[["B","pass"]]"#,
            "initialStones",
            "bad vertex",
        ),
        (r#""analyzeTurns":[2]"#, "analyzeTurns", "from 0 to 0"),
        (
            r#""moves":[["B","D4"]],"analyzeTurns":[1,1]"#,
            "analyzeTurns",
            "twice",
        ),
        (r#""maxVisits":0"#, "maxVisits", "from 1 to"),
        (r#""maxVisits":1e12"#, "maxVisits", "from 1 to"),
        (
            r#""includeOwnership":1"#,
            "includeOwnership",
            "true or false",
        ),
        (
            r#""initialPlayer":"red""#,
            "initialPlayer",
            "\"B\" or \"W\"",
        ),
        (
            r#""avoidMoves":[{"player":"B","moves":["D4"]}]"#,
            "avoidMoves",
            "untilDepth must be 1 or more",
        ),
        (
            r#""allowMoves":[{"player":"B","moves":["D4"],"untilDepth":1},{"player":"W","moves":["D4"],"untilDepth":1}]"#,
            "allowMoves",
            "at most one",
        ),
        (r#""includePolicy":"yes""#, "includePolicy", "true or false"),
        (
            r#""reportDuringSearchEvery":0"#,
            "reportDuringSearchEvery",
            "above 0",
        ),
        (
            r#""reportDuringSearchEvery":"1""#,
            "reportDuringSearchEvery",
            "above 0",
        ),
        (r#""priority":1.5"#, "priority", "whole numbers"),
        (r#""priorities":[1,2]"#, "priorities", "one per turn"),
        (r#""priority":1,"priorities":[1]"#, "priorities", "not both"),
        (r#""overrideSettings":[]"#, "overrideSettings", "an object"),
        (
            r#""overrideSettings":{"maxTime":-1}"#,
            "overrideSettings.maxTime",
            "above 0",
        ),
    ] {
        let (f, e) = bad(extra);
        assert_eq!(f.as_deref(), Some(field), "{extra}: {e}");
        assert!(e.contains(says), "{extra}: {e}");
    }
    let (f, e) = refused(r#"{"id":"x","boardXSize":19,"boardYSize":13}"#);
    assert_eq!(f.as_deref(), Some("boardYSize"));
    assert!(e.contains("square boards only"), "{e}");
    let (f, e) = refused(r#"{"id":"x","boardXSize":25,"boardYSize":25}"#);
    assert_eq!(f.as_deref(), Some("boardXSize"));
    assert!(e.contains("2 to 19"), "{e}");
    assert_eq!(refused(r#"{"boardXSize":9}"#).0.as_deref(), Some("id"));
    assert_eq!(
        refused(r#"{"id":7,"boardXSize":9}"#).0.as_deref(),
        Some("id")
    );
    assert_eq!(refused("[1,2]").0, None);
    let (f, e) = refused("{\"id\":");
    assert_eq!(f, None);
    assert!(e.contains("could not parse JSON"), "{e}");
}

#[test]
fn the_bounds_hold() {
    let moves: Vec<String> = (0..=MAX_MOVES)
        .map(|_| r#"["B","pass"]"#.to_string())
        .collect();
    let line = format!(
        r#"{{"id":"b","boardXSize":9,"boardYSize":9,"moves":[{}]}}"#,
        moves.join(",")
    );
    let (f, e) = refused(&line);
    assert_eq!(f.as_deref(), Some("moves"));
    assert!(e.contains(&format!("at most {MAX_MOVES}")), "{e}");
    let stones: Vec<String> = (0..82).map(|_| r#"["B","A1"]"#.to_string()).collect();
    let line = format!(
        r#"{{"id":"b","boardXSize":9,"boardYSize":9,"initialStones":[{}]}}"#,
        stones.join(",")
    );
    assert_eq!(refused(&line).0.as_deref(), Some("initialStones"));
}
