//! Command-line interface: argument types (clap) and the subcommands behind them.
//!
//! `bench` and `profile` share [`bench::BenchArgs`]; `progress` draws the progress bar both use.

mod analysis;
mod bench;
mod gtp;
mod r#match;
mod model;
mod output;
mod policy_args;
mod profile;
mod progress;
mod tune;

pub use analysis::{without_katago_flags, AnalysisArgs};
pub use bench::BenchArgs;
pub use gtp::GtpArgs;
pub use policy_args::PolicyArgs;
pub use profile::ProfileArgs;
pub use r#match::MatchArgs;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// tengen: a Monte-Carlo Go engine built around a bit-parallel playout kernel.
#[derive(Parser, Debug)]
#[command(name = "tengen", version, about, disable_help_subcommand = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Measure light random playouts per second (the reference benchmark).
    Bench(BenchArgs),
    /// Run the bench workload under a sampling profiler and write a flamegraph.
    Profile(ProfileArgs),
    /// Play Go over GTP on stdin/stdout (the default with no subcommand).
    Gtp(GtpArgs),
    /// Play games between two GTP engines and report the win rate and Elo difference.
    Match(MatchArgs),
    /// Analyse positions over KataGo's JSON analysis protocol on stdin/stdout.
    Analysis(AnalysisArgs),
    /// Fit the move model on game records, or measure its prediction rate.
    Model(model::ModelArgs),
    /// Tune an engine's numeric flags by self-play (SPSA over pairs of games).
    Tune(tune::TuneArgs),
    /// Print the help of tengen or of one of its commands (`tengen help bench`).
    Help {
        /// The command to describe.
        command: Option<String>,
    },
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Some(Command::Bench(a)) => bench::run(&a),
        Some(Command::Profile(a)) => profile::run(&a),
        Some(Command::Gtp(a)) => gtp::run(&a),
        Some(Command::Match(a)) => r#match::run(&a),
        Some(Command::Analysis(a)) => analysis::run(&a),
        Some(Command::Model(a)) => model::run(&a),
        Some(Command::Tune(a)) => tune::run(&a),
        Some(Command::Help { command }) => help(command.as_deref()),
        None => gtp::run(&GtpArgs::default()),
    }
}

/// `tengen help [COMMAND]`: clap's own help subcommand refuses `help --help`, this one is a
/// command like the others.
fn help(command: Option<&str>) -> anyhow::Result<ExitCode> {
    let mut cli = <Cli as clap::CommandFactory>::command();
    let target = match command {
        None => &mut cli,
        Some(name) => {
            let names: Vec<String> = cli
                .get_subcommands()
                .map(|c| c.get_name().to_string())
                .collect();
            cli.find_subcommand_mut(name).ok_or_else(|| {
                anyhow::anyhow!(
                    "no command named `{name}`: the commands are {}",
                    names.join(", ")
                )
            })?
        }
    };
    target.print_long_help()?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `tengen help --help` describes `help`, as any command's `--help` does (issue 39,
    /// item 14); `help COMMAND` names the command.
    #[test]
    fn help_is_a_command_like_the_others() {
        let e = Cli::try_parse_from(["tengen", "help", "--help"]).unwrap_err();
        assert_eq!(e.kind(), clap::error::ErrorKind::DisplayHelp);
        assert!(e.to_string().contains("Print the help of tengen"), "{e}");
        match Cli::try_parse_from(["tengen", "help", "bench"])
            .unwrap()
            .command
        {
            Some(Command::Help { command }) => assert_eq!(command.as_deref(), Some("bench")),
            other => panic!("{other:?}"),
        }
        assert!(help(Some("nonsense"))
            .unwrap_err()
            .to_string()
            .contains("the commands are bench, profile, gtp, match, analysis, model, tune, help"));
    }
}
