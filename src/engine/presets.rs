//! Named configurations (`--preset NAME` on `gtp`, `bench` and `match`): each seed system as
//! its paper describes it, and tengen's own default.
//!
//! A preset sets the playout policy and the search parameters it names; flags given with it
//! override its policy switches and its search parameters (see `cli`).

use crate::engine::player::{DynamicKomi, EngineConfig};
use crate::mcts::{Algorithm, Backup, LargeModel, PriorInto};
use crate::playout::{EyeRule, Lgr, Policy};
use clap::ValueEnum;

/// The presets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Preset {
    /// Light playouts (the kernel's reference playout) with UCT and RAVE: the engine of the
    /// kernel benchmark, and the baseline of every comparison.
    Light,
    /// Bouzy and Helmstetter's Oleg: flat Monte Carlo at the root with all-moves-as-first
    /// statistics and a constant temperature K = 2 in the playouts, no progressive pruning.
    Oleg,
    /// Bouzy and Helmstetter's Olga: flat Monte Carlo at the root with progressive pruning
    /// (r_d = 1, sigma_e = 0.2, 100 games per move before pruning), light playouts.
    Olga,
    /// Cazenave's *base* program: UCT with `mu + sqrt(log t / (10 s))` and Crazy Stone's mix
    /// backup, no RAVE, playouts that avoid surrounded points and answer ataris.
    GoloisBase,
    /// Cazenave's *base + eye + stop search*: real eyes instead of surrounded points.
    GoloisEye,
    /// Cazenave's Golois: *base + eye + stop search + playing atari* (two-liberty urgencies).
    Golois,
    /// Drake's Orego baseline: RAVE in the tree, a MoGo-like static playout policy.
    Orego,
    /// Drake's Orego with last-good-reply playouts.
    OregoLgr,
    /// The Teye report's program: UCB1-tuned with RAVE (k = 1000) and MoGo's 3x3 patterns.
    Teye,
    /// Tengen's default: UCT + RAVE with an even prior and Go knowledge in new nodes'
    /// statistics, playouts with atari urgencies, Cazenave's two-liberty ("playing atari")
    /// urgencies, 3x3 patterns and no self-atari (see `perf/strength.md`).
    Tengen,
}

impl Preset {
    /// The preset's playout policy.
    #[must_use]
    pub fn policy(self) -> Policy {
        let light = Policy::LIGHT;
        match self {
            Preset::Light | Preset::Olga => light,
            Preset::Oleg => Policy {
                temperature: 2.0,
                ..light
            },
            Preset::GoloisBase => Policy {
                eyes: EyeRule::Surrounded,
                atari: true,
                ..light
            },
            Preset::GoloisEye => Policy {
                eyes: EyeRule::Real,
                atari: true,
                ..light
            },
            Preset::Golois => Policy {
                eyes: EyeRule::Real,
                atari: true,
                two_lib: true,
                ..light
            },
            Preset::Orego => Policy {
                atari: true,
                patterns: true,
                ..light
            },
            Preset::OregoLgr => Policy {
                atari: true,
                patterns: true,
                lgr: Lgr::Lgr1,
                ..light
            },
            Preset::Teye => Policy {
                patterns: true,
                ..light
            },
            Preset::Tengen => Policy {
                atari: true,
                two_lib: true,
                patterns: true,
                no_self_atari: true,
                ..light
            },
        }
    }

