//! Handicap placement: the GTP fixed pattern and the engine's free choice.

use super::Vertex;

/// Largest fixed handicap on an `size x size` board: 9 on odd sizes from 9 up, 4 on even sizes
/// from 8 up, none at 7x7 or below (GTP specification, section 4.1.1).
#[must_use]
pub fn max_fixed(size: usize) -> usize {
    match size {
        0..=7 => 0,
        s if s % 2 == 1 => 9,
        _ => 4,
    }
}

/// The fixed handicap points for `n` stones, in GTP order, or `None` if `n` is not allowed on
/// this size (see [`max_fixed`]; at least 2 stones).
///
/// Stones go on the third line below 13x13 and the fourth line from 13x13 up: first the
/// lower-left and upper-right corners, then upper-left and lower-right, then the side points,
/// with the centre added for an odd count of 5 or more.
#[must_use]
pub fn fixed_points(size: usize, n: usize) -> Option<Vec<Vertex>> {
    if n < 2 || n > max_fixed(size) {
        return None;
    }
    let d = if size < 13 { 2 } else { 3 };
    let (lo, hi, mid) = (d, size - 1 - d, size / 2);
    let v = |x: usize, y: usize| Vertex::new(x, y);
    let corners = [v(lo, lo), v(hi, hi), v(lo, hi), v(hi, lo)];
    let sides_x = [v(lo, mid), v(hi, mid)];
    let sides_y = [v(mid, lo), v(mid, hi)];
    let centre = v(mid, mid);
    let mut out: Vec<Vertex> = corners[..n.min(4)].to_vec();
    if n >= 6 {
        out.extend_from_slice(&sides_x);
    }
    if n >= 8 {
        out.extend_from_slice(&sides_y);
    }
    if n >= 5 && n % 2 == 1 {
        out.push(centre);
    }
    debug_assert_eq!(out.len(), n);
    Some(out)
}

/// Points for a free handicap of `n` stones chosen by the engine: the fixed pattern while it
/// lasts, then further points spread over the board (every other point of every other line,
/// nearest the centre first). `None` when `n < 2` or `n` is more than the board can take
/// (at least one point stays empty).
#[must_use]
pub fn free_points(size: usize, n: usize) -> Option<Vec<Vertex>> {
    if n < 2 || n >= size * size {
        return None;
    }
    let mut out = fixed_points(size, n.min(max_fixed(size))).unwrap_or_default();
    if out.len() == n {
        return Some(out);
    }
    let c = (size as i64 - 1) / 2;
    let mut rest: Vec<Vertex> = (0..size)
        .flat_map(|y| (0..size).map(move |x| Vertex::new(x, y)))
        .filter(|p| !out.contains(p))
        .collect();
    let rank = |p: &Vertex| {
        let (x, y) = (i64::from(p.x), i64::from(p.y));
        let sparse = (x - c).rem_euclid(2) == 0 && (y - c).rem_euclid(2) == 0;
        (
            !sparse,
            (x - c).abs().max((y - c).abs()),
            (x - c).abs() + (y - c).abs(),
            y,
            x,
        )
    };
    rest.sort_by_key(rank);
    out.extend(rest.into_iter().take(n - out.len()));
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[Vertex]) -> Vec<String> {
        v.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn gtp_pattern_on_19() {
        assert_eq!(names(&fixed_points(19, 2).unwrap()), ["D4", "Q16"]);
        assert_eq!(
            names(&fixed_points(19, 9).unwrap()),
            ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16", "K10"]
        );
        assert_eq!(names(&fixed_points(19, 5).unwrap())[4], "K10");
        assert_eq!(fixed_points(19, 6).unwrap().len(), 6);
    }

    #[test]
    fn limits_by_size() {
        assert!(fixed_points(9, 9).is_some() && fixed_points(9, 10).is_none());
        assert!(fixed_points(8, 4).is_some() && fixed_points(8, 5).is_none());
        assert!(fixed_points(7, 2).is_none());
        assert!(fixed_points(19, 1).is_none());
        assert_eq!(names(&fixed_points(9, 2).unwrap()), ["C3", "G7"]);
        assert_eq!(names(&fixed_points(13, 2).unwrap()), ["D4", "K10"]);
    }

    #[test]
    fn free_points_are_distinct() {
        for size in [5, 7, 9, 19] {
            let n = (size * size) / 2;
            let v = free_points(size, n).unwrap();
            let mut s = v.clone();
            s.sort_by_key(|p| (p.y, p.x));
            s.dedup();
            assert_eq!(s.len(), n);
        }
        assert!(free_points(9, 81).is_none());
    }
}
