//! Random playouts on the board kernel.
//!
//! [`light`] is the reference light playout of the benchmark: uniform among legal, non-eyelike
//! moves, simple ko, pass only when nothing is left, area scoring. [`heavy`] adds the presets'
//! playout policies (atari and two-liberty urgencies, real eyes, 3x3 [`patterns`],
//! last-good-reply, mercy rule, constant temperature), each switchable. [`batch`] runs batches
//! of playouts on threads (the `tengen bench` workload). [`lanes`] plays the light playout on
//! the bit-parallel lane kernel, several games side by side in a thread.

pub mod batch;
pub mod heavy;
pub mod lanes;
pub mod light;
pub mod patterns;

pub use heavy::{heavy_playout, EyeRule, HeavyPlayout, Lgr, MoveLog, Policy, PolicyTables};
pub use light::{
    light_playout, light_playout_with, light_playout_without_areas, playout_score, random_move,
    Outcome, PlayoutConfig, Score,
};
