//! The evidence behind tengen's claims can be re-run from this repository:
//! - every commit that `README.md` and `perf/*.md` name is an ancestor of HEAD, so anyone can
//!   build the engine that made a figure (a commit on no branch, or rewritten away by a rebase,
//!   is reported with its file and line);
//! - every match record file or folder under `perf/records/` that they name is committed.
//!
//! Needs git and the repository's full history: reported as skipped in a source archive or a
//! shallow clone (tests/harness), which fails the run under CI's `TENGEN_REQUIRE_EXTERNAL=1`.

mod harness;

use harness::Outcome;
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

fn main() -> ExitCode {
    harness::run(&[
        (
            "named_commits_are_ancestors_of_head",
            named_commits_are_ancestors_of_head,
        ),
        (
            "a_commit_missing_from_history_is_reported",
            a_commit_missing_from_history_is_reported,
        ),
        ("named_records_are_committed", named_records_are_committed),
    ])
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `README.md` and every `.md` file under `perf/`, with their paths from the root.
fn evidence_files() -> Vec<(String, String)> {
    let mut paths = vec![PathBuf::from("README.md")];
    let mut dirs = vec![PathBuf::from("perf")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(root().join(&dir)).expect("perf/ is readable") {
            let name = dir.join(entry.unwrap().file_name());
            if root().join(&name).is_dir() {
                dirs.push(name);
            } else if name.extension().is_some_and(|e| e == "md") {
                paths.push(name);
            }
        }
    }
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(root().join(&p)).expect("readable");
            (p.display().to_string(), text)
        })
        .collect()
}

/// A word of the text that may name a commit.
#[derive(Debug, PartialEq)]
struct Claim {
    line: usize,
    word: String,
    /// It can only be a commit: 7 to 12 or 40 hex digits with a letter or a leading zero.
    /// Other hex words (numbers, 16-digit signatures) are checked only when git resolves them.
    certain: bool,
}

/// The words of 7 to 40 lowercase hex digits, words being runs of letters, digits and `_`.
fn claims(text: &str) -> Vec<Claim> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        for word in line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            let hex = word.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
            if !hex || !(7..=40).contains(&word.len()) {
                continue;
            }
            let short_or_full = word.len() <= 12 || word.len() == 40;
            let not_a_number = word.starts_with('0') || word.bytes().any(|b| b >= b'a');
            out.push(Claim {
                line: i + 1,
                word: word.to_string(),
                certain: short_or_full && not_a_number,
            });
        }
    }
    out
}

/// Runs git in the repository; `None` when git cannot start or fails.
fn git(args: &[&str], input: Option<&str>) -> Option<String> {
    let mut child = Command::new("git")
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut stdin = child.stdin.take().unwrap();
    let data = input.unwrap_or("").to_string();
    // A writer thread: git answers while it reads, and a full pipe must not stop either side.
    let writer = std::thread::spawn(move || stdin.write_all(data.as_bytes()));
    let out = child.wait_with_output().ok()?;
    writer.join().unwrap().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8(out.stdout).unwrap())
}

/// Why the commits cannot be checked here, if they cannot.
fn history_missing() -> Option<String> {
    let Some(shallow) = git(&["rev-parse", "--is-shallow-repository"], None) else {
        return Some(
            "git not found, or not a git checkout (a source archive): the named commits \
             cannot be checked"
                .into(),
        );
    };
    (shallow.trim() == "true").then(|| {
        "a shallow clone: the named commits' ancestry cannot be checked (git fetch --unshallow)"
            .into()
    })
}

/// The problems with the commits that `files` (path, text) name: one line each, with the file,
/// the line and the hash.
fn check_commits(files: &[(String, String)]) -> Vec<String> {
    let ancestors: HashSet<String> = git(&["rev-list", "HEAD"], None)
        .expect("git rev-list HEAD")
        .lines()
        .map(str::to_string)
        .collect();
    let all: Vec<(&str, Claim)> = files
        .iter()
        .flat_map(|(path, text)| claims(text).into_iter().map(move |c| (path.as_str(), c)))
        .collect();
    // One `git cat-file` for every word: `<word>^{commit}` resolves to the full hash of the
    // commit the word abbreviates, or is reported missing (or ambiguous).
    let query: String = all
        .iter()
        .map(|(_, c)| format!("{}^{{commit}}\n", c.word))
        .collect();
    let answer = git(&["cat-file", "--batch-check=%(objectname)"], Some(&query))
        .expect("git cat-file --batch-check");
    let mut problems = Vec::new();
    for ((path, claim), line) in all.iter().zip(answer.lines()) {
        let resolved = line.len() == 40 && line.bytes().all(|b| b.is_ascii_hexdigit());
        let place = format!("{path}:{}: {}", claim.line, claim.word);
        if resolved && !ancestors.contains(line) {
            problems.push(format!("{place} is commit {line}, not an ancestor of HEAD"));
        } else if !resolved && claim.certain {
            problems.push(format!(
                "{place} names no commit of this repository ({line})"
            ));
        }
    }
    assert_eq!(answer.lines().count(), all.len(), "one answer a word");
    problems
}

fn named_commits_are_ancestors_of_head() -> Outcome {
    if let Some(why) = history_missing() {
        return Outcome::Skipped(why);
    }
    let problems = check_commits(&evidence_files());
    assert!(
        problems.is_empty(),
        "commits named in README.md and perf/*.md that no one can check out from HEAD:\n{}",
        problems.join("\n")
    );
    Outcome::Passed
}

/// The check fails where it should: a made-up hash is reported with its file and line, and
/// HEAD's own hash, numbers and bench signatures are not.
fn a_commit_missing_from_history_is_reported() -> Outcome {
    if let Some(why) = history_missing() {
        return Outcome::Skipped(why);
    }
    let head = git(&["rev-parse", "--short=9", "HEAD"], None).expect("git rev-parse HEAD");
    let text = format!(
        "built at {} (tree clean)\n| 2026112501 | 7097412 moves/s | signature 5add969d23014ce3 |\n\
         the release build of 0badc0de, and of 0480484\n",
        head.trim()
    );
    let problems = check_commits(&[("perf/example.md".into(), text)]);
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].starts_with("perf/example.md:3: 0badc0de names no commit"));
    assert!(problems[1].starts_with("perf/example.md:3: 0480484 names no commit"));
    Outcome::Passed
}

/// Every `perf/records/...` path the evidence names exists in the checkout.
fn named_records_are_committed() -> Outcome {
    let mut missing = Vec::new();
    let mut named = 0;
    for (path, text) in evidence_files() {
        for (i, line) in text.lines().enumerate() {
            for (at, _) in line.match_indices("perf/records/") {
                let rest = &line[at..];
                let end = rest
                    .find(|c: char| c.is_whitespace() || "`)]|,;".contains(c))
                    .unwrap_or(rest.len());
                let named_path = rest[..end].trim_end_matches('.');
                named += 1;
                if !root().join(named_path).exists() {
                    missing.push(format!("{path}:{}: {named_path}", i + 1));
                }
            }
        }
    }
    assert!(named > 0, "perf/strength.md points at no records");
    assert!(
        missing.is_empty(),
        "records named but not committed:\n{}",
        missing.join("\n")
    );
    Outcome::Passed
}
