//! Command-line interface: argument types (clap) and the subcommands behind them.
//!
//! `bench` and `profile` share [`bench::BenchArgs`]; `progress` draws the progress bar both use.

mod bench;
mod gtp;
mod r#match;
mod policy_args;
mod profile;
mod progress;

pub use bench::BenchArgs;
pub use gtp::GtpArgs;
pub use policy_args::PolicyArgs;
pub use profile::ProfileArgs;
pub use r#match::MatchArgs;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// tengen: a Monte-Carlo Go engine built around a bit-parallel playout kernel.
#[derive(Parser, Debug)]
#[command(name = "tengen", version, about)]
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
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Some(Command::Bench(a)) => bench::run(&a),
        Some(Command::Profile(a)) => profile::run(&a),
        Some(Command::Gtp(a)) => gtp::run(&a),
        Some(Command::Match(a)) => r#match::run(&a),
        None => gtp::run(&GtpArgs::default()),
    }
}