    /// Applies the preset to `cfg`: its playout policy and its search parameters.
    pub fn apply(self, cfg: &mut EngineConfig) {
        cfg.policy = self.policy();
        let p = &mut cfg.params;
        match self {
            // A leaf is expanded after 8 visits, not 2: a quarter of the nodes, so the search
            // spends its time in playouts (perf/search.md), at no measured cost in strength
            // (perf/strength.md).
            Preset::Light => p.expand_after = 8,
            Preset::Tengen => {
                // 62 % [52 %, 71 %] against the same preset without them, 100 games of 9x9
                // self-play at 10k playouts a move (perf/strength.md).
                p.even_prior = 14;
                p.prior = 20;
                p.prior_into = PriorInto::Tree;
                // RAVE and the priors without an exploration term: 62 % [52 %, 71 %] against
                // the same preset with c = 0.1, 100 games of 9x9 self-play at 10k playouts a
                // move (perf/strength.md).
                p.exploration = 0.0;
                // AMAF's weight falls off faster: RAVE's equivalence k = 300, not 1000. 70 % of
                // 100 games against the same preset at k = 1000 (9x9 self-play at 10k playouts
                // a move, perf/strength.md); k = 3000 won 34 %.
                p.rave_k = 300.0;
                // The learned move model as a prior: sqrt(p) * 100 games won for each move of
                // a new node (the 9x9 model; see below for the other sizes). 77 % [68 %, 84 %]
                // of 100 games against the same preset without it (9x9 self-play at 10k
                // playouts a move, perf/strength.md), at 1.15x the thinking time.
                p.model_prior = 100;
                // The 9x9 model on the sizes without their own (its features do not depend on
                // the size): 65 of 81 games (80 % [70 %, 88 %]) against the same preset
                // without it, 19x19 self-play at 1k playouts a move (perf/strength.md).
                p.model_every_size = true;
                // Ladders read at every new node: an escape a ladder catches loses 20 games,
                // an atari whose ladder works wins 20. Against the same preset without it,
                // 76 of 100 games (76 % [67 %, 83 %]) of 19x19 self-play at 2,000 playouts a
                // move, and 58 of 100 (58 % [48 %, 67 %]) of 9x9 at 10k (perf/strength.md);
                // 1.06x the CPU of a 19x19 genmove in the middle game at 20k.
                p.prior_ladder = 20;
                // On 19x19: the lent table with its line gammas refitted on 19x19 records,
                // dynamic komi, and 100 games won for the corner points of an empty corner
                // (13x13 and up; not measured on 13x13). Against GNU Go level 10 at 20k
                // playouts a move the three together won 9 of their first 11 games, the first
                // two alone 17 of 37, and the preset without any of them 18 of 48; the series
                // goes on in perf/strength.md. No effect on 9x9.
                p.model_19x19 = LargeModel::Lines;
                cfg.dynamic_komi = DynamicKomi::Nineteen;
                p.prior_corners = 100;
            }
            Preset::Orego | Preset::OregoLgr => {}
            Preset::GoloisBase | Preset::GoloisEye | Preset::Golois => {
                // mu + sqrt(log t / (10 s)) is c = sqrt(1/10) in c * sqrt(ln t / s).
                p.exploration = 0.1f32.sqrt();
                p.rave = false;
                p.tuned = false;
                p.backup = Backup::Mix;
            }
            Preset::Oleg => {
                p.algorithm = Algorithm::Flat;
                p.amaf = true;
                p.pp = false;
            }
            Preset::Olga => {
                p.algorithm = Algorithm::Flat;
                p.pp = true;
                p.amaf = false;
                p.r_d = 1.0;
                p.sigma_e = 0.2;
                p.pp_min_games = 100;
            }
            Preset::Teye => {
                p.tuned = true;
                p.rave = true;
                p.rave_k = 1000.0;
            }
        }
    }

    /// The preset's name on the command line.
    #[must_use]
    pub fn name(self) -> String {
        self.to_possible_value()
            .map_or_else(String::new, |v| v.get_name().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_differ_and_light_is_light() {
        assert!(Preset::Light.policy().is_light());
        let all = Preset::value_variants();
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                let (mut ca, mut cb) = (EngineConfig::default(), EngineConfig::default());
                a.apply(&mut ca);
                b.apply(&mut cb);
                assert_ne!(ca, cb, "{a:?} and {b:?} are the same configuration");
            }
        }
        assert_eq!(Preset::OregoLgr.name(), "orego-lgr");
    }
}
