//! Arbitrary bytes as lines of the JSON analysis protocol: every line is answered with a
//! request, or an error that is itself JSON, without panicking; an accepted query keeps within
//! the protocol's bounds (its times, priorities, a terminate's turns too). Every line is also
//! read as a KataGo rules name or object: rules read are written back (`kata-get-rules`) as the
//! same rules, and a query under territory rules is answered with a warning on `rules`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::time::Duration;
use tengen::analysis::protocol::{
    self, Request, MAX_MOVES, MAX_RULES, MAX_SECONDS, MAX_VISITS, MIN_REPORT_EVERY,
};
use tengen::game::Rules;

fuzz_target!(|data: &[u8]| {
    for line in data.split(|&b| b == b'\n') {
        let text = String::from_utf8_lossy(line);
        match Rules::parse_text(&text) {
            Ok(r) => assert_eq!(Rules::parse_text(&r.to_json()), Ok(r)),
            Err(e) => assert!(!e.field.is_empty() && !e.message.is_empty()),
        }
        let (request, warnings) = protocol::parse(&text);
        for w in &warnings {
            assert!(w["warning"].is_string() && w["field"].is_string());
        }
        match request {
            Err(bad) => {
                let v = bad.to_json();
                assert!(v["error"].is_string());
                let text = v.to_string();
                assert!(serde_json::from_str::<serde_json::Value>(&text).is_ok());
            }
            Ok(Request::Query(q)) => {
                let n = q.size.get();
                assert!((2..=19).contains(&n));
                assert!(q.moves.len() <= MAX_MOVES);
                assert!(q.initial.len() <= n * n);
                assert!(q.turns.len() <= q.moves.len() + 1);
                assert!(q.turns.iter().all(|&t| t <= q.moves.len()));
                assert!(q.max_visits.is_none_or(|v| (1..=MAX_VISITS).contains(&v)));
                assert!(q.rules.len() <= 2 * MAX_RULES);
                assert!(q.komi.is_finite());
                // Territory rules are answered with a note on stderr, never a warning line a
                // client would read as a turn's answer.
                assert!(warnings.iter().all(|w| w["field"] != "rules"), "{}", q.territory);
                assert_eq!(Rules::parse_text(&q.game_rules.to_json()), Ok(q.game_rules));
                for t in &q.turns {
                    let _ = q.to_move(*t);
                }
                // One priority per turn; times above 0 and bounded.
                assert_eq!(q.priorities.len(), q.turns.len());
                let longest = Duration::from_secs_f64(MAX_SECONDS);
                assert!(q
                    .report_every
                    .is_none_or(|r| (MIN_REPORT_EVERY..=longest).contains(&r)));
                assert!(q
                    .max_time
                    .is_none_or(|t| t > Duration::ZERO && t <= longest));
            }
            Ok(r @ Request::Terminate { .. }) => {
                let Request::Terminate { turns, .. } = &r else {
                    unreachable!()
                };
                assert!(turns
                    .as_ref()
                    .is_none_or(|t| t.len() <= MAX_MOVES + 1 && t.iter().all(|&n| n <= MAX_MOVES)));
                let echo = r.terminate_echo().expect("a terminate is echoed");
                assert!(echo["action"].is_string() && echo["id"].is_string());
            }
            Ok(Request::Version { .. }) => {}
        }
    }
});
