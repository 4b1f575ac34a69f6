//! The default number of playouts per move applies only without a time control: under the
//! controller's clock the budget alone limits a search, unless the user gave `--playouts`.

use std::io::Cursor;
use tengen::gtp::{self, Settings};
use tengen::mcts::Limits;

/// Playouts of every `genmove` of a session, read from the search summaries on stderr
/// (`B E5: 12345 playouts in ...`).
fn playouts_per_move(settings: Settings, commands: &str) -> Vec<u64> {
    let mut out = Vec::new();
    let mut err = Vec::new();
    gtp::run(
        settings,
        Cursor::new(commands.to_string()),
        &mut out,
        &mut err,
    )
    .unwrap();
    String::from_utf8_lossy(&err)
        .lines()
        .filter(|l| l.contains(" playouts in "))
        .map(|l| {
            let (_, rest) = l.split_once(": ").expect("summary line");
            rest.split_whitespace().next().unwrap().parse().unwrap()
        })
        .collect()
}

fn settings(playouts: Option<u64>) -> Settings {
    let mut s = Settings {
        limits: Limits {
            playouts,
            time: None,
            early_stop: false,
        },
        default_playouts: Some(50),
        size: tengen::board::BoardSize::NINE,
        verbose: true,
        ..Settings::default()
    };
    s.config.estimate_playouts = 50;
    s.config.params.threads = 1;
    s
}

#[test]
fn the_clock_alone_limits_a_search_without_user_limits() {
    let free = "boardsize 9\nclear_board\ngenmove b\nquit\n";
    assert_eq!(playouts_per_move(settings(None), free), [50]);
    // Half a second of byo-yomi per move (after the lag reserve): far more than 50 playouts,
    // even in a debug build.
    let timed = "boardsize 9\nclear_board\ntime_settings 0 1 1\ngenmove b\nquit\n";
    let n = playouts_per_move(settings(None), timed);
    assert_eq!(n.len(), 1);
    assert!(n[0] > 50, "{n:?}");
    // The user's own limit still caps a timed search.
    assert_eq!(playouts_per_move(settings(Some(40)), timed), [40]);
}
