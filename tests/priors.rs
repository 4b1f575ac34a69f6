//! Go knowledge as node priors (`--prior`, `--prior-near`): which moves it favours and
//! disfavours, and that the searcher seeds new children's AMAF or own statistics with it and
//! with the even prior (`--even-prior`).

use tengen::board::{Board9, Color, Point, COLUMNS};
use tengen::engine::state::GoState;
use tengen::mcts::tree::Stats;
use tengen::mcts::{Action, Limits, Params, PriorInto, PriorWeights, SearchGame, Searcher};

fn pt(v: &str) -> Point {
    let col = COLUMNS.find(v[..1].to_ascii_uppercase().as_str()).unwrap();
    let row: usize = v[1..].parse().unwrap();
    Board9::new().point(col, row - 1).unwrap()
}

fn act(v: &str) -> Action {
    GoState::<9, 2>::action(pt(v))
}

/// Black to play. White's e5 is in atari (e6 captures); Black's b9-c9 is in atari and a9 only
/// fills its last liberty but one; the lower left is empty.
fn position() -> GoState<9, 2> {
    let b: Board9 = ". X X O . . . . .
                     . O O . . . . . .
                     . . . . . . . . .
                     . . . . . . . . .
                     . . . X O X . . .
                     . . . . X . . . .
                     . . . . . . . . .
                     . . . . . . . . .
                     . . . . . . . . ."
        .parse()
        .unwrap();
    GoState::new(&b, Color::Black, 0, 7.5)
}

fn prior_of(s: &GoState<9, 2>, v: &str, w: u32) -> Stats {
    prior_with(s, v, knowledge(w))
}

fn knowledge(w: u32) -> PriorWeights {
    PriorWeights {
        knowledge: w,
        near_last: 0,
        ..PriorWeights::default()
    }
}

fn prior_with(s: &GoState<9, 2>, v: &str, w: PriorWeights) -> Stats {
    let mut out = Vec::new();
    s.priors(&[act(v)], w, &mut out);
    assert_eq!(out.len(), 1);
    out[0]
}

/// The prior of the move at `(x, y)` (0-based board coordinates) in `s` under `w`.
fn prior_at<const N: usize, const W: usize>(
    s: &GoState<N, W>,
    x: usize,
    y: usize,
    w: PriorWeights,
) -> Stats {
    let p = tengen::board::Board::<N, W>::new().point(x, y).unwrap();
    let mut out = Vec::new();
    s.priors(&[GoState::<N, W>::action(p)], w, &mut out);
    out[0]
}

#[test]
fn go_knowledge_signs() {
    let s = position();
    // The capture: at least w games, all won.
    let cap = prior_of(&s, "e6", 20);
    assert!(cap.visits >= 20, "{cap:?}");
    assert_eq!(cap.wins, 2 * cap.visits);
    // A self-atari of a two-stone string: w games lost.
    assert_eq!(
        prior_of(&s, "a9", 20),
        Stats {
            visits: 20,
            wins: 0
        }
    );
    // Empty area: the first line w games lost, the second w / 2, the third nothing.
    assert_eq!(
        prior_of(&s, "a1", 20),
        Stats {
            visits: 20,
            wins: 0
        }
    );
    assert_eq!(
        prior_of(&s, "b2", 20),
        Stats {
            visits: 10,
            wins: 0
        }
    );
    assert_eq!(prior_of(&s, "c3", 20), Stats::default());
    // The pass knows nothing.
    let mut out = Vec::new();
    s.priors(&[tengen::engine::state::PASS], knowledge(20), &mut out);
    assert_eq!(out, vec![Stats::default()]);
}

#[test]
fn an_escape_from_atari_is_favoured() {
    // White's e5 is in atari; e6 extends it to three liberties.
    let b: Board9 = ". . . . . . . . .
                     . . . . . . . . .
                     . . . . . . . . .
                     . . . . . . . . .
                     . . . X O X . . .
                     . . . . X . . . .
                     . . . . . . . . .
                     . . . . . . . . .
                     . . . . . . . . ."
        .parse()
        .unwrap();
    let s = GoState::<9, 2>::new(&b, Color::White, 0, 7.5);
    let esc = prior_of(&s, "e6", 20);
    assert!(esc.visits >= 20, "{esc:?}");
    assert_eq!(esc.wins, 2 * esc.visits);
}

