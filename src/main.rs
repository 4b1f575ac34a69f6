use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = tengen::cli::Cli::parse();
    match tengen::cli::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tengen: {e:#}");
            ExitCode::FAILURE
        }
    }
}
