//! Property test of the GTP front end on generated input (the `gtp_input` fuzz property):
//! arbitrary lines, bytes included, never crash the session, every command line with an id gets
//! exactly one response, and a command that fails leaves the board and the game record as they
//! were.

use std::collections::HashMap;
use std::io::Cursor;
use tengen::gtp::{self, Settings};
use tengen::mcts::Limits;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, v: &[&'a str]) -> &'a str {
        v[self.below(v.len())]
    }
}

/// Commands drawn besides the table's: more moves and undos than the rest, and names that are
/// no command.
const EXTRA: &[&str] = &[
    "play",
    "play",
    "play",
    "undo",
    "no_such_command",
    "PLAY",
    "",
];

/// What a session draws from: every command of the table but `quit` (which would end it),
/// and [`EXTRA`].
fn command_names() -> Vec<&'static str> {
    gtp::commands()
        .into_iter()
        .map(|(name, _)| name)
        .filter(|&name| name != "quit")
        .chain(EXTRA.iter().copied())
        .collect()
}

fn word(r: &mut Rng) -> String {
    let colors = ["b", "w", "B", "white", "Black", "x", "bw", ""];
    let vertices = [
        "A1", "E5", "J9", "T19", "I5", "Z3", "A0", "A20", "pass", "PASS", "e5", "K10", "D4", "C3",
        "G7", "resign", "A1B2",
    ];
    let numbers = [
        "0",
        "1",
        "2",
        "4",
        "9",
        "13",
        "19",
        "25",
        "-1",
        "6.5",
        "1e9",
        "nan",
        "inf",
        "99999999999999999999",
        "0x10",
        "",
    ];
    let other = [
        "alive",
        "dead",
        "seki",
        "none",
        "absolute",
        "byoyomi",
        "canadian",
        "tests/gtp/capture.sgf",
        "tests/gtp/not_sgf.txt",
        "/nonexistent",
        "ownership",
        "true",
        "interval",
        "#",
        "\t",
        "\u{0}",
        "\r",
        "é",
        "\u{202e}",
    ];
    match r.below(4) {
        0 => r.pick(&colors).to_string(),
        1 => r.pick(&vertices).to_string(),
        2 => r.pick(&numbers).to_string(),
        _ => r.pick(&other).to_string(),
    }
}

/// A command line without id, usually well formed, sometimes not.
fn command(r: &mut Rng) -> Vec<u8> {
    let name = r.pick(&command_names());
    let mut line = name.to_string();
    let n = match name {
        "play" if r.below(4) > 0 => {
            let c = if r.below(2) == 0 { "b" } else { "w" };
            let v = format!(
                "{}{}",
                "ABCDEFGHJ".as_bytes()[r.below(9)] as char,
                1 + r.below(9)
            );
            return format!("play {c} {v}").into_bytes();
        }
        "boardsize" if r.below(3) > 0 => {
            return format!(
                "boardsize {}",
                r.pick(&["5", "7", "9", "9", "13", "0", "20"])
            )
            .into_bytes()
        }
        "lz-analyze" | "kata-analyze" if r.below(3) > 0 => {
            let args = r.pick(&[
                "",
                "b 1",
                "w interval 1",
                "1 avoid b e5,d4,pass 2",
                "b 1 allow w c3,g7 1 avoid b a1 3",
                "1 minmoves 3 maxmoves 2 pvVisits true",
            ]);
            return format!("{name} {args}").trim_end().as_bytes().to_vec();
        }
        // Never a file argument: printsgf would write it.
        "printsgf" => 0,
        _ => r.below(4),
    };
    for _ in 0..n {
        line.push(' ');
        line.push_str(&word(r));
    }
    let mut bytes = line.into_bytes();
    if r.below(10) == 0 {
        // Raw bytes: invalid UTF-8, control characters.
        for _ in 0..r.below(6) {
            bytes.push(r.next() as u8);
        }
        bytes.retain(|&b| b != b'\n');
    }
    bytes
}

fn settings() -> Settings {
    let mut s = Settings {
        limits: Limits {
            playouts: Some(60),
            time: None,
            early_stop: true,
        },
        size: tengen::board::BoardSize::NINE,
        verbose: false,
        ..Settings::default()
    };
    s.config.estimate_playouts = 60;
    s.config.params.max_nodes = 1 << 16;
    s
}

/// Responses by id, with `?` or `=` as the first character.
fn responses(output: &str) -> HashMap<u64, String> {
    let mut map = HashMap::new();
    let mut lines = output.split('\n');
    while let Some(first) = lines.next() {
        if first.is_empty() {
            continue;
        }
        let mut text = first.to_string();
        for l in lines.by_ref() {
            if l.is_empty() {
                break;
            }
            text.push('\n');
            text.push_str(l);
        }
        let digits: String = text[1..].chars().take_while(char::is_ascii_digit).collect();
        if let Ok(id) = digits.parse::<u64>() {
            let body = text[1 + digits.len()..].to_string();
            assert!(
                map.insert(id, format!("{}{body}", &text[..1])).is_none(),
                "two responses for id {id}"
            );
        }
    }
    map
}

fn session(seed: u64, commands: usize) {
    let mut r = Rng(seed | 1);
    let mut input = Vec::new();
    let mut checks = Vec::new();
    for k in 0..commands as u64 {
        let base = 1_000_000 + 10 * k;
        input.extend_from_slice(format!("{base} showboard\n{} printsgf\n", base + 1).as_bytes());
        let cmd = command(&mut r);
        input.extend_from_slice(format!("{} ", base + 2).as_bytes());
        input.extend_from_slice(&cmd);
        input.extend_from_slice(
            format!("\n{} showboard\n{} printsgf\n", base + 3, base + 4).as_bytes(),
        );
        checks.push((base, String::from_utf8_lossy(&cmd).into_owned()));
    }
    let mut out = Vec::new();
    let mut err = Vec::new();
    gtp::run(settings(), Cursor::new(input), &mut out, &mut err).expect("session runs");
    let got = responses(&String::from_utf8(out).expect("UTF-8 output"));
    let answered: Vec<&String> = checks.iter().filter_map(|c| got.get(&(c.0 + 2))).collect();
    let failed = answered.iter().filter(|r| r.starts_with('?')).count();
    assert!(
        failed > commands / 5 && answered.len() - failed > commands / 5,
        "{failed} of {} commands failed: the generator lost its balance",
        answered.len()
    );
    for (base, cmd) in &checks {
        for id in [base, &(base + 1), &(base + 3), &(base + 4)] {
            assert!(
                got.contains_key(id),
                "no response to id {id} (around {cmd:?})"
            );
        }
        // The command itself may have been cut by a `#` or a stray newline byte; when it was
        // answered and failed, nothing may have changed.
        if let Some(resp) = got.get(&(base + 2)) {
            if resp.starts_with('?') {
                assert_eq!(
                    got[base],
                    got[&(base + 3)],
                    "{cmd:?} failed ({resp:?}) but changed the board"
                );
                assert_eq!(
                    got[&(base + 1)],
                    got[&(base + 4)],
                    "{cmd:?} failed ({resp:?}) but changed the record"
                );
            }
        }
    }
}

#[test]
fn arbitrary_lines_never_break_the_session() {
    let n = if cfg!(debug_assertions) { 150 } else { 600 };
    for seed in [1, 2, 3] {
        session(seed, n);
    }
}
