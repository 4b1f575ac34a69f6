//! `tengen tune` end to end on 5x5 with tengen as the engine: the log gets one line per
//! iteration with the values inside their ranges, `--continue` goes on from its last line,
//! and an existing log is never overwritten.

use std::path::Path;
use std::process::{Command, Output};

fn tune(out: &Path, iterations: &str, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args([
            "tune",
            "--size",
            "5",
            "--engine",
            "tengen gtp --size 5 --quiet --playouts 100 --rave-k {rave_k} --even-prior {even} --seed {seed}",
            "--param",
            "rave_k=300:50:2000:100",
            "--param",
            "even=14:0:60:4",
            "--iterations",
            iterations,
            "--out",
        ])
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

/// The log's iteration lines, as (iteration, points of the plus engine, values).
fn lines(out: &Path) -> Vec<(u64, f64, Vec<f64>)> {
    let text = std::fs::read_to_string(out).unwrap();
    let mut it = text.lines();
    assert_eq!(it.next(), Some("iteration\tpoints_plus\trave_k\teven"));
    it.map(|l| {
        let f: Vec<&str> = l.split('\t').collect();
        assert_eq!(f.len(), 4, "{l}");
        (
            f[0].parse().unwrap(),
            f[1].parse().unwrap(),
            f[2..].iter().map(|x| x.parse().unwrap()).collect(),
        )
    })
    .collect()
}

#[test]
fn a_tuning_run_logs_each_iteration_and_goes_on_from_its_log() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tune.tsv");
    let first = tune(&out, "3", &["--parallel", "2"]);
    assert!(first.status.success(), "{first:?}");
    let log = lines(&out);
    assert_eq!(log.iter().map(|l| l.0).collect::<Vec<_>>(), [1, 2, 3]);
    for (_, points, v) in &log {
        assert!([0.0, 0.5, 1.0, 1.5, 2.0].contains(points));
        assert!(
            (50.0..=2000.0).contains(&v[0]) && (0.0..=60.0).contains(&v[1]),
            "{v:?}"
        );
    }
    // An iteration moves the values exactly when its pair of games was not split.
    let mut before = vec![300.0, 14.0];
    for (_, points, v) in &log {
        assert_eq!(*points != 1.0, *v != before, "{log:?}");
        before.clone_from(v);
    }
    let stdout = String::from_utf8_lossy(&first.stdout);
    assert!(stdout.contains("after 3 iterations: rave_k "), "{stdout}");

    // A second run without --continue leaves the log as it was.
    let before = std::fs::read(&out).unwrap();
    let again = tune(&out, "5", &[]);
    // A clean error exits with 1 (an error) or 2 (a usage error), not a panic's 101 or a signal.
    assert!(matches!(again.status.code(), Some(1 | 2)));
    assert!(String::from_utf8_lossy(&again.stderr).contains("--continue"));
    assert_eq!(std::fs::read(&out).unwrap(), before);

    // --continue plays only the missing iterations, from the last values.
    let more = tune(&out, "5", &["--continue"]);
    assert!(more.status.success(), "{more:?}");
    let log = lines(&out);
    assert_eq!(log.iter().map(|l| l.0).collect::<Vec<_>>(), [1, 2, 3, 4, 5]);
    assert!(String::from_utf8_lossy(&more.stderr).contains("3 iterations in"));
}

#[test]
fn bad_parameters_and_templates_are_refused_before_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.tsv");
    for (engine, param, says) in [
        ("e {k}", "k=5:0:2:1", "START between them"),
        ("e {k}", "k=1:0:2", "NAME=START:MIN:MAX:STEP"),
        ("e", "k=1:0:2:1", "no `{k}`"),
        ("e {k} {j}", "k=1:0:2:1", "`{j}` is no parameter"),
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_tengen"))
            .args(["tune", "--engine", engine, "--param", param, "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(matches!(o.status.code(), Some(1 | 2)));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{engine} {param}: {err}");
        assert!(!out.exists(), "{engine} {param}");
    }
}