#[test]
fn the_searcher_seeds_new_children_with_the_priors() {
    let s = position();
    for prior in [0, 20] {
        let mut searcher = Searcher::new(Params {
            prior,
            ..Params::default()
        });
        searcher.run(&s, &Limits::playouts(1), &|_| false, None);
        let tree = searcher.tree();
        let e6 = tree.child(0, act("e6")).unwrap();
        let a1 = tree.child(0, act("a1")).unwrap();
        let (cap, edge) = (tree.node(e6).amaf(), tree.node(a1).amaf());
        if prior == 0 {
            // One playout: at most one AMAF sample each.
            assert!(cap.visits <= 1 && edge.visits <= 1);
        } else {
            assert!(cap.visits >= 20 && cap.wins >= 2 * 20, "{cap:?}");
            assert!(edge.visits >= 20 && edge.wins <= 2, "{edge:?}");
        }
    }
}

#[test]
fn moves_near_the_previous_move_are_favoured() {
    let near = PriorWeights {
        knowledge: 0,
        near_last: 7,
        ..PriorWeights::default()
    };
    let won7 = Stats {
        visits: 7,
        wins: 14,
    };
    // Black c7, White passes: nothing is near a pass.
    let mut s = position();
    s.play(act("c7"));
    s.play(tengen::engine::state::PASS);
    assert_eq!(prior_with(&s, "g4", near), Stats::default());
    // Black h8, White f4: the empty points at most two steps from f4 are favoured.
    s.play(act("h8"));
    s.play(act("f4"));
    for v in ["g4", "f3", "d4", "h4", "f6", "f2", "g5", "e3", "g3"] {
        assert_eq!(prior_with(&s, v, near), won7, "{v}");
    }
    for v in ["b4", "a9", "j1", "f7", "c4"] {
        assert_eq!(prior_with(&s, v, near), Stats::default(), "{v}");
    }
    // With knowledge too, the signs add up: b2 is an empty-area second-line move, h4 a
    // plain move near f4.
    let both = PriorWeights {
        knowledge: 20,
        near_last: 7,
        ..PriorWeights::default()
    };
    assert_eq!(prior_with(&s, "b2", both), prior_of(&s, "b2", 20));
    assert_eq!(prior_with(&s, "h4", both), won7);
}

#[test]
fn the_even_prior_and_tree_priors_go_into_the_childrens_own_statistics() {
    let s = position();
    let mut searcher = Searcher::new(Params {
        prior: 20,
        prior_into: PriorInto::Tree,
        even_prior: 14,
        ..Params::default()
    });
    searcher.run(&s, &Limits::playouts(1), &|_| false, None);
    let tree = searcher.tree();
    let c3 = tree.node(tree.child(0, act("c3")).unwrap());
    let e6 = tree.node(tree.child(0, act("e6")).unwrap());
    let a1 = tree.node(tree.child(0, act("a1")).unwrap());
    // c3 has no sign: the even prior alone (and perhaps the one playout).
    assert!(
        c3.stats().visits >= 14 && c3.stats().visits <= 15,
        "{:?}",
        c3.stats()
    );
    assert!(
        c3.stats().wins >= 14 && c3.stats().wins <= 16,
        "{:?}",
        c3.stats()
    );
    // The capture: 14 even games and at least 20 won, none of it in AMAF beyond a playout.
    assert!(
        e6.stats().visits >= 34 && e6.stats().wins >= 14 + 40,
        "{:?}",
        e6.stats()
    );
    assert!(e6.amaf().visits <= 1, "{:?}", e6.amaf());
    // The empty-area first-line move: 14 even games and 20 lost.
    assert!(
        a1.stats().visits >= 34 && a1.stats().wins <= 16,
        "{:?}",
        a1.stats()
    );
}

#[test]
fn the_move_model_favours_the_capture_over_the_first_line() {
    let model = PriorWeights {
        knowledge: 0,
        near_last: 0,
        model: 100,
        ..PriorWeights::default()
    };
    let s = position();
    // The shares are of every action given: all the empty points here.
    let empty: Vec<Action> = Board9::new()
        .points()
        .filter(|&p| s.board().color_at(p).is_none())
        .map(GoState::<9, 2>::action)
        .collect();
    let mut out = Vec::new();
    s.priors(&empty, model, &mut out);
    let of = |v: &str| out[empty.iter().position(|&a| a == act(v)).unwrap()];
    let (cap, corner) = (of("e6"), of("a1"));
    // Model games are all won, and the capture gets more of them than the corner point.
    assert_eq!(cap.wins, 2 * cap.visits);
    assert!(cap.visits > 2 * corner.visits.max(1), "{cap:?} {corner:?}");
    // No model weight, no games.
    out.clear();
    s.priors(&empty, knowledge(0), &mut out);
    assert!(out.iter().all(|st| *st == Stats::default()));
}

