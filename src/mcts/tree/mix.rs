//! The mix backup's value of a node: its mean result moved towards its best child's value as
//! the children gain games ([`mix_value`]).

/// The mix value of a node (the golois presets' backup), all values from the side of the
/// player to move at the node.
///
/// `mean` and `games` are the node's own mean result and games; `children` yields each child's
/// games and mix value. The mean carries the weight `w = 2 side`, multiplied by
/// `games / (16 side)` once the node has more than `16 side` games. Only children with at least
/// `w` games take part. With none, the mix is the mean. Otherwise let `best` be the taking-part
/// child of highest mix and `second` the child with the most games if it has more games than
/// `best`, else the child of second-highest mix. With both present, the mix is:
///
/// * if `best` has fewer games than `second`: the weighted average `(n2 best.mix + w mean) /
///   (n2 + w)` (with `n2` the games of `second`) when `second.mix` is
///   above the mean; else `(n1 best.mix + w mean) / (n1 + w)` when `best.mix` is below the
///   mean; else the mean;
/// * otherwise `(n1 best.mix + w mean) / (n1 + w)`.
///
/// With a single child taking part the mix is `(n1 best.mix + w mean) / (n1 + w)` too (one could
/// take the child's mix when it is the only visited child instead). So a node's value starts at its
/// mean and, as its best children gain games relative to `w`, moves towards the best child's
/// value (the maximum for the player to move).
///
/// Which children may be `bestChild` is a choice. Taking every child,
/// as a first version did, made the search lock in (`perf/strength.md`): under UCT every child
/// is tried once, a child with one won game has a mix of 1, and the second rule then weights
/// that single game by the most played child's games, so every young node looks won for its
/// player. Requiring `w` games, the mean's own weight, keeps a child out until its value
/// carries as much evidence as the mean it would replace.
#[must_use]
pub fn mix_value(
    mean: f32,
    games: u32,
    children: impl Iterator<Item = (u32, f32)>,
    side: f32,
) -> f32 {
    // (games, mix) of the best, the second best by mix, and the most played child.
    let mut best: Option<(u32, f32)> = None;
    let mut second_best: Option<(u32, f32)> = None;
    let mut most: Option<(u32, f32)> = None;
    let mut w = 2.0 * side;
    if games as f32 > 16.0 * side {
        w *= games as f32 / (16.0 * side);
    }
    for (n, m) in children {
        if n == 0 || (n as f32) < w {
            continue;
        }
        match best {
            Some((_, bm)) if m <= bm => {
                if second_best.map_or(true, |(_, sm)| m > sm) {
                    second_best = Some((n, m));
                }
            }
            _ => {
                second_best = best;
                best = Some((n, m));
            }
        }
        if most.map_or(true, |(mn, _)| n > mn) {
            most = Some((n, m));
        }
    }
    let Some((n1, m1)) = best else {
        return mean;
    };
    let second = match most {
        Some(c) if c.0 > n1 => Some(c),
        _ => second_best,
    };
    let averaged0 = (n1 as f32 * m1 + w * mean) / (n1 as f32 + w);
    let Some((n2, m2)) = second else {
        return averaged0;
    };
    let (n1, n2) = (n1 as f32, n2 as f32);
    let averaged1 = (n2 * m1 + w * mean) / (n2 + w);
    if n1 < n2 {
        if m2 > mean {
            averaged1
        } else if m1 < mean {
            averaged0
        } else {
            mean
        }
    } else {
        averaged0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mix_moves_from_mean_to_max() {
        // A node with mean 0.5 whose best child has value 0.9, on a 9-wide board (w = 18).
        let side = 9.0;
        let kids = |n1: u32, n2: u32| [(n1, 0.9f32), (n2, 0.3f32)].into_iter();
        assert_eq!(mix_value(0.5, 10, std::iter::empty(), side), 0.5);
        let one = mix_value(0.5, 30, [(30, 0.9)].into_iter(), side);
        assert!(
            (one - (30.0 * 0.9 + 18.0 * 0.5) / 48.0).abs() < 1e-6,
            "{one}"
        );
        // Children with fewer than w games do not count: the mix stays the mean.
        assert_eq!(mix_value(0.5, 10, [(10, 0.9)].into_iter(), side), 0.5);
        assert_eq!(mix_value(0.5, 4, kids(2, 2), side), 0.5);
        let few = mix_value(0.5, 40, kids(20, 20), side);
        let some = mix_value(0.5, 100, kids(60, 40), side);
        let many = mix_value(0.5, 10_000, kids(9_000, 1_000), side);
        assert!(
            (few - (20.0 * 0.9 + 18.0 * 0.5) / 38.0).abs() < 1e-6,
            "{few}"
        );
        assert!(
            0.5 < few && few < some && some < many && many < 0.9,
            "{few} {some} {many}"
        );
        // Past 16 side games the mean's weight grows with the games: 10000 / 144 * 18 = 1250.
        let w = 18.0 * 10_000.0 / 144.0;
        assert!((many - (9000.0 * 0.9 + w * 0.5) / (9000.0 + w)).abs() < 1e-5);
        // The most played child is not the best: its games weigh the best child's value.
        let m = mix_value(0.5, 120, [(30, 0.9), (90, 0.6)].into_iter(), side);
        assert!((m - (90.0 * 0.9 + 18.0 * 0.5) / 108.0).abs() < 1e-6, "{m}");
        // A lucky single game does not make a node look won.
        let lucky = mix_value(0.5, 100, [(1, 1.0), (90, 0.6)].into_iter(), side);
        assert!(
            (lucky - (90.0 * 0.6 + 18.0 * 0.5) / 108.0).abs() < 1e-6,
            "{lucky}"
        );
    }
}
