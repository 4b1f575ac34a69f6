//! README.md stays true (issue 24, item 5): its bench sample is what the code prints, and the
//! Rust version it names is `rust-version` in Cargo.toml (`.ci/run` checks that one against
//! the lock file's dependencies).

use std::process::Command;

const README: &str = include_str!("../README.md");
const CARGO_TOML: &str = include_str!("../Cargo.toml");

/// The value of `label` in a `label   value` report line.
fn field<'a>(text: &'a str, label: &str) -> Option<&'a str> {
    text.lines().find_map(|l| {
        l.strip_prefix(label)
            .filter(|rest| rest.starts_with(' '))
            .map(str::trim)
    })
}

/// The README's sample of `bench --playouts 20000`: the text block after the sentence that
/// names the command.
fn readme_sample() -> &'static str {
    let intro = "Output of `cargo run --release -- bench --playouts 20000`";
    let at = README
        .find(intro)
        .expect("README shows the output of bench --playouts 20000");
    let rest = &README[at..];
    let start = rest.find("```text\n").expect("a text block follows") + "```text\n".len();
    let len = rest[start..].find("```").expect("the block ends");
    &rest[start..start + len]
}

#[test]
fn readme_bench_sample_is_what_bench_prints() {
    let out = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["bench", "--playouts", "20000"])
        .output()
        .expect("tengen bench runs");
    assert!(out.status.success());
    let printed = String::from_utf8(out.stdout).unwrap();
    let sample = readme_sample();
    // The same lines in the same order.
    let labels = |t: &str| -> Vec<String> {
        t.lines()
            .map(|l| l.split("  ").next().unwrap_or("").trim().to_string())
            .collect()
    };
    assert_eq!(
        labels(sample),
        labels(&printed),
        "README sample:\n{sample}\nprinted:\n{printed}"
    );
    // The figures that do not depend on the machine: the game played and its signature.
    for label in [
        "moves/playout",
        "black wins",
        "mean score",
        "capped",
        "signature",
    ] {
        assert_eq!(
            field(sample, label),
            field(&printed, label),
            "README.md's bench sample has another `{label}` than `tengen bench --playouts \
             20000` prints:\n{printed}"
        );
    }
}

#[test]
fn readme_names_the_minimum_rust_version() {
    let ours = CARGO_TOML
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = "))
        .expect("Cargo.toml has a rust-version")
        .trim_matches('"');
    assert!(
        README.contains(&format!("Rust {ours} or newer")),
        "README.md should say `Rust {ours} or newer` (Cargo.toml's rust-version)"
    );
}

#[test]
fn readme_says_where_debian_puts_gnugo() {
    assert!(
        README.contains("/usr/games"),
        "README.md should say where gnugo lives on Debian"
    );
}
