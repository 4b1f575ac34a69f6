//! `tengen analysis`: the JSON analysis protocol on stdin and stdout (see [`crate::analysis`]).

use super::gtp::{large_model_arg, max_nodes, playouts, seed, threads, LargeModelArg};
use super::{GtpArgs, PolicyArgs};
use crate::analysis::{self, Settings, DEFAULT_VISITS};
use crate::engine::Params;
use crate::values;
use clap::Args;
use std::ffi::OsString;
use std::process::ExitCode;

/// The search options of `tengen analysis` (a request's `maxVisits` overrides `--playouts`).
#[derive(Args, Debug, Clone, PartialEq)]
pub struct AnalysisArgs {
    /// Visits per analysed turn when a request gives no `maxVisits`.
    #[arg(long, default_value_t = DEFAULT_VISITS, value_parser = playouts,
          allow_negative_numbers = true)]
    pub playouts: u64,
    /// At most this many seconds per analysed turn.
    #[arg(long, value_parser = values::positive_seconds, allow_negative_numbers = true)]
    pub seconds: Option<f64>,
    /// Search threads on the shared tree.
    #[arg(long, default_value_t = 1, value_parser = threads, allow_negative_numbers = true)]
    pub threads: u32,
    /// Tree size limit in nodes.
    #[arg(long, default_value_t = Params::default().max_nodes as u64, value_parser = max_nodes,
          allow_negative_numbers = true)]
    pub max_nodes: u64,
    /// Seed of the playout generators.
    #[arg(long, default_value_t = Params::default().seed, value_parser = seed,
          allow_negative_numbers = true)]
    pub seed: u64,
    /// The move model's table on 13x13 and larger boards: `nine`, `lines`, `records` or
    /// `large`, as `tengen gtp --model-19x19` says. [default: lines]
    #[arg(long, value_name = "nine|lines|records|large", value_parser = large_model_arg)]
    pub model_19x19: Option<LargeModelArg>,
    #[command(flatten)]
    pub policy: PolicyArgs,
}

impl AnalysisArgs {
    /// The engine and limits: `gtp`'s, from the same preset and flags.
    #[must_use]
    pub fn settings(&self) -> Settings {
        let gtp = GtpArgs {
            playouts: Some(self.playouts),
            seconds: self.seconds,
            threads: self.threads,
            max_nodes: self.max_nodes,
            seed: self.seed,
            policy: self.policy.clone(),
            model_19x19: self.model_19x19,
            ..GtpArgs::default()
        }
        .settings();
        Settings {
            config: gtp.config,
            limits: gtp.limits,
        }
    }
}

/// What `tengen analysis` prints on stderr once it reads requests: KataGo's words, which
/// front ends that start an analysis engine wait for.
pub const READY: &str = "Started, ready to begin handling requests";

/// KataGo's own flags of `katago analysis`, each with a value, which front ends pass to the
/// engine they start: accepted after `analysis` and ignored.
const KATAGO_FLAGS: &[&str] = &["-config", "-model", "-override-config", "-human-model"];

/// The command line `args` (program name first) without KataGo's flags of `analysis`
/// ([`KATAGO_FLAGS`] and their values, or `-flag=value`), and a note for each flag dropped.
/// Other command lines are returned as they are.
#[must_use]
pub fn without_katago_flags(args: Vec<OsString>) -> (Vec<OsString>, Vec<String>) {
    if args.get(1).and_then(|a| a.to_str()) != Some("analysis") {
        return (args, Vec::new());
    }
    let mut kept = Vec::with_capacity(args.len());
    let mut notes = Vec::new();
    let mut args = args.into_iter();
    while let Some(a) = args.next() {
        let text = a.to_str().unwrap_or("");
        let (flag, inline) = match text.split_once('=') {
            Some((f, v)) => (f, Some(v.to_string())),
            None => (text, None),
        };
        if !KATAGO_FLAGS.contains(&flag) {
            kept.push(a);
            continue;
        }
        let value = inline.or_else(|| args.next().map(|v| v.to_string_lossy().into_owned()));
        notes.push(match value {
            Some(v) => format!(
                "tengen analysis: ignoring KataGo's {flag} {v} (tengen has no config file or \
                 network; its options are --playouts, --seconds, --threads and the others of \
                 `tengen analysis --help`)"
            ),
            None => format!("tengen analysis: ignoring KataGo's {flag}, given without a value"),
        });
    }
    (kept, notes)
}

/// Runs the protocol on stdin and stdout.
pub fn run(a: &AnalysisArgs) -> anyhow::Result<ExitCode> {
    let stdin = std::io::BufReader::new(std::io::stdin());
    let settings = a.settings();
    eprintln!("{READY}");
    analysis::run(&settings, stdin, std::io::stdout())?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn args(a: &[&str]) -> Vec<OsString> {
        a.iter().map(OsString::from).collect()
    }

    /// `katago analysis`'s flags, as KaTrain and katagoanal pass them, are dropped with a note
    /// each; nothing else is touched.
    #[test]
    fn katago_flags_are_dropped_with_a_note() {
        let (kept, notes) = without_katago_flags(args(&[
            "tengen",
            "analysis",
            "-model",
            "m.bin.gz",
            "--playouts",
            "300",
            "-config",
            "a.cfg",
            "-override-config",
            "homeDataDir=/tmp",
            "-human-model=h.bin.gz",
        ]));
        assert_eq!(kept, args(&["tengen", "analysis", "--playouts", "300"]));
        assert_eq!(notes.len(), 4);
        assert!(notes[0].contains("-model m.bin.gz"), "{notes:?}");
        assert!(
            notes[2].contains("-override-config homeDataDir=/tmp"),
            "{notes:?}"
        );
        assert!(notes[3].contains("-human-model h.bin.gz"), "{notes:?}");
        let (kept, notes) = without_katago_flags(args(&["tengen", "analysis", "-config"]));
        assert_eq!(kept, args(&["tengen", "analysis"]));
        assert!(notes[0].contains("without a value"));
        // Only `analysis` takes them.
        let gtp = args(&["tengen", "gtp", "-config", "a.cfg"]);
        assert_eq!(without_katago_flags(gtp.clone()), (gtp, Vec::new()));
        let cli = crate::cli::Cli::try_parse_from(
            without_katago_flags(args(&["tengen", "analysis", "-config", "x", "-model", "y"])).0,
        );
        assert!(cli.is_ok(), "{cli:?}");
    }
}
