//! Flags choosing a preset and playout-policy switches, shared by `gtp`, `bench` and the
//! engines of `match` (through `gtp`'s flags).

use crate::engine::presets::Preset;
use crate::playout::{EyeRule, Lgr, Policy};
use crate::values::{self, BadValue};
use clap::{Args, ValueEnum};

/// `--eyes` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EyeArg {
    /// Every orthogonal neighbour own, fewer than two enemy diagonals (none on the edge).
    Eyelike,
    /// Every orthogonal neighbour an own stone not in atari; diagonals ignored.
    Surrounded,
    /// Seed 000's real eyes: surrounded, plus a diagonal rule counting unprotected empties.
    Real,
}

/// `--lgr` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LgrArg {
    Off,
    /// Last good reply.
    Lgr1,
    /// Last good reply with forgetting.
    Lgrf1,
}

/// Preset and playout policy. A switch given here overrides the preset's.
#[derive(Args, Debug, Clone, PartialEq, Default)]
pub struct PolicyArgs {
    /// Named configuration: a seed system or tengen's default (see `perf/strength.md`).
    /// `gtp` uses `tengen` unless told otherwise; `bench` runs light playouts unless told.
    #[arg(long, value_enum)]
    pub preset: Option<Preset>,
    /// Eye rule of the playouts.
    #[arg(long, value_enum)]
    pub eyes: Option<EyeArg>,
    /// Capture the previous move's string in atari; save own strings it put in atari (on/off;
    /// true/false also work, as for every switch below).
    #[arg(long, value_name = "on|off", value_parser = values::switch)]
    pub atari: Option<bool>,
    /// Probability that the atari rule is tried when it has work (0 to 1) [default: 1].
    #[arg(long, value_name = "P", value_parser = probability, allow_negative_numbers = true)]
    pub atari_rate: Option<f32>,
    /// Cazenave's two-liberty "playing atari" urgencies (on/off).
    #[arg(long, value_name = "on|off", value_parser = values::switch)]
    pub two_lib: Option<bool>,
    /// 3x3 patterns around the previous move (on/off).
    #[arg(long, value_name = "on|off", value_parser = values::switch)]
    pub patterns: Option<bool>,
    /// Probability that the pattern rule is tried (0 to 1) [default: 1].
    #[arg(long, value_name = "P", value_parser = probability, allow_negative_numbers = true)]
    pub pattern_rate: Option<f32>,
    /// The same patterns around the mover's own previous move too, when none matched around
    /// the opponent's (on/off; needs --patterns).
    #[arg(long, value_name = "on|off", value_parser = values::switch)]
    pub second_patterns: Option<bool>,
    /// Probability of a random move next to the previous move (0 to 1).
    #[arg(long, value_name = "P", value_parser = probability, allow_negative_numbers = true)]
    pub locality: Option<f32>,
    /// Refuse self-ataris of two or more stones in playouts (on/off).
    #[arg(long, value_name = "on|off", value_parser = values::switch)]
    pub no_self_atari: Option<bool>,
    /// Last-good-reply playouts.
    #[arg(long, value_enum)]
    pub lgr: Option<LgrArg>,
    /// Mercy rule: stop a playout when one side has captured this many stones more (0: off).
    #[arg(long, value_name = "N", value_parser = mercy, allow_negative_numbers = true)]
    pub mercy: Option<u32>,
    /// Constant temperature: draw random moves with probability exp(K v) (0: uniform).
    #[arg(long, value_name = "K", value_parser = temperature, allow_negative_numbers = true)]
    pub temperature: Option<f32>,
    /// Probability of playing the vital point of the opponent's small eye space (3 to 6
    /// points) next to the previous move (0 to 1; 0: never).
    #[arg(long, value_name = "P", value_parser = probability, allow_negative_numbers = true)]
    pub nakade: Option<f32>,
    /// The atari rule does not extend an own string in atari that a ladder catches (on/off;
    /// needs --atari).
    #[arg(long, value_name = "on|off", value_parser = values::switch)]
    pub ladders: Option<bool>,
    /// A random move refused as a self-atari of two or more stones is replaced by its
    /// string's one liberty when that move is acceptable (on/off; needs --no-self-atari).
    #[arg(long, value_name = "on|off", value_parser = values::switch)]
    pub redirect: Option<bool>,
}

fn probability(s: &str) -> Result<f32, BadValue> {
    values::unit_interval(s, "a probability").map(|x| x as f32)
}

fn temperature(s: &str) -> Result<f32, BadValue> {
    values::in_range(s, "a temperature constant K", 0.0, 50.0).map(|x| x as f32)
}

fn mercy(s: &str) -> Result<u32, BadValue> {
    values::count(s, "stones", 0, u64::from(u32::MAX)).map(|n| n as u32)
}

impl PolicyArgs {
    /// `base` (the preset's policy, or light) with the switches given here.
    #[must_use]
    pub fn policy(&self, base: Policy) -> Policy {
        let mut p = base;
        if let Some(e) = self.eyes {
            p.eyes = match e {
                EyeArg::Eyelike => EyeRule::Eyelike,
                EyeArg::Surrounded => EyeRule::Surrounded,
                EyeArg::Real => EyeRule::Real,
            };
        }
        if let Some(v) = self.atari {
            p.atari = v;
        }
        if let Some(v) = self.atari_rate {
            p.atari_rate = v;
        }
        if let Some(v) = self.two_lib {
            p.two_lib = v;
        }
        if let Some(v) = self.patterns {
            p.patterns = v;
        }
        if let Some(v) = self.pattern_rate {
            p.pattern_rate = v;
        }
        if let Some(v) = self.second_patterns {
            p.second_patterns = v;
        }
        if let Some(v) = self.locality {
            p.locality = v;
        }
        if let Some(v) = self.no_self_atari {
            p.no_self_atari = v;
        }
        if let Some(l) = self.lgr {
            p.lgr = match l {
                LgrArg::Off => Lgr::Off,
                LgrArg::Lgr1 => Lgr::Lgr1,
                LgrArg::Lgrf1 => Lgr::Lgrf1,
            };
        }
        if let Some(v) = self.mercy {
            p.mercy = v;
        }
        if let Some(v) = self.temperature {
            p.temperature = v;
        }
        if let Some(v) = self.nakade {
            p.nakade = v;
        }
        if let Some(v) = self.ladders {
            p.ladders = v;
        }
        if let Some(v) = self.redirect {
            p.redirect = v;
        }
        p
    }

    /// The policy of the preset (light without one) with the switches given here.
    #[must_use]
    pub fn resolved(&self) -> Policy {
        self.policy(self.preset.map_or(Policy::LIGHT, Preset::policy))
    }
}
