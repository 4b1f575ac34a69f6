//! The playout presets over GTP (each plays a whole game) and the policy's rate flags; the
//! policies' moves on set positions are in `tests/policy.rs`.

use clap::{Parser, ValueEnum};
use std::io::Cursor;
use tengen::cli::GtpArgs;
use tengen::engine::presets::Preset;
use tengen::gtp;

#[test]
fn every_preset_plays_a_game_over_gtp() {
    for preset in Preset::value_variants() {
        let name = preset.name();
        let args = GtpArgs::parse_from([
            "tengen gtp",
            "--preset",
            &name,
            "--playouts",
            "300",
            "--quiet",
            "--resign",
            "0",
        ]);
        let mut input = String::from("boardsize 9\nclear_board\nkomi 7.5\n");
        for _ in 0..110 {
            input.push_str("genmove b\ngenmove w\n");
        }
        input.push_str("final_score\nquit\n");
        let mut out = Vec::new();
        gtp::run(
            args.settings(),
            Cursor::new(input),
            &mut out,
            std::io::sink(),
        )
        .unwrap();
        let out = String::from_utf8(out).unwrap();
        let replies: Vec<&str> = out.split("\n\n").filter(|r| !r.is_empty()).collect();
        assert!(
            replies.iter().all(|r| r.starts_with('=')),
            "{name}: an error reply\n{out}"
        );
        assert_eq!(replies.len(), 3 + 220 + 2, "{name}\n{out}");
        // A complete game: somewhere both sides passed in a row (the GTP game goes on after).
        let moves = &replies[3..223];
        assert!(
            moves.windows(2).any(|w| w == ["= pass", "= pass"]),
            "{name}: no two passes in a row\n{out}"
        );
    }
}

/// The rate flags set the policy's rates, and a rate outside 0 to 1 is refused.
#[test]
fn rule_rate_flags() {
    let args = GtpArgs::parse_from(["tengen gtp", "--atari-rate", "0.9", "--pattern-rate", "0.5"]);
    let p = args.settings().config.policy;
    assert_eq!((p.atari_rate, p.pattern_rate), (0.9, 0.5));
    let p = GtpArgs::parse_from(["tengen gtp"]).settings().config.policy;
    assert_eq!((p.atari_rate, p.pattern_rate), (1.0, 1.0));
    for flag in ["--atari-rate", "--pattern-rate"] {
        for bad in ["1.5", "-0.1", "often"] {
            let e = GtpArgs::try_parse_from(["tengen gtp", flag, bad]).unwrap_err();
            assert!(e.to_string().contains(flag), "{flag} {bad}: {e}");
        }
    }
}