/// The 9x9 model on 13x13: no games without `model_every_size` (13x13 has no model of its
/// own), all won with it, some moves more than others.
#[test]
fn the_nine_by_nine_model_serves_other_sizes_only_when_asked() {
    use tengen::board::Board;
    let b = Board::<13, 3>::new();
    let s = GoState::new(&b, Color::Black, 0, 7.5);
    let all: Vec<Action> = Board::<13, 3>::new()
        .points()
        .map(GoState::<13, 3>::action)
        .collect();
    let mut weights = PriorWeights {
        model: 100,
        ..PriorWeights::default()
    };
    let mut out = Vec::new();
    s.priors(&all, weights, &mut out);
    assert!(out.iter().all(|st| *st == Stats::default()));
    weights.model_every_size = true;
    out.clear();
    s.priors(&all, weights, &mut out);
    assert!(out.iter().all(|st| st.wins == 2 * st.visits));
    let (lo, hi) = (
        out.iter().map(|st| st.visits).min().unwrap(),
        out.iter().map(|st| st.visits).max().unwrap(),
    );
    assert!(hi > lo && hi > 0, "{lo} {hi}");
}

/// The opening's lines on the large boards: on an empty 19x19 board every third- and
/// fourth-line point wins `lines` games and no other point gets any; next to a stone the
/// area is no longer empty; 9x9 gets none.
#[test]
fn third_and_fourth_lines_in_empty_areas_are_favoured_on_large_boards() {
    use tengen::board::Board;
    let lines = PriorWeights {
        lines: 9,
        ..PriorWeights::default()
    };
    let won9 = Stats {
        visits: 9,
        wins: 18,
    };
    let mut b = Board::<19, 6>::new();
    let s = GoState::new(&b, Color::Black, 0, 7.5);
    let all: Vec<Point> = Board::<19, 6>::new().points().collect();
    let actions: Vec<Action> = all.iter().map(|&p| GoState::<19, 6>::action(p)).collect();
    let mut out = Vec::new();
    s.priors(&actions, lines, &mut out);
    for (p, st) in all.iter().zip(&out) {
        let (x, y) = (p.index() % 20, p.index() / 20);
        let line = x.min(y).min(18 - x).min(18 - y);
        let want = if line == 2 || line == 3 {
            won9
        } else {
            Stats::default()
        };
        assert_eq!(*st, want, "({x}, {y}) on line {}", line + 1);
    }
    // A stone at (3, 3): the fourth-line points within three steps of it get nothing, those
    // farther away still do.
    let stone = Board::<19, 6>::new().point(3, 3).unwrap();
    b.play(Color::White, tengen::board::Move::Play(stone))
        .unwrap();
    let s = GoState::new(&b, Color::Black, 0, 7.5);
    let at = |x, y| prior_at(&s, x, y, lines);
    assert_eq!(at(3, 6), Stats::default());
    assert_eq!(at(2, 5), Stats::default());
    assert_eq!(at(3, 7), won9);
    assert_eq!(at(15, 3), won9);
    // 9x9: none, whatever the line.
    let s9 = position();
    for v in ["c3", "d4", "g7"] {
        assert_eq!(prior_with(&s9, v, lines), Stats::default(), "{v}");
    }
}

/// The opening's corners on the large boards: on an empty 19x19 board exactly the 3-3, 3-4,
/// 4-4, 3-5 and 4-5 points of the four corners (32 points) win `corners` games; a stone
/// anywhere in a corner's six-by-six square takes that corner's points away and leaves the
/// others; 13x13 has them too, 9x9 none.
#[test]
fn the_points_of_empty_corners_are_favoured_on_large_boards() {
    use tengen::board::Board;
    let corners = PriorWeights {
        corners: 7,
        ..PriorWeights::default()
    };
    let won7 = Stats {
        visits: 7,
        wins: 14,
    };
    // Whether (x, y) is a corner point: on lines (from 0) 2 or 3 one way and 2 to 4 the other.
    let corner_point = |n: usize, x: usize, y: usize| {
        let (lx, ly) = (x.min(n - 1 - x), y.min(n - 1 - y));
        let (lo, hi) = (lx.min(ly), lx.max(ly));
        (2..=3).contains(&lo) && (2..=4).contains(&hi)
    };
    let mut b = Board::<19, 6>::new();
    let s = GoState::new(&b, Color::Black, 0, 7.5);
    let all: Vec<Point> = Board::<19, 6>::new().points().collect();
    let actions: Vec<Action> = all.iter().map(|&p| GoState::<19, 6>::action(p)).collect();
    let mut out = Vec::new();
    s.priors(&actions, corners, &mut out);
    let mut favoured = 0;
    for (p, st) in all.iter().zip(&out) {
        let (x, y) = (p.index() % 20, p.index() / 20);
        let want = if corner_point(19, x, y) {
            favoured += 1;
            won7
        } else {
            Stats::default()
        };
        assert_eq!(*st, want, "({x}, {y})");
    }
    assert_eq!(favoured, 32);
    // A White stone at (5, 5), the far point of the lower-left square: that corner is no
    // longer empty; the others are.
    b.play(
        Color::White,
        tengen::board::Move::Play(Board::<19, 6>::new().point(5, 5).unwrap()),
    )
    .unwrap();
    let s = GoState::new(&b, Color::Black, 0, 7.5);
    let at = |x, y| prior_at(&s, x, y, corners);
    assert_eq!(at(2, 2), Stats::default());
    assert_eq!(at(3, 4), Stats::default());
    assert_eq!(at(15, 3), won7);
    assert_eq!(at(2, 16), won7);
    assert_eq!(at(16, 15), won7);
    // Just outside the square (6, 6) keeps the corner empty.
    let mut b = Board::<19, 6>::new();
    b.play(
        Color::White,
        tengen::board::Move::Play(Board::<19, 6>::new().point(6, 6).unwrap()),
    )
    .unwrap();
    let s = GoState::new(&b, Color::Black, 0, 7.5);
    assert_eq!(prior_at(&s, 3, 3, corners), won7);
    // 13x13: the same points; 9x9: none.
    let b13 = Board::<13, 3>::new();
    let s13 = GoState::new(&b13, Color::White, 0, 7.5);
    for (x, y, want) in [
        (3, 3, won7),
        (9, 10, won7),
        (6, 6, Stats::default()),
        (3, 5, Stats::default()),
    ] {
        assert_eq!(prior_at(&s13, x, y, corners), want, "13x13 ({x}, {y})");
    }
    let s9 = position();
    for v in ["c3", "c4", "d4", "g7"] {
        assert_eq!(prior_with(&s9, v, corners), Stats::default(), "{v}");
    }
}

