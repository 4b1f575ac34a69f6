use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    // `katago analysis`'s flags, which KataGo front ends pass, are dropped with a note.
    let (args, notes) = tengen::cli::without_katago_flags(std::env::args_os().collect());
    for n in notes {
        eprintln!("{n}");
    }
    let cli = tengen::cli::Cli::parse_from(args);
    match tengen::cli::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tengen: {e:#}");
            ExitCode::FAILURE
        }
    }
}
