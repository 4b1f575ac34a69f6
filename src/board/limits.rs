//! The supported sides and the words a side's layout needs: the leaf every other part of the
//! board (the geometry, the shared path, the size value, the tables) builds on, so that none
//! of them reaches another for these.

/// Smallest supported side length.
pub const MIN_SIZE: usize = 2;

/// Largest supported side length.
pub const MAX_SIZE: usize = 19;

/// Number of 64-bit words the layout of an `n x n` board needs (rows of `n + 1` bits, the last
/// row's guard bit left out; see `Geometry`).
#[must_use]
pub const fn words_for(n: usize) -> usize {
    (n * (n + 1) - 1).div_ceil(64)
}