/// Ladders (`--prior-ladder`): White's e5 is in atari in a working ladder (Black's d5, e4, f4
/// and e6 chase it to the top right), so its extension at f5 loses the ladder's games and no
/// model games; with a White stone on the ladder's path (g7) the same extension is a real
/// escape and gets nothing from the ladder. For Black, the atari at e6 on White's e5 (two
/// liberties, against d5, e4 and f4) wins the ladder's games; the atari from the other side,
/// f5, lets White out and gets none.
#[test]
fn ladders_are_read_for_escapes_and_ataris() {
    let board = |diagram: &str| -> Board9 { diagram.parse().unwrap() };
    let ladder = PriorWeights {
        ladder: 12,
        ..PriorWeights::default()
    };
    let chased = board(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . X . . . .
         . . . X O . . . .
         . . . . X X . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .",
    );
    let s = GoState::<9, 2>::new(&chased, Color::White, 0, 7.5);
    assert_eq!(
        prior_with(&s, "f5", ladder),
        Stats {
            visits: 12,
            wins: 0
        }
    );
    // The move model's games go to the other moves only.
    let with_model = PriorWeights {
        model: 100,
        ..ladder
    };
    assert_eq!(
        prior_with(&s, "f5", with_model),
        Stats {
            visits: 12,
            wins: 0
        }
    );
    assert!(prior_with(&s, "c3", with_model).wins > 0);
    let broken = board(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . O . .
         . . . . X . . . .
         . . . X O . . . .
         . . . . X X . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .",
    );
    let s = GoState::<9, 2>::new(&broken, Color::White, 0, 7.5);
    assert_eq!(prior_with(&s, "f5", ladder), Stats::default());
    let two_libs = board(
        ". . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . X O . . . .
         . . . . X X . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .",
    );
    let s = GoState::<9, 2>::new(&two_libs, Color::Black, 0, 7.5);
    assert_eq!(
        prior_with(&s, "e6", ladder),
        Stats {
            visits: 12,
            wins: 24
        }
    );
    assert_eq!(prior_with(&s, "f5", ladder), Stats::default());
    // With the knowledge prior, the caught escape does not win the games of saving a string.
    let both = PriorWeights {
        knowledge: 20,
        ..ladder
    };
    // Its knowledge games (a shape, saving a string) less the 20 won for saving it, plus the
    // ladder's 12 lost.
    let s = GoState::<9, 2>::new(&chased, Color::White, 0, 7.5);
    let plain = prior_of(&s, "f5", 20);
    assert!(plain.visits >= 20 && plain.wins >= 40, "{plain:?}");
    let want = Stats {
        visits: plain.visits - 20 + 12,
        wins: plain.wins - 40,
    };
    assert_eq!(prior_with(&s, "f5", both), want);
    // A real escape keeps them all.
    let s = GoState::<9, 2>::new(&broken, Color::White, 0, 7.5);
    assert_eq!(prior_with(&s, "f5", both), prior_of(&s, "f5", 20));
    // Off (0): no reading, nothing.
    let s = GoState::<9, 2>::new(&chased, Color::White, 0, 7.5);
    assert_eq!(
        prior_with(&s, "f5", PriorWeights::default()),
        Stats::default()
    );
}
