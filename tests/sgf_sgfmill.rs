//! Records round-trip through `loadsgf` and `printsgf`, checked by an outside SGF reader:
//! Python's sgfmill (`pip install sgfmill`) reads the loaded file and the printed one and must
//! find the same size, komi, handicap, rules, players, date, result, comment, setup stones and
//! moves. Reported as skipped (in the test summary) when python3 or sgfmill is missing.

mod harness;

use harness::Outcome;
use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use tengen::gtp::{self, Settings};
use tengen::mcts::Limits;

fn main() -> ExitCode {
    harness::run(&[
        ("loaded_record_round_trips", loaded_record_round_trips),
        ("played_game_has_its_result", played_game_has_its_result),
    ])
}

/// What sgfmill sees in a file: one `key=value` line per property we keep, then the moves.
const DUMP: &str = r#"
import sys
from sgfmill import sgf
game = sgf.Sgf_game.from_bytes(open(sys.argv[1], "rb").read())
root = game.get_root()
print("size", game.get_size())
print("komi", game.get_komi())
for p in ["HA", "RU", "PB", "PW", "DT", "RE", "GC", "PL"]:
    print(p, root.get(p) if root.has_property(p) else None)
b, w, e = root.get_setup_stones()
print("AB", sorted(b))
print("AW", sorted(w))
for node in game.get_main_sequence()[1:]:
    print("move", node.get_move())
"#;

fn sgfmill_missing() -> Option<String> {
    match Command::new("python3")
        .args(["-c", "import sgfmill"])
        .output()
    {
        Err(_) => Some("python3 not found (needed with sgfmill: pip install sgfmill)".into()),
        Ok(o) if !o.status.success() => Some("sgfmill not installed (pip install sgfmill)".into()),
        Ok(_) => None,
    }
}

fn dump(file: &Path) -> String {
    let o = Command::new("python3")
        .args(["-c", DUMP])
        .arg(file)
        .output()
        .expect("python3 runs");
    assert!(
        o.status.success(),
        "sgfmill cannot read {}: {}",
        file.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

/// Runs a GTP session in this process (working directory: the crate root).
fn session(commands: &str) -> String {
    let mut s = Settings {
        limits: Limits::playouts(500),
        size: tengen::board::BoardSize::NINE,
        verbose: false,
        ..Settings::default()
    };
    s.config.params.threads = 1;
    s.config.estimate_playouts = 500;
    let mut out = Vec::new();
    gtp::run(
        s,
        Cursor::new(commands.as_bytes().to_vec()),
        &mut out,
        Vec::new(),
    )
    .unwrap();
    String::from_utf8(out).unwrap()
}

fn temp_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tengen-sgfmill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn loaded_record_round_trips() -> Outcome {
    if let Some(why) = sgfmill_missing() {
        return Outcome::Skipped(why);
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let original = root.join("tests/gtp/record.sgf");
    let printed = temp_file("record.sgf");
    let out = session(&format!(
        "1 loadsgf {}\n2 printsgf {}\n",
        original.display(),
        printed.display()
    ));
    assert_eq!(out, "=1 white\n\n=2 \n\n");
    let (a, b) = (dump(&original), dump(&printed));
    assert!(a.contains("HA 4") && a.contains("RE W+2.5") && a.contains("move ('w', None)"));
    assert_eq!(a, b, "sgfmill reads the printed record differently");
    Outcome::Passed
}

fn played_game_has_its_result() -> Outcome {
    if let Some(why) = sgfmill_missing() {
        return Outcome::Skipped(why);
    }
    let printed = temp_file("played.sgf");
    let out = session(&format!(
        "1 komi 6.5\n2 play b e5\n3 play w c3\n4 play b pass\n5 play w pass\n6 final_score\n\
         7 printsgf {}\n",
        printed.display()
    ));
    let score = out
        .split("=6 ")
        .nth(1)
        .and_then(|r| r.lines().next())
        .expect("final_score answers");
    let d = dump(&printed);
    assert!(d.contains(&format!("RE {score}\n")), "{score}:\n{d}");
    assert!(d.contains("komi 6.5\n") && d.contains("size 9\n"), "{d}");
    let moves: Vec<&str> = d.lines().filter(|l| l.starts_with("move")).collect();
    assert_eq!(
        moves,
        [
            "move ('b', (4, 4))",
            "move ('w', (2, 2))",
            "move ('b', None)",
            "move ('w', None)"
        ]
    );
    Outcome::Passed
}
