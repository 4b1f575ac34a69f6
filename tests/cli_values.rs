//! The command line reads values with the parsers GTP uses (issue 24, item 4): the same board
//! sizes, komi and switches are accepted, negative numbers are refused as values (not taken
//! for unknown flags), and the README names the values `--help` shows.

use clap::{CommandFactory, Parser};
use tengen::cli::{Cli, Command, GtpArgs};

fn gtp(args: &[&str]) -> Result<GtpArgs, String> {
    let argv = ["tengen", "gtp"].iter().chain(args);
    match Cli::try_parse_from(argv) {
        Ok(Cli {
            command: Some(Command::Gtp(a)),
        }) => Ok(a),
        Ok(other) => panic!("parsed as {other:?}"),
        Err(e) => Err(e.to_string()),
    }
}

#[test]
fn gtp_size_takes_9x9_as_bench_does() {
    assert_eq!(gtp(&["--size", "9x9"]).unwrap().settings().size.get(), 9);
    assert_eq!(gtp(&["--size", "13"]).unwrap().settings().size.get(), 13);
    let e = gtp(&["--size", "25"]).unwrap_err();
    assert!(e.contains("board sizes 2 to 19 are supported"), "{e}");
}

#[test]
fn negative_numbers_are_values_not_flags() {
    let e = gtp(&["--exploration", "-1"]).unwrap_err();
    assert!(
        e.contains("invalid value '-1' for '--exploration") && e.contains("at least 0"),
        "{e}"
    );
    assert_eq!(
        gtp(&["--exploration", "0.3"])
            .unwrap()
            .settings()
            .config
            .params
            .exploration,
        0.3
    );
    for (flag, want) in [
        ("--playouts", "whole number of playouts"),
        ("--threads", "whole number of threads from 1 to 256"),
        ("--resign", "win rate from 0 to 1"),
        ("--rave-k", "greater than 0"),
    ] {
        let e = gtp(&[flag, "-1"]).unwrap_err();
        assert!(
            e.contains("invalid value '-1'") && e.contains(want),
            "{flag}: {e}"
        );
    }
}

#[test]
fn komi_range_is_the_one_gtp_accepts() {
    assert_eq!(gtp(&["--komi", "1000"]).unwrap().settings().komi, 1000.0);
    assert_eq!(gtp(&["--komi", "-6.5"]).unwrap().settings().komi, -6.5);
    let e = gtp(&["--komi", "1000.5"]).unwrap_err();
    assert!(e.contains("expected a komi from -1000 to 1000"), "{e}");
}

#[test]
fn switches_read_on_off_as_the_readme_says() {
    for (v, want) in [
        ("on", true),
        ("off", false),
        ("true", true),
        ("false", false),
    ] {
        let a = gtp(&["--atari", v]).unwrap();
        assert_eq!(a.policy.atari, Some(want), "--atari {v}");
    }
    let e = gtp(&["--atari", "maybe"]).unwrap_err();
    assert!(e.contains("expected on or off"), "{e}");
    let mut cmd = Cli::command();
    let help = cmd
        .find_subcommand_mut("gtp")
        .unwrap()
        .render_long_help()
        .to_string();
    let readme = include_str!("../README.md");
    for flag in ["--atari", "--two-lib", "--patterns", "--no-self-atari"] {
        assert!(
            help.contains(&format!("{flag} <on|off>")),
            "--help shows {flag} otherwise:\n{help}"
        );
        assert!(
            readme.contains(&format!("`{flag} on|off`")),
            "README.md does not document `{flag} on|off`"
        );
    }
}

fn match_args(args: &[&str]) -> Result<tengen::cli::MatchArgs, String> {
    let argv = [
        "tengen",
        "match",
        "--a",
        "tengen",
        "--b",
        "gnugo --mode gtp",
    ]
    .iter()
    .chain(args);
    match Cli::try_parse_from(argv) {
        Ok(Cli {
            command: Some(Command::Match(a)),
        }) => Ok(a),
        Ok(other) => panic!("parsed as {other:?}"),
        Err(e) => Err(e.to_string()),
    }
}

/// `match` refuses the values that would reach the engines broken or end every game at once
/// (issue 39, items 9 to 11), as `bench` and `gtp` refuse them.
#[test]
fn match_refuses_values_the_engines_cannot_take() {
    for (flag, value, says) in [
        ("--seconds", "0.5", "whole number of seconds"),
        ("--seconds", "0", "whole number of seconds"),
        ("--seconds", "-3", "whole number of seconds"),
        ("--komi", "nan", "komi from -1000 to 1000"),
        ("--komi", "inf", "komi from -1000 to 1000"),
        ("--max-moves", "0", "whole number of plies"),
        ("--timeout", "0", "positive, finite number of seconds"),
        ("--timeout", "nan", "positive, finite number of seconds"),
    ] {
        let e = match_args(&[flag, value]).unwrap_err();
        assert!(
            e.contains(&format!("invalid value '{value}'")) && e.contains(says),
            "{flag} {value}: {e}"
        );
    }
    let a = match_args(&["--seconds", "2", "--komi", "-6.5", "--max-moves", "1"]).unwrap();
    assert_eq!((a.seconds, a.komi, a.max_moves), (Some(2), -6.5, Some(1)));
    assert_eq!(match_args(&["--timeout", "0.25"]).unwrap().timeout, 0.25);
}
