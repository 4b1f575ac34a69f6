//! Time control: what the controller told us (`time_settings`, `kgs-time_settings`,
//! `time_left`) and how long to think about the next move.

use crate::board::{ByColor, Color};
use std::time::Duration;

/// The time system of the game.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum TimeSystem {
    /// No time limit: the engine's own per-move limits apply.
    #[default]
    None,
    /// `main` seconds for the whole game.
    Absolute { main: f64 },
    /// Main time, then `periods` periods of `period` seconds (a move inside a period keeps it).
    Byoyomi {
        main: f64,
        period: f64,
        periods: u32,
    },
    /// Main time, then `stones` moves in every `byo` seconds.
    Canadian { main: f64, byo: f64, stones: u32 },
}

impl TimeSystem {
    /// The system meant by GTP `time_settings main byo stones`: `byo > 0, stones = 0` means no
    /// limit; `byo = 0` is absolute time; otherwise Canadian byo-yomi.
    #[must_use]
    pub fn from_gtp(main: f64, byo: f64, stones: u32) -> TimeSystem {
        if byo > 0.0 && stones == 0 {
            TimeSystem::None
        } else if byo <= 0.0 {
            TimeSystem::Absolute { main }
        } else {
            TimeSystem::Canadian { main, byo, stones }
        }
    }
}

/// Clocks of both players.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Clock {
    pub system: TimeSystem,
    /// Last known time left and stones (or periods) left per colour: from `time_left`, or
    /// from the settings, minus our own thinking time since.
    left: ByColor<Option<(f64, u32)>>,
}

/// Seconds kept in reserve for transmission and process lag.
const LAG: f64 = 0.3;

impl Clock {
    /// New settings; both clocks start full.
    pub fn set(&mut self, system: TimeSystem) {
        let start = match system {
            TimeSystem::None => None,
            TimeSystem::Absolute { main } => Some((main, 0)),
            TimeSystem::Byoyomi {
                main,
                period,
                periods,
            } => Some(if main > 0.0 {
                (main, 0)
            } else {
                (period, periods)
            }),
            TimeSystem::Canadian { main, byo, stones } => {
                Some(if main > 0.0 { (main, 0) } else { (byo, stones) })
            }
        };
        *self = Clock {
            system,
            left: ByColor([start; 2]),
        };
    }

    /// `time_left c time stones`.
    pub fn time_left(&mut self, c: Color, time: f64, stones: u32) {
        self.left[c] = Some((time.max(0.0), stones));
    }

    /// Accounts `spent` seconds of our own thinking (until the controller tells us better).
    pub fn spend(&mut self, c: Color, spent: f64) {
        if let Some((t, s)) = self.left[c] {
            let t = t - spent;
            self.left[c] = Some(match self.system {
                TimeSystem::Canadian { byo, stones, .. } if t <= 0.0 && s == 0 => (byo, stones),
                TimeSystem::Canadian { byo, stones, .. } if s == 1 => (byo, stones),
                TimeSystem::Canadian { .. } if s > 1 => (t, s - 1),
                TimeSystem::Byoyomi {
                    period, periods, ..
                } if t <= 0.0 && s == 0 => (period, periods),
                TimeSystem::Byoyomi { period, .. } if s > 0 => (period, s),
                _ => (t, s),
            });
        }
    }

    /// Thinking time for `c`'s next move, or `None` without a time limit. `moves_left` is an
    /// estimate of the moves `c` still has to play.
    #[must_use]
    pub fn budget(&self, c: Color, moves_left: u32) -> Option<Duration> {
        let (t, s) = self.left[c]?;
        let moves_left = f64::from(moves_left.max(1));
        let secs = match self.system {
            TimeSystem::None => return None,
            TimeSystem::Absolute { .. } => (t - LAG) / moves_left,
            TimeSystem::Canadian { byo, stones, .. } => {
                if s > 0 {
                    (t - LAG) / f64::from(s)
                } else {
                    let overtime = (byo - LAG).max(0.0) / f64::from(stones.max(1));
                    (t - LAG) / moves_left + 0.5 * overtime
                }
            }
            TimeSystem::Byoyomi { period, .. } => {
                if s > 0 {
                    (t.min(period) - LAG) * 0.85
                } else {
                    (t - LAG) / moves_left + 0.5 * (period - LAG).max(0.0)
                }
            }
        };
        Some(Duration::from_secs_f64(secs.clamp(0.02, 3600.0)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets() {
        let mut c = Clock::default();
        assert_eq!(c.budget(Color::Black, 30), None);
        c.set(TimeSystem::from_gtp(60.0, 0.0, 0));
        let b = c.budget(Color::Black, 30).unwrap().as_secs_f64();
        assert!((1.9..2.1).contains(&b), "{b}");
        c.time_left(Color::Black, 0.1, 0);
        assert_eq!(c.budget(Color::Black, 30), Some(Duration::from_millis(20)));
        c.set(TimeSystem::from_gtp(0.0, 30.0, 10));
        let b = c.budget(Color::White, 30).unwrap().as_secs_f64();
        assert!((2.9..3.0).contains(&b), "{b}");
        c.spend(Color::White, 2.0);
        c.time_left(Color::White, 28.0, 9);
        assert!(c.budget(Color::White, 30).unwrap().as_secs_f64() < 3.2);
        assert_eq!(TimeSystem::from_gtp(10.0, 5.0, 0), TimeSystem::None);
        c.set(TimeSystem::Byoyomi {
            main: 0.0,
            period: 10.0,
            periods: 3,
        });
        let b = c.budget(Color::Black, 30).unwrap().as_secs_f64();
        assert!((8.0..9.0).contains(&b), "{b}");
    }
}
