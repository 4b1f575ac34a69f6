//! The `main` of a test binary built with `harness = false`, for tests that need a program from
//! outside (GNU Go, Python's sgfmill): when the program is missing the test is reported as
//! skipped, with the reason, in the lines `cargo test` prints, rather than passing silently.
//! Under `TENGEN_REQUIRE_EXTERNAL=1` (set by `.ci/run`) a skip is a failure, with its reason: CI
//! must not pass without the outside checks ever running.
//!
//! It understands what `cargo test` passes on: name filters, `--exact`, `--list`,
//! `--ignored` (runs nothing: these tests are not ignored), and ignores the other flags.

use std::process::ExitCode;

/// How a test ended when it did not panic.
pub enum Outcome {
    Passed,
    /// Not run, for this reason (a missing program, and how to install it).
    Skipped(String),
}

/// A named test.
pub type Test = (&'static str, fn() -> Outcome);

/// The environment variable under which a skipped test fails (`.ci/run` sets it to `1`).
pub const REQUIRE_EXTERNAL: &str = "TENGEN_REQUIRE_EXTERNAL";

/// Whether `REQUIRE_EXTERNAL` is set to anything but empty or `0`.
fn skips_fail() -> bool {
    std::env::var_os(REQUIRE_EXTERNAL).is_some_and(|v| !v.is_empty() && v != "0")
}

/// Runs the tests the command line selects and prints libtest-style lines and a summary,
/// skipped tests included.
#[must_use]
pub fn run(tests: &[Test]) -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |f: &str| args.iter().any(|a| a == f);
    // Flags that take a value as the next argument.
    let with_value = [
        "--test-threads",
        "--format",
        "--color",
        "--logfile",
        "--skip",
        "-Z",
    ];
    let mut filters = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if with_value.contains(&a.as_str()) {
            i += 1;
        } else if !a.starts_with('-') {
            filters.push(a.as_str());
        }
        i += 1;
    }
    let selected: Vec<&Test> = tests
        .iter()
        .filter(|(name, _)| {
            !flag("--ignored")
                && (filters.is_empty()
                    || filters.iter().any(|f| {
                        if flag("--exact") {
                            name == f
                        } else {
                            name.contains(f)
                        }
                    }))
        })
        .collect();
    if flag("--list") {
        for (name, _) in &selected {
            println!("{name}: test");
        }
        return ExitCode::SUCCESS;
    }
    println!(
        "\nrunning {} test{}",
        selected.len(),
        if selected.len() == 1 { "" } else { "s" }
    );
    let (mut passed, mut failed, mut skipped) = (0, 0, Vec::new());
    let skips_fail = skips_fail();
    for (name, test) in selected {
        match std::panic::catch_unwind(test) {
            Ok(Outcome::Passed) => {
                passed += 1;
                println!("test {name} ... ok");
            }
            Ok(Outcome::Skipped(why)) if skips_fail => {
                failed += 1;
                println!("test {name} ... FAILED: skipped under {REQUIRE_EXTERNAL}=1: {why}");
            }
            Ok(Outcome::Skipped(why)) => {
                println!("test {name} ... SKIPPED: {why}");
                skipped.push(format!("{name}: {why}"));
            }
            Err(_) => {
                failed += 1;
                println!("test {name} ... FAILED");
            }
        }
    }
    println!(
        "\ntest result: {}. {passed} passed; {failed} failed; {} skipped\n",
        if failed == 0 { "ok" } else { "FAILED" },
        skipped.len()
    );
    for s in &skipped {
        println!("SKIPPED {s}");
    }
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
