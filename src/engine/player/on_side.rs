//! [`OnSide`]: an engine of the shared path, which enters its board's side on every call.
//!
//! A size without its own kernel copy runs `GoEngine<0, W>` (`W` its `shared_words`), whose
//! geometry is the calling thread's side ([`crate::board::shared`]). The engine outlives the
//! [`with_size`] call that made it, so each of its methods sets the side again for the call's
//! length.
//!
//! [`with_size`]: crate::board::with_size

use super::{
    Analysis, AnalyzeOptions, Decision, Engine, EngineConfig, GenmoveOptions, StoneStatus, Watch,
};
use crate::board::shared::with_side;
use crate::board::{ByColor, Color};
use crate::engine::MoveRule;
use crate::game::{GameError, Rules, Vertex, VertexMove};
use crate::mcts::Limits;

/// `E`, run with the thread's side set to `side` during each call.
pub(super) struct OnSide<E> {
    pub side: usize,
    pub inner: E,
}

impl<E: Engine> Engine for OnSide<E> {
    fn size(&self) -> usize {
        self.side
    }
    fn komi(&self) -> f32 {
        self.inner.komi()
    }
    fn set_komi(&mut self, komi: f32) {
        with_side(self.side, || self.inner.set_komi(komi));
    }
    fn rules(&self) -> Rules {
        self.inner.rules()
    }
    fn set_rules(&mut self, rules: Rules) {
        with_side(self.side, || self.inner.set_rules(rules));
    }
    fn config(&self) -> &EngineConfig {
        self.inner.config()
    }
    fn set_config(&mut self, cfg: EngineConfig) {
        with_side(self.side, || self.inner.set_config(cfg));
    }
    fn clear(&mut self) {
        with_side(self.side, || self.inner.clear());
    }
    fn to_move(&self) -> Color {
        with_side(self.side, || self.inner.to_move())
    }
    fn stone_at(&self, v: Vertex) -> Option<Color> {
        with_side(self.side, || self.inner.stone_at(v))
    }
    fn empty_points(&self) -> usize {
        with_side(self.side, || self.inner.empty_points())
    }
    fn captured(&self, c: Color) -> u32 {
        with_side(self.side, || self.inner.captured(c))
    }
    fn history(&self) -> Vec<(Color, VertexMove)> {
        with_side(self.side, || self.inner.history())
    }
    fn setup_stones(&self) -> ByColor<Vec<Vertex>> {
        with_side(self.side, || self.inner.setup_stones())
    }
    fn setup_to_move(&self) -> Color {
        with_side(self.side, || self.inner.setup_to_move())
    }
    fn handicap(&self) -> usize {
        with_side(self.side, || self.inner.handicap())
    }
    fn play(&mut self, c: Color, m: VertexMove) -> Result<(), GameError> {
        with_side(self.side, || self.inner.play(c, m))
    }
    fn play_recorded(&mut self, c: Color, m: VertexMove) -> Result<(), GameError> {
        with_side(self.side, || self.inner.play_recorded(c, m))
    }
    fn check(&self, c: Color, m: VertexMove) -> Result<(), GameError> {
        with_side(self.side, || self.inner.check(c, m))
    }
    fn undo(&mut self) -> Result<(), GameError> {
        with_side(self.side, || self.inner.undo())
    }
    fn fixed_handicap(&mut self, n: usize) -> Result<Vec<Vertex>, GameError> {
        with_side(self.side, || self.inner.fixed_handicap(n))
    }
    fn free_handicap(&mut self, n: usize) -> Result<Vec<Vertex>, GameError> {
        with_side(self.side, || self.inner.free_handicap(n))
    }
    fn set_free_handicap(&mut self, stones: &[Vertex]) -> Result<(), GameError> {
        with_side(self.side, || self.inner.set_free_handicap(stones))
    }
    fn set_position(
        &mut self,
        black: &[Vertex],
        white: &[Vertex],
        to_move: Color,
    ) -> Result<(), GameError> {
        with_side(self.side, || self.inner.set_position(black, white, to_move))
    }
    fn diagram(&self) -> String {
        with_side(self.side, || self.inner.diagram())
    }
    fn genmove(
        &mut self,
        c: Color,
        opts: &GenmoveOptions,
        watch: Option<Watch<'_>>,
    ) -> (Decision, Analysis) {
        with_side(self.side, || self.inner.genmove(c, opts, watch))
    }
    fn set_move_rules(&mut self, rules: &[MoveRule]) {
        with_side(self.side, || self.inner.set_move_rules(rules));
    }
    fn analyze(
        &mut self,
        c: Color,
        limits: &Limits,
        opts: AnalyzeOptions,
        watch: Option<Watch<'_>>,
    ) -> Analysis {
        with_side(self.side, || self.inner.analyze(c, limits, opts, watch))
    }
    fn final_score(&mut self) -> f32 {
        with_side(self.side, || self.inner.final_score())
    }
    fn final_status(&mut self) -> Vec<(Vertex, StoneStatus)> {
        with_side(self.side, || self.inner.final_status())
    }
    fn ownership(&mut self) -> Vec<f32> {
        with_side(self.side, || self.inner.ownership())
    }
    fn policy(&self, c: Color) -> Vec<f32> {
        with_side(self.side, || self.inner.policy(c))
    }
    fn take_failure(&mut self) -> Option<String> {
        with_side(self.side, || self.inner.take_failure())
    }
}
