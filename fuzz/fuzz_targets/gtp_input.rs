//! Arbitrary bytes as GTP input to a 9x9 session with a tiny playout budget: whatever the
//! lines say, the session answers without panicking and ends at the end of the input. Lines
//! naming SGF files are dropped: `printsgf` would write files wherever the fuzzer runs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::io::{self, Cursor};
use tengen::gtp::{self, Settings};
use tengen::mcts::Limits;

fuzz_target!(|data: &[u8]| {
    let mut s = Settings {
        limits: Limits::playouts(8),
        size: tengen::board::BoardSize::NINE,
        verbose: true,
        ..Settings::default()
    };
    s.config.estimate_playouts = 8;
    s.config.params.max_nodes = 1 << 12;
    let input: Vec<u8> = data
        .split(|&b| b == b'\n')
        .filter(|l| !l.windows(3).any(|w| w.eq_ignore_ascii_case(b"sgf")))
        .flat_map(|l| l.iter().copied().chain([b'\n']))
        .collect();
    // A session only fails on output errors, which sinks never give.
    gtp::run(s, Cursor::new(input), io::sink(), io::sink()).expect("session runs");
});
