//! `tengen tune`: tunes an engine's numeric flags by self-play with SPSA ([`spsa`]).
//!
//! The engine is a command line with a `{NAME}` placeholder for each parameter (and
//! optionally `{seed}`, replaced by a fresh number for each engine and iteration). Each
//! iteration plays one pair of games, colours swapped, between the command filled with the
//! trial's plus values and with its minus values, through `tengen match`'s game loop (every
//! move checked by our own rules). Every finished iteration is appended to the `--out` log
//! (a tab-separated table) and flushed, so a stopped run loses at most the iterations in
//! flight, and `--continue` takes it up from its last line.

mod spsa;

use super::r#match::{play_unrecorded, MatchArgs};
use crate::board::BoardSize;
use crate::rng::splitmix64;
use anyhow::{bail, Context};
use clap::Args;
use spsa::{Param, Spsa, Trial};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Largest `--out` log `--continue` reads (a line is well under 1 KB).
const MAX_LOG_BYTES: u64 = 64 << 20;

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The engine's command line, with `{NAME}` where each parameter's value goes and
    /// optionally `{seed}` (a fresh seed for each engine and iteration), e.g.
    /// "tengen gtp --size 9 --quiet --playouts 2000 --rave-k {rave_k} --seed {seed}".
    #[arg(long)]
    pub engine: String,
    /// A parameter: NAME=START:MIN:MAX:STEP, STEP being how far a trial moves it each way at
    /// first. Whole numbers throughout make a whole-number parameter. Repeat for more.
    #[arg(long = "param", required = true, value_name = "SPEC", value_parser = parse_param)]
    pub params: Vec<Param>,
    /// Iterations (pairs of games) in all, including those a `--continue` finds done.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub iterations: u64,
    /// The log: one tab-separated line per iteration. An existing file is refused unless
    /// `--continue` is given.
    #[arg(long)]
    pub out: PathBuf,
    /// Go on from the last line of the `--out` log (its parameters must be the same).
    #[arg(long = "continue")]
    pub resume: bool,
    /// The gain: the largest move of a parameter in one iteration is about this many steps
    /// times 0.5 at first (more than 0, at most 10).
    #[arg(long, default_value_t = 0.5, value_parser = rate)]
    pub rate: f64,
    /// Seed of the perturbations' signs (and of the `{seed}` placeholder).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Board size: 2 to 19.
    #[arg(long, default_value = "9", value_parser = crate::values::board_size)]
    pub size: BoardSize,
    /// Komi, as `tengen match` takes it.
    #[arg(long, default_value_t = 7.5, allow_negative_numbers = true,
          value_parser = crate::values::komi)]
    pub komi: f32,
    /// Command line of a referee engine for games that end in two passes (e.g. GNU Go);
    /// without it, our own area count with the dead-stone estimate.
    #[arg(long)]
    pub referee: Option<String>,
    /// Iterations played at the same time, from the same values (1 or 2).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=2))]
    pub parallel: u32,
    /// A command without response for this long counts as a crash (seconds, more than 0).
    #[arg(long, default_value_t = 600.0, value_parser = crate::values::positive_seconds)]
    pub timeout: f64,
    /// Show the engines' stderr instead of discarding it.
    #[arg(long)]
    pub show_stderr: bool,
}

fn parse_param(s: &str) -> Result<Param, String> {
    s.parse()
}

/// The gain: a number above 0 and at most 10.
fn rate(s: &str) -> Result<f64, crate::values::BadValue> {
    crate::values::positive_up_to(s, "a gain", 10.0)
}

/// The log's header line.
fn header(params: &[Param]) -> String {
    let mut h = String::from("iteration\tpoints_plus");
    for p in params {
        h.push('\t');
        h.push_str(&p.name);
    }
    h
}

/// The command line of `template` with `values` and `seed` in place.
fn fill(template: &str, params: &[Param], values: &[f64], seed: u64) -> String {
    let mut cmd = template.replace("{seed}", &(seed >> 33).to_string());
    for (p, &v) in params.iter().zip(values) {
        cmd = cmd.replace(&format!("{{{}}}", p.name), &p.format(v));
    }
    cmd
}

