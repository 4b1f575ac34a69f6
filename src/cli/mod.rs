//! Command-line interface: argument types (clap) and the subcommands behind them.

mod bench;

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
    /// Measure light random playouts per second.
    Bench(bench::BenchArgs),
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Some(Command::Bench(a)) => bench::run(&a),
        None => anyhow::bail!("no command given (try `tengen bench` or `tengen --help`)"),
    }
}
