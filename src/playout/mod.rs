//! Random playouts on the board kernel.
//!
//! [`light`] is the reference light playout of the benchmark: uniform among legal, non-eyelike
//! moves, simple ko, pass only when nothing is left, area scoring. [`policy`] adds the seed
//! papers' playout policies (atari and two-liberty urgencies, real eyes, 3x3 [`patterns`],
//! last-good-reply, mercy rule, constant temperature), each switchable. [`batch`] runs batches
//! of playouts on threads (the `tengen bench` workload).

pub mod batch;
pub mod light;
pub mod patterns;
pub mod policy;
pub mod select;

pub use light::{light_playout, Outcome, PlayoutConfig, PlayoutState};
pub use policy::{heavy_playout, EyeRule, Lgr, MoveLog, Policy, PolicyTables};
#[cfg(target_arch = "x86_64")]
pub use select::Bmi2;
pub use select::{BitSelect, Portable};