/// Checks that the template names every parameter and nothing else.
fn check_template(template: &str, params: &[Param]) -> anyhow::Result<()> {
    for (i, p) in params.iter().enumerate() {
        if params[..i].iter().any(|q| q.name == p.name) {
            bail!("the parameter `{}` is given twice", p.name);
        }
        if !template.contains(&format!("{{{}}}", p.name)) {
            bail!(
                "the engine command has no `{{{}}}` for the parameter `{}`",
                p.name,
                p.name
            );
        }
    }
    let rest = fill(template, params, &vec![0.0; params.len()], 0);
    if let Some(at) = rest.find('{') {
        let end = rest[at..].find('}').map_or(rest.len(), |e| at + e + 1);
        bail!(
            "the engine command's `{}` is no parameter (they are {}, and `{{seed}}`)",
            &rest[at..end],
            params
                .iter()
                .map(|p| format!("`{{{}}}`", p.name))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    Ok(())
}

/// The iterations done and the values after the last, from an earlier run's log.
fn read_log(args: &TuneArgs) -> anyhow::Result<(u64, Vec<f64>)> {
    let path = &args.out;
    let len = std::fs::metadata(path)
        .with_context(|| format!("cannot read {} to continue", path.display()))?
        .len();
    if len > MAX_LOG_BYTES {
        bail!(
            "{} is {len} bytes, more than a tuning log's {MAX_LOG_BYTES}",
            path.display()
        );
    }
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read {} to continue", path.display()))?;
    let mut lines = text.lines();
    let want = header(&args.params);
    if lines.next() != Some(want.as_str()) {
        bail!(
            "{} is not the log of these parameters: its first line is not `{}`",
            path.display(),
            want.replace('\t', " ")
        );
    }
    let Some(last) = lines.rfind(|l| !l.trim().is_empty()) else {
        return Ok((0, args.params.iter().map(|p| p.start).collect()));
    };
    let fields: Vec<&str> = last.split('\t').collect();
    let parsed: Option<(u64, Vec<f64>)> = (fields.len() == 2 + args.params.len())
        .then(|| {
            let k = fields[0].parse::<u64>().ok()?;
            let theta = fields[2..]
                .iter()
                .map(|f| f.parse::<f64>().ok().filter(|x| x.is_finite()))
                .collect::<Option<Vec<f64>>>()?;
            Some((k, theta))
        })
        .flatten();
    let Some((k, theta)) = parsed else {
        bail!(
            "{}: its last line `{last}` is not an iteration of these parameters",
            path.display()
        );
    };
    Ok((k, theta))
}

/// Plays trial `t`'s pair of games; returns the plus engine's mean points less the minus's.
fn play_trial(args: &TuneArgs, s: &Spsa, t: &Trial) -> anyhow::Result<f64> {
    let seed = |side: u64| splitmix64(args.seed ^ splitmix64(t.k.wrapping_mul(2) + side));
    let m = MatchArgs {
        a: Some(fill(&args.engine, &s.params, &t.plus, seed(0))),
        b: fill(&args.engine, &s.params, &t.minus, seed(1)),
        games: 2,
        size: args.size,
        komi: args.komi,
        seconds: None,
        referee: args.referee.clone(),
        sgf_dir: PathBuf::new(),
        overwrite: false,
        resume: false,
        max_moves: None,
        timeout: args.timeout,
        show_stderr: args.show_stderr,
        preset: None,
        parallel: 1,
        playouts: None,
    };
    let points = play_unrecorded(&m, &[0, 1])?;
    let plus: f64 = points.iter().sum();
    Ok(plus - 1.0)
}

/// Runs `tengen tune`.
pub fn run(args: &TuneArgs) -> anyhow::Result<ExitCode> {
    check_template(&args.engine, &args.params)?;
    let mut spsa = Spsa::new(args.params.clone(), args.rate, args.iterations, args.seed);
    let mut log: File = if args.resume {
        let (k, theta) = read_log(args)?;
        spsa.k = k;
        for ((t, v), p) in spsa.theta.iter_mut().zip(theta).zip(&args.params) {
            *t = v.clamp(p.min, p.max);
        }
        eprintln!(
            "{k} iterations in {}; going on from {spsa}",
            args.out.display()
        );
        OpenOptions::new()
            .append(true)
            .open(&args.out)
            .with_context(|| format!("cannot append to {}", args.out.display()))?
    } else {
        // `create_new`: an existing file, a user's or an earlier run's, is never overwritten.
        let mut f = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&args.out)
            .with_context(|| {
                format!(
                    "cannot create {} (an existing log is taken up with --continue, never \
                     overwritten)",
                    args.out.display()
                )
            })?;
        writeln!(f, "{}", header(&args.params))
            .with_context(|| format!("cannot write {}", args.out.display()))?;
        f
    };
    while spsa.k < args.iterations {
        let n = u64::from(args.parallel).min(args.iterations - spsa.k);
        let trials: Vec<Trial> = (spsa.k..spsa.k + n).map(|k| spsa.trial(k)).collect();
        let results: Vec<anyhow::Result<f64>> = std::thread::scope(|scope| {
            let handles: Vec<_> = trials
                .iter()
                .map(|t| {
                    let s = &spsa;
                    scope.spawn(move || play_trial(args, s, t))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err(anyhow::anyhow!("a game thread panicked")))
                })
                .collect()
        });
        for (t, r) in trials.iter().zip(results) {
            let d = r?;
            spsa.update(t, d);
            let mut line = format!("{}\t{}", spsa.k, d + 1.0);
            for v in &spsa.theta {
                line.push_str(&format!("\t{v}"));
            }
            writeln!(log, "{line}")
                .and_then(|()| log.flush())
                .with_context(|| format!("cannot append to {}", args.out.display()))?;
            eprintln!(
                "iteration {}/{}: plus scored {} of 2 | {spsa}",
                spsa.k,
                args.iterations,
                d + 1.0
            );
        }
    }
    println!("after {} iterations: {spsa}", spsa.k);
    println!(
        "engine: {}",
        fill(&args.engine, &spsa.params, &spsa.theta, args.seed)
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(specs: &[&str]) -> Vec<Param> {
        specs.iter().map(|s| s.parse().unwrap()).collect()
    }

    #[test]
    fn the_template_must_name_every_parameter_and_nothing_else() {
        let ps = params(&["rave_k=300:50:2000:100", "w=0.5:0:1:0.1"]);
        check_template("e --rave-k {rave_k} --w {w} --seed {seed}", &ps).unwrap();
        let e = check_template("e --rave-k {rave_k}", &ps).unwrap_err();
        assert!(e.to_string().contains("no `{w}`"), "{e}");
        let e = check_template("e {rave_k} {w} {other}", &ps).unwrap_err();
        assert!(e.to_string().contains("`{other}` is no parameter"), "{e}");
        let twice = params(&["a=1:0:2:1", "a=1:0:2:1"]);
        assert!(check_template("{a}", &twice).is_err());
        assert_eq!(fill("x {rave_k} {w}", &ps, &[312.4, 0.25], 0), "x 312 0.25");
    }
}
