//! Random playouts on the board kernel.
//!
//! [`light`] is the reference light playout of the benchmark: uniform among legal, non-eyelike
//! moves, simple ko, pass only when nothing is left, area scoring.

pub mod light;
pub mod select;

pub use light::{light_playout, Outcome, PlayoutConfig, PlayoutState};
#[cfg(target_arch = "x86_64")]
pub use select::Bmi2;
pub use select::{BitSelect, Portable};
