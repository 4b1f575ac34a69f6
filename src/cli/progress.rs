//! A progress bar on stderr while a bench or another long run goes, drawn only when stderr is a
//! terminal.
//!
//! The work runs on a scoped thread; this thread polls its progress (for a bench,
//! [`Progress::done`]) and redraws. On a pipe or a file nothing is drawn and the work runs on
//! the calling thread.

use crate::playout::batch::{self, BenchConfig, BenchError, BenchStats, Limit, Progress};
use std::io::{IsTerminal, Write};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// How often the main thread looks at the workers.
const POLL: Duration = Duration::from_millis(10);
/// How often the bar is redrawn.
const REDRAW: Duration = Duration::from_millis(100);
/// Runs shorter than this never show a bar.
const QUIET_START: Duration = Duration::from_millis(200);
/// Width of the bar itself, in cells.
const WIDTH: usize = 30;

/// Runs `cfg`, with a progress bar on stderr if stderr is a terminal.
pub fn run_bench(cfg: &BenchConfig) -> Result<BenchStats, BenchError> {
    let progress = Progress::default();
    run_with_bar(
        || batch::run(cfg, &progress),
        |elapsed| bench_status(cfg.limit, progress.done.load(Ordering::Relaxed), elapsed),
    )
}

/// Runs `work` on a scoped thread and, if stderr is a terminal, draws the bar that `status`
/// gives for the elapsed time (the fraction done, from 0 to 1, and a detail) until it ends.
pub fn run_with_bar<T: Send>(
    work: impl FnOnce() -> T + Send,
    status: impl Fn(Duration) -> (f64, String),
) -> T {
    if !std::io::stderr().is_terminal() {
        return work();
    }
    std::thread::scope(|s| {
        let worker = s.spawn(work);
        let start = Instant::now();
        let mut last_draw: Option<Instant> = None;
        while !worker.is_finished() {
            std::thread::sleep(POLL);
            let now = Instant::now();
            let due = last_draw.map_or(now - start >= QUIET_START, |t| now - t >= REDRAW);
            if due {
                let (fraction, detail) = status(now - start);
                draw(&bar(fraction, &detail));
                last_draw = Some(now);
            }
        }
        if last_draw.is_some() {
            draw("");
        }
        worker
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// Replaces the current stderr line with `line` (no newline; the empty string erases it).
fn draw(line: &str) {
    let mut e = std::io::stderr().lock();
    let _ = write!(e, "\r{line}\x1b[K");
    let _ = e.flush();
}

/// How far a bench is after `done` playouts and `elapsed`, and the bar's detail: drawn as
/// `[#########.....................]  31%  62016/200000 playouts  0.6 s`.
fn bench_status(limit: Limit, done: u64, elapsed: Duration) -> (f64, String) {
    let t = elapsed.as_secs_f64();
    let (fraction, detail) = match limit {
        Limit::Playouts(n) => (
            done as f64 / n as f64,
            format!("{done}/{n} playouts  {t:.1} s"),
        ),
        Limit::Seconds(s) => (t / s, format!("{done} playouts  {t:.1}/{s} s")),
    };
    (fraction, detail)
}

/// A bar `fraction` full (clamped to 0..=1), its percentage and `detail`.
fn bar(fraction: f64, detail: &str) -> String {
    let fraction = fraction.clamp(0.0, 1.0);
    let filled = (fraction * WIDTH as f64) as usize;
    format!(
        "[{}{}] {:>3}%  {detail}",
        "#".repeat(filled),
        ".".repeat(WIDTH - filled),
        (fraction * 100.0) as u32
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bar_for_a_playout_count() {
        let (f, d) = bench_status(Limit::Playouts(200), 50, Duration::from_millis(1500));
        let s = bar(f, &d);
        assert_eq!(
            s,
            "[#######.......................]  25%  50/200 playouts  1.5 s"
        );
    }

    #[test]
    fn bar_for_a_time_limit_never_overflows() {
        let (f, d) = bench_status(Limit::Seconds(2.0), 7, Duration::from_secs(3));
        let s = bar(f, &d);
        assert_eq!(
            s,
            "[##############################] 100%  7 playouts  3.0/2 s"
        );
    }
}
