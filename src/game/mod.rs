//! The game above the fast board: history, positional superko, passes, komi, handicap, undo and
//! area scoring.
//!
//! A [`Game`] owns a `Board` (the playout position: simple ko, no history) and everything a real
//! game needs besides: the setup position (handicap or SGF stones), the moves played since, the
//! hash of every position seen (positional superko: a stone may not recreate an earlier
//! arrangement of stones; passes are always legal), komi and the side to move. Undo replays the
//! moves from the setup position, so the game never stores boards per move.

pub mod handicap;
pub mod rules;
pub mod score;
pub mod sphere;
pub mod vertex;

pub use rules::{HandicapBonus, Rules, RulesError};
pub use score::{format_score, tromp_taylor_area, tromp_taylor_score};
pub use vertex::{BadVertex, Vertex, VertexMove};

use crate::board::{Bitboard, Board, Color, Geometry, IllegalMove, Move, Point, SetupError};

/// Why the game refused a request. On any error the game is unchanged.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum GameError {
    #[error("illegal move: {0}")]
    Illegal(#[from] IllegalMove),
    #[error("illegal move: it repeats an earlier position (positional superko)")]
    Superko,
    #[error("cannot undo")]
    CannotUndo,
    #[error("board not empty")]
    BoardNotEmpty,
    #[error("invalid number of stones")]
    InvalidHandicap,
    #[error("bad vertex list")]
    BadVertexList,
    #[error("vertex off the board")]
    OffBoard,
    #[error("not a position: {0}")]
    Setup(#[from] SetupError),
}

/// A game of Go on an `N x N` board stored in `W` words.
#[derive(Clone)]
pub struct Game<const N: usize, const W: usize> {
    /// The current position.
    board: Board<N, W>,
    /// The position before the first move: empty, or handicap / SGF setup stones.
    setup: Board<N, W>,
    /// Side to move in the setup position.
    setup_to_move: Color,
    /// Handicap stones in the setup position (0 without handicap).
    handicap: usize,
    to_move: Color,
    komi: f32,
    /// The rules' one variable: White's handicap bonus (see [`rules`]).
    rules: Rules,
    /// Moves since the setup position, in order.
    moves: Vec<(Color, Move)>,
    /// Stone hashes of the setup position and of the position after each move (`moves.len() + 1`
    /// entries).
    hashes: Vec<u64>,
    /// The first entry of `hashes` superko compares with: 0, or the position a recorded
    /// repetition made ([`Game::play_recorded`]): a record is replayed as it was played, and
    /// superko applies to the moves after it.
    superko_from: usize,
}

impl<const N: usize, const W: usize> Game<N, W> {
    /// An empty board of the constant side `N`, Black to move (see [`Board::new`]).
    #[must_use]
    pub fn new(komi: f32) -> Self {
        Self::with_geometry(Geometry::new(), komi)
    }

    /// An empty board of geometry `geo`, Black to move.
    #[must_use]
    pub fn with_geometry(geo: Geometry<N, W>, komi: f32) -> Self {
        let board = Board::with_geometry(geo);
        Self {
            hashes: vec![board.hash()],
            superko_from: 0,
            setup: board.clone(),
            board,
            setup_to_move: Color::Black,
            handicap: 0,
            to_move: Color::Black,
            komi,
            rules: Rules::CHINESE,
            moves: Vec::new(),
        }
    }

    /// Empties the board and forgets the history and handicap; komi and rules stay.
    pub fn clear(&mut self) {
        let rules = self.rules;
        *self = Self::with_geometry(self.board.geometry(), self.komi);
        self.rules = rules;
    }

    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
    }

    /// The komi the game is scored with: komi plus White's handicap bonus under the rules.
    #[must_use]
    pub fn scoring_komi(&self) -> f32 {
        self.komi + self.rules.handicap_bonus.points(self.handicap)
    }

    /// The current position.
    #[must_use]
    pub fn board(&self) -> &Board<N, W> {
        &self.board
    }

    /// The position before the first move (handicap or setup stones).
    #[must_use]
    pub fn setup_board(&self) -> &Board<N, W> {
        &self.setup
    }

    #[must_use]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    #[must_use]
    pub fn komi(&self) -> f32 {
        self.komi
    }

    pub fn set_komi(&mut self, komi: f32) {
        self.komi = komi;
    }

    /// Side to move in the setup position.
    #[must_use]
    pub fn setup_to_move(&self) -> Color {
        self.setup_to_move
    }

    /// Number of handicap stones placed (0 if none).
    #[must_use]
    pub fn handicap(&self) -> usize {
        self.handicap
    }

    /// Moves since the setup position.
    #[must_use]
    pub fn moves(&self) -> &[(Color, Move)] {
        &self.moves
    }

    /// Number of passes at the end of the move list.
    #[must_use]
    pub fn trailing_passes(&self) -> usize {
        self.moves
            .iter()
            .rev()
            .take_while(|(_, m)| *m == Move::Pass)
            .count()
    }

    /// Whether the stone hash `h` is the one of a position already seen in this game.
    #[must_use]
    pub fn seen(&self, h: u64) -> bool {
        self.hashes[self.superko_from.min(self.hashes.len())..].contains(&h)
    }

    // ----- coordinates -----

    /// The point of `v`, if on this board.
    #[must_use]
    pub fn point(&self, v: Vertex) -> Option<Point> {
        self.board.point(usize::from(v.x), usize::from(v.y))
    }

    /// The vertex of `p` (a point of this board).
    #[must_use]
    pub fn vertex(&self, p: Point) -> Vertex {
        let (x, y) = self.board.coords(p);
        Vertex::new(x, y)
    }

    /// The board move of `m`, if on this board.
    pub fn to_board_move(&self, m: VertexMove) -> Result<Move, GameError> {
        match m {
            VertexMove::Pass => Ok(Move::Pass),
            VertexMove::Play(v) => self.point(v).map(Move::Play).ok_or(GameError::OffBoard),
        }
    }

    /// The coordinate form of a board move.
    #[must_use]
    pub fn to_go_move(&self, m: Move) -> VertexMove {
        match m {
            Move::Pass => VertexMove::Pass,
            Move::Play(p) => VertexMove::Play(self.vertex(p)),
        }
    }

    // ----- moves -----

    /// The position after `c` plays `mv`, if the move is legal (superko included).
    fn after(&self, c: Color, mv: Move) -> Result<Board<N, W>, GameError> {
        let mut b = self.board.clone();
        b.play(c, mv)?;
        if mv != Move::Pass && self.seen(b.hash()) {
            return Err(GameError::Superko);
        }
        Ok(b)
    }

    /// Checks whether `c` may play `mv` now: on the board, empty, not suicide, not the simple-ko
    /// recapture, not a repetition of an earlier position. Either colour may move.
    pub fn check(&self, c: Color, mv: Move) -> Result<(), GameError> {
        self.after(c, mv).map(|_| ())
    }

    /// Whether `c` may play `mv` now.
    #[must_use]
    pub fn is_legal(&self, c: Color, mv: Move) -> bool {
        self.check(c, mv).is_ok()
    }

    /// Whether `c` playing on the empty point `p` would repeat an earlier position. Cheap when the
    /// move captures nothing (the new hash is the old one with one key added), so search can
    /// filter its root moves with it.
    #[must_use]
    pub fn violates_superko(&self, c: Color, p: Point) -> bool {
        let i = p.index();
        let geo = self.board.geometry();
        let on = geo.onboard();
        let captures = geo.around(i).into_iter().any(|q| {
            on.contains(q) && {
                let q = Point::from_index(q);
                self.board.color_at(q) == Some(!c) && self.board.liberties(q) == 1
            }
        });
        if !captures {
            return self.seen(self.board.hash() ^ geo.key(c.index(), i));
        }
        let mut b = self.board.clone();
        b.play(c, Move::Play(p)).is_ok() && self.seen(b.hash())
    }

    /// Plays `mv` for `c` (either colour may move; the other side is to move next).
    pub fn play(&mut self, c: Color, mv: Move) -> Result<(), GameError> {
        let b = self.after(c, mv)?;
        self.board = b;
        self.moves.push((c, mv));
        self.hashes.push(self.board.hash());
        self.to_move = !c;
        Ok(())
    }

    /// Plays a move of a game record, as it was played: legal on the board (an empty point,
    /// not suicide, not the simple-ko recapture), but a repetition of an earlier position is
    /// accepted (records of rules without superko play cycles out). Positional superko then
    /// applies from the repeated position on.
    pub fn play_recorded(&mut self, c: Color, mv: Move) -> Result<(), GameError> {
        match self.after(c, mv) {
            Err(GameError::Superko) => {
                let mut b = self.board.clone();
                b.play(c, mv)?;
                self.board = b;
                self.moves.push((c, mv));
                self.superko_from = self.hashes.len();
                self.hashes.push(self.board.hash());
                self.to_move = !c;
                Ok(())
            }
            Err(e) => Err(e),
            Ok(_) => self.play(c, mv),
        }
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Result<(), GameError> {
        if self.moves.pop().is_none() {
            return Err(GameError::CannotUndo);
        }
        self.hashes.pop();
        if self.superko_from >= self.hashes.len() {
            // The repetition taken back: superko starts after the one before it, if any.
            self.superko_from = 0;
            for k in 1..self.hashes.len() {
                // A pass repeats the position by definition: no superko there.
                let played = self.moves[k - 1].1 != Move::Pass;
                if played && self.hashes[self.superko_from..k].contains(&self.hashes[k]) {
                    self.superko_from = k;
                }
            }
        }
        let mut b = self.setup.clone();
        for &(c, mv) in &self.moves {
            match mv {
                Move::Pass => b.pass(),
                Move::Play(p) => b.play_unchecked(c, p),
            }
        }
        self.board = b;
        self.to_move = self.moves.last().map_or(self.setup_to_move, |&(c, _)| !c);
        Ok(())
    }

    // ----- setup and handicap -----

    /// Replaces the whole game by a setup position (no moves) with `to_move` to play. Black
    /// stones alone, two or more, with White to play are a handicap (as handicap games are set
    /// up); any other setup has none.
    pub fn set_position(
        &mut self,
        black: Bitboard<W>,
        white: Bitboard<W>,
        to_move: Color,
    ) -> Result<(), GameError> {
        let board = Board::from_stones(self.board.geometry(), black, white)?;
        *self = Self {
            hashes: vec![board.hash()],
            superko_from: 0,
            setup: board.clone(),
            board,
            setup_to_move: to_move,
            handicap: 0,
            to_move,
            komi: self.komi,
            rules: self.rules,
            moves: Vec::new(),
        };
        let stones = black.count() as usize;
        if white.is_empty() && stones >= 2 && to_move == Color::White {
            self.handicap = stones;
        }
        Ok(())
    }

    fn has_stones(&self) -> bool {
        !(self.board.stones(Color::Black) | self.board.stones(Color::White)).is_empty()
    }

    /// Puts handicap stones on `points` of an empty board; White moves next.
    fn place_handicap(&mut self, points: &[Point]) -> Result<(), GameError> {
        let mut black = Bitboard::EMPTY;
        for p in points {
            black.insert(p.index());
        }
        self.set_position(black, Bitboard::EMPTY, Color::White)?;
        self.handicap = points.len();
        Ok(())
    }

    /// Places `n` handicap stones on the GTP fixed points (see [`handicap::fixed_points`]).
    pub fn fixed_handicap(&mut self, n: usize) -> Result<Vec<Point>, GameError> {
        if self.has_stones() {
            return Err(GameError::BoardNotEmpty);
        }
        let pts = handicap::fixed_points(self.board.geometry().n(), n)
            .ok_or(GameError::InvalidHandicap)?;
        let pts: Vec<Point> = pts.into_iter().filter_map(|v| self.point(v)).collect();
        self.place_handicap(&pts)?;
        Ok(pts)
    }

    /// Places `n` handicap stones where the engine likes (see [`handicap::free_points`]).
    pub fn free_handicap(&mut self, n: usize) -> Result<Vec<Point>, GameError> {
        if self.has_stones() {
            return Err(GameError::BoardNotEmpty);
        }
        let pts = handicap::free_points(self.board.geometry().n(), n)
            .ok_or(GameError::InvalidHandicap)?;
        let pts: Vec<Point> = pts.into_iter().filter_map(|v| self.point(v)).collect();
        self.place_handicap(&pts)?;
        Ok(pts)
    }

    /// Places handicap stones on the given points (at least 2, all distinct, one point left
    /// empty at least).
    pub fn set_free_handicap(&mut self, points: &[Point]) -> Result<(), GameError> {
        if self.has_stones() {
            return Err(GameError::BoardNotEmpty);
        }
        if points.len() < 2 || points.len() >= self.board.geometry().area() {
            return Err(GameError::InvalidHandicap);
        }
        let mut seen = Bitboard::<W>::EMPTY;
        for p in points {
            if !self.board.is_on_board(*p) || seen.contains(p.index()) {
                return Err(GameError::BadVertexList);
            }
            seen.insert(p.index());
        }
        self.place_handicap(points)
    }

    // ----- scoring -----

    /// Area score from Black's side, komi and handicap bonus included ([`Self::scoring_komi`]),
    /// counting every stone on the board as alive.
    #[must_use]
    pub fn tromp_taylor_score(&self) -> f32 {
        tromp_taylor_score(&self.board, Bitboard::EMPTY, self.scoring_komi())
    }

    /// Area score from Black's side, komi and handicap bonus included, with the stones in
    /// `dead` removed.
    #[must_use]
    pub fn score_with_dead(&self, dead: Bitboard<W>) -> f32 {
        tromp_taylor_score(&self.board, dead, self.scoring_komi())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board9;

    type G = Game<9, 2>;

    fn mv(s: &str) -> Move {
        G::new(0.0).to_board_move(s.parse().unwrap()).unwrap()
    }

    fn play_all(g: &mut G, seq: &[&str]) {
        for (i, s) in seq.iter().enumerate() {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            g.play(c, mv(s)).unwrap_or_else(|e| panic!("{s}: {e}"));
        }
    }

    #[test]
    fn undo_restores_position_and_side() {
        let mut g = G::new(7.5);
        play_all(&mut g, &["E5", "D5", "pass", "C3"]);
        assert_eq!(g.to_move(), Color::Black);
        assert_eq!(g.trailing_passes(), 0);
        g.undo().unwrap();
        assert_eq!(g.to_move(), Color::White);
        assert_eq!(g.trailing_passes(), 1);
        g.undo().unwrap();
        g.undo().unwrap();
        g.undo().unwrap();
        assert_eq!(g.board(), &Board9::new());
        assert_eq!(g.undo(), Err(GameError::CannotUndo));
    }

    /// The bottom-edge ko of the superko test: Black captures at D1.
    fn ko_game() -> G {
        let mut g = G::new(7.5);
        let b: Board9 = "\
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . X O . . . . .
            . X O . O . . . ."
            .parse()
            .unwrap();
        g.set_position(b.stones(Color::Black), b.stones(Color::White), Color::Black)
            .unwrap();
        g.play(Color::Black, mv("D1")).unwrap();
        g
    }

    #[test]
    fn simple_ko_bans_the_immediate_retake_only() {
        let mut g = ko_game();
        assert_eq!(
            g.check(Color::White, mv("C1")),
            Err(GameError::Illegal(IllegalMove::Ko))
        );
        g.play(Color::White, mv("J9")).unwrap();
        g.play(Color::Black, mv("J8")).unwrap();
        // The stones elsewhere make the retake a new position.
        assert!(g.is_legal(Color::White, mv("C1")));
    }

    #[test]
    fn superko_forbids_a_repeated_position() {
        let mut g = ko_game();
        g.play(Color::White, Move::Pass).unwrap();
        g.play(Color::Black, Move::Pass).unwrap();
        // The simple ko ban is gone after the passes, but C1 recreates the setup position.
        assert!(g.board().is_legal(
            Color::White,
            match mv("C1") {
                Move::Play(p) => p,
                Move::Pass => unreachable!(),
            }
        ));
        assert_eq!(g.check(Color::White, mv("C1")), Err(GameError::Superko));
        let c1 = G::new(0.0).point("C1".parse().unwrap()).unwrap();
        assert!(g.violates_superko(Color::White, c1));
        let j9 = G::new(0.0).point("J9".parse().unwrap()).unwrap();
        assert!(!g.violates_superko(Color::White, j9));
        let before = g.board().clone();
        assert!(g.play(Color::White, mv("C1")).is_err());
        assert_eq!(g.board(), &before);
        assert_eq!(g.moves().len(), 3);
    }

    #[test]
    fn handicap_rules() {
        let mut g = G::new(0.5);
        assert_eq!(g.fixed_handicap(10), Err(GameError::InvalidHandicap));
        assert_eq!(g.fixed_handicap(1), Err(GameError::InvalidHandicap));
        let pts = g.fixed_handicap(4).unwrap();
        assert_eq!(pts.len(), 4);
        assert_eq!(g.to_move(), Color::White);
        assert_eq!(g.handicap(), 4);
        assert_eq!(g.fixed_handicap(2), Err(GameError::BoardNotEmpty));
        assert_eq!(g.undo(), Err(GameError::CannotUndo));
        g.clear();
        let p = G::new(0.0).point(Vertex::new(0, 0)).unwrap();
        assert_eq!(g.set_free_handicap(&[p, p]), Err(GameError::BadVertexList));
        assert_eq!(g.set_free_handicap(&[p]), Err(GameError::InvalidHandicap));
        assert_eq!(g.free_handicap(5).unwrap().len(), 5);
        assert_eq!(g.board().stones(Color::Black).count(), 5);
    }

    #[test]
    fn illegal_moves_leave_the_game_unchanged() {
        let mut g = G::new(7.5);
        play_all(&mut g, &["E5"]);
        assert_eq!(
            g.play(Color::White, mv("E5")),
            Err(GameError::Illegal(IllegalMove::Occupied))
        );
        assert_eq!(g.moves().len(), 1);
        assert_eq!(g.to_move(), Color::White);
        assert_eq!(
            G::new(0.0).to_board_move(VertexMove::Play(Vertex::new(9, 0))),
            Err(GameError::OffBoard)
        );
    }

    /// A record's repetition is replayed as played (issue 66, item 7): a ko retaken after two
    /// passes repeats the position before the first capture. `play` refuses it, `play_recorded`
    /// plays it, and superko then applies from the repeated position on; undo restores it.
    #[test]
    fn a_recorded_repetition_is_replayed() {
        let mut g = G::new(7.5);
        // Black A2 B3 B1, White C3 C1 D2 B2: Black C2 takes the ko.
        play_all(
            &mut g,
            &[
                "A2", "C3", "B3", "C1", "B1", "D2", "J9", "B2", "C2", "pass", "pass",
            ],
        );
        assert_eq!(g.play(Color::White, mv("B2")), Err(GameError::Superko));
        g.play_recorded(Color::White, mv("B2")).unwrap();
        assert_eq!(g.board().color_at(mv_point("C2")), None);
        // From the repeated position on: Black retaking at once is the simple ko.
        assert!(g.play_recorded(Color::Black, mv("C2")).is_err());
        g.play(Color::Black, mv("E5")).unwrap();
        g.play(Color::White, mv("G7")).unwrap();
        // Play goes on under superko.
        g.play(Color::Black, mv("C2")).unwrap();
        for _ in 0..3 {
            g.undo().unwrap();
        }
        assert_eq!(g.superko_from, g.hashes.len() - 1);
        g.undo().unwrap();
        assert_eq!(g.superko_from, 0, "the repetition taken back");
        assert_eq!(g.play(Color::White, mv("B2")), Err(GameError::Superko));
    }

    fn mv_point(s: &str) -> Point {
        match mv(s) {
            Move::Play(p) => p,
            Move::Pass => unreachable!(),
        }
    }
}
