//! [`MoveRule`]: a restriction on one colour's moves near the root of a search, in board
//! coordinates (the analysis commands' `avoid` and `allow`; [`crate::mcts::Restrictions`] is
//! the search's form).

use crate::board::Color;
use crate::game::VertexMove;
pub use crate::mcts::RuleKind;

/// `color` may not play `moves` ([`RuleKind::Avoid`]), or may play only `moves`
/// ([`RuleKind::Allow`]), at the first `until_depth` plies of the search: ply 0 is the move at
/// the root, ply 1 the reply, and so on, so `until_depth = 1` restricts only the root's move
/// and `3` the root player's moves at plies 0 and 2 (when `color` is to move at the root).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRule {
    pub color: Color,
    pub kind: RuleKind,
    pub moves: Vec<VertexMove>,
    pub until_depth: u32,
}
