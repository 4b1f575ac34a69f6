//! Simultaneous perturbation stochastic approximation (SPSA) of engine parameters from game
//! results: each trial moves every parameter by its perturbation, up for one engine and down
//! for the other (the signs drawn at random per parameter), the two engines play a pair of
//! games, and every parameter steps towards the side that scored more.
//!
//! Iteration `k` (from 0) perturbs parameter `i` by `c_k * step_i` with
//! `c_k = 1 / (k + 1)^0.101`, and updates
//! `theta_i += a_k * step_i * d * sign_i / (2 c_k)`, where `d` in `[-1, 1]` is the plus
//! engine's mean points less the minus engine's per game and `a_k = rate / (1 + k / A)^0.602`
//! with `A` a tenth of the planned iterations: Spall's gain sequences, in units of each
//! parameter's step so that parameters of any scale move alike.

use crate::rng::splitmix64;
use rand_core::{RngCore, SeedableRng};
use std::fmt;
use std::str::FromStr;

/// One tuned parameter: `NAME=START:MIN:MAX:STEP`.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    /// The first perturbation, each way (it shrinks slowly with the iterations).
    pub step: f64,
    /// Every number of the specification was whole, so the values played are rounded.
    pub integer: bool,
}

/// Longest parameter name (a placeholder in a command line, not a text).
const MAX_NAME: usize = 40;

impl FromStr for Param {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let form = "expected NAME=START:MIN:MAX:STEP, such as rave_k=300:50:2000:100";
        let (name, nums) = s.split_once('=').ok_or_else(|| format!("`{s}`: {form}"))?;
        let name = name.trim();
        if name.is_empty()
            || name.len() > MAX_NAME
            || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            || name == "seed"
        {
            return Err(format!(
                "`{name}`: a parameter's name is 1 to {MAX_NAME} letters, digits or `_`, and \
                 not `seed` (the engines' seed placeholder)"
            ));
        }
        let parts: Vec<&str> = nums.split(':').map(str::trim).collect();
        let [start, min, max, step] = parts[..] else {
            return Err(format!("`{s}`: {form}"));
        };
        let num = |t: &str, what: &str| -> Result<f64, String> {
            t.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && x.abs() <= 1e12)
                .ok_or_else(|| format!("`{s}`: the {what} `{t}` is not a finite number"))
        };
        let p = Param {
            name: name.to_string(),
            start: num(start, "start")?,
            min: num(min, "minimum")?,
            max: num(max, "maximum")?,
            step: num(step, "step")?,
            integer: [start, min, max, step]
                .iter()
                .all(|t| t.parse::<i64>().is_ok()),
        };
        if !(p.min < p.max && (p.min..=p.max).contains(&p.start)) {
            return Err(format!("`{s}`: expected MIN < MAX and START between them"));
        }
        if !(p.step > 0.0 && p.step <= p.max - p.min) {
            return Err(format!(
                "`{s}`: expected a STEP above 0 and at most MAX - MIN"
            ));
        }
        Ok(p)
    }
}

impl Param {
    /// The value an engine plays with: clamped to the range, rounded if whole.
    #[must_use]
    pub fn played(&self, x: f64) -> f64 {
        let x = x.clamp(self.min, self.max);
        if self.integer {
            x.round()
        } else {
            x
        }
    }

    /// `x` as it goes into a command line.
    #[must_use]
    pub fn format(&self, x: f64) -> String {
        let x = self.played(x);
        if self.integer {
            format!("{x:.0}")
        } else {
            // Enough digits for any step; trailing zeros trimmed.
            let t = format!("{x:.6}");
            t.trim_end_matches('0').trim_end_matches('.').to_string()
        }
    }
}

/// One trial: the signs drawn for it and the two engines' values.
#[derive(Clone, Debug)]
pub struct Trial {
    pub k: u64,
    pub signs: Vec<f64>,
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
}

/// The tuner's state: the current values and the number of iterations done.
#[derive(Clone, Debug)]
pub struct Spsa {
    pub params: Vec<Param>,
    pub theta: Vec<f64>,
    /// Iterations done (updates applied).
    pub k: u64,
    rate: f64,
    stability: f64,
    seed: u64,
}

impl Spsa {
    /// A tuner at the parameters' start values, for about `iterations` iterations.
    #[must_use]
    pub fn new(params: Vec<Param>, rate: f64, iterations: u64, seed: u64) -> Self {
        let theta = params.iter().map(|p| p.start).collect();
        Self {
            params,
            theta,
            k: 0,
            rate,
            stability: (iterations as f64 / 10.0).max(1.0),
            seed,
        }
    }

    /// The perturbation scale of iteration `k`.
    fn c(k: u64) -> f64 {
        (k as f64 + 1.0).powf(-0.101)
    }

    /// The gain of iteration `k`.
    fn a(&self, k: u64) -> f64 {
        self.rate * (1.0 + k as f64 / self.stability).powf(-0.602)
    }

    /// Trial `k` from the current values: its signs depend only on the seed and `k`, so a run
    /// taken up again draws what it would have drawn.
    #[must_use]
    pub fn trial(&self, k: u64) -> Trial {
        let mut rng = rand_pcg::Pcg32::seed_from_u64(splitmix64(self.seed ^ splitmix64(k)));
        let c = Self::c(k);
        let signs: Vec<f64> = self
            .params
            .iter()
            .map(|_| if rng.next_u32() & 1 == 0 { 1.0 } else { -1.0 })
            .collect();
        let side = |dir: f64| -> Vec<f64> {
            self.params
                .iter()
                .zip(&self.theta)
                .zip(&signs)
                .map(|((p, &t), &s)| p.played(t + dir * s * c * p.step))
                .collect()
        };
        Trial {
            k,
            plus: side(1.0),
            minus: side(-1.0),
            signs,
        }
    }

    /// Applies trial `t`'s result: `d` in `[-1, 1]`, the plus engine's mean points per game
    /// less the minus engine's.
    pub fn update(&mut self, t: &Trial, d: f64) {
        let d = d.clamp(-1.0, 1.0);
        let gain = self.a(t.k) * d / (2.0 * Self::c(t.k));
        for ((p, theta), s) in self.params.iter().zip(&mut self.theta).zip(&t.signs) {
            *theta = (*theta + gain * p.step * s).clamp(p.min, p.max);
        }
        self.k += 1;
    }
}

impl fmt::Display for Spsa {
    /// `name value` pairs of the current values, as played.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (p, &t)) in self.params.iter().zip(&self.theta).enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{} {}", p.name, p.format(t))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(s: &str) -> Param {
        s.parse().unwrap()
    }

    #[test]
    fn a_parameter_is_parsed_and_checked() {
        let p = param("rave_k=300:50:2000:100");
        assert_eq!(
            (p.start, p.min, p.max, p.step),
            (300.0, 50.0, 2000.0, 100.0)
        );
        assert!(p.integer);
        assert!(!param("rate=0.5:0:1:0.1").integer);
        for bad in [
            "rave_k",
            "=1:0:2:1",
            "seed=1:0:2:1",
            "a b=1:0:2:1",
            "x=1:0:2",
            "x=1:0:2:1:5",
            "x=5:0:2:1",
            "x=1:2:0:1",
            "x=1:0:2:0",
            "x=1:0:2:3",
            "x=nan:0:2:1",
            "x=1:0:inf:1",
        ] {
            assert!(bad.parse::<Param>().is_err(), "{bad}");
        }
    }

    #[test]
    fn played_values_are_clamped_and_rounded() {
        let p = param("n=10:0:20:3");
        assert_eq!(p.played(-4.0), 0.0);
        assert_eq!(p.played(12.6), 13.0);
        assert_eq!(p.format(25.0), "20");
        let q = param("w=0.5:0:1:0.25");
        assert_eq!(q.format(0.125), "0.125");
        assert_eq!(q.format(1.5), "1");
    }

    #[test]
    fn a_trial_moves_every_parameter_both_ways_by_its_step() {
        let s = Spsa::new(
            vec![param("a=10:0:100:5"), param("b=0.5:0:1:0.1")],
            0.5,
            100,
            7,
        );
        let t = s.trial(0);
        for i in 0..2 {
            let step = s.params[i].step;
            assert!((t.plus[i] - s.theta[i] - t.signs[i] * step).abs() < 0.5 + 1e-9);
            assert!((s.theta[i] - t.minus[i] - t.signs[i] * step).abs() < 0.5 + 1e-9);
        }
        // The same seed and iteration draw the same signs; another iteration draws its own.
        assert_eq!(s.trial(3).signs, s.trial(3).signs);
        assert!((0..20).any(|k| s.trial(k).signs != t.signs));
    }

    /// On a game whose winning chance rises as a parameter nears 30, the tuner started at 5
    /// ends near 30 (an update with the wrong sign would drive it to a bound instead).
    #[test]
    fn it_climbs_to_the_best_value_of_a_noisy_game() {
        let mut s = Spsa::new(vec![param("x=5:0:60:6")], 0.5, 3000, 1);
        let strength = |x: f64| -((x - 30.0) / 10.0).powi(2);
        let mut rng = rand_pcg::Pcg32::seed_from_u64(99);
        for k in 0..3000 {
            let t = s.trial(k);
            let p = 1.0 / (1.0 + (strength(t.minus[0]) - strength(t.plus[0])).exp());
            let mut d = 0.0;
            for _ in 0..2 {
                let won = (f64::from(rng.next_u32()) / 4_294_967_296.0) < p;
                d += if won { 0.5 } else { -0.5 };
            }
            s.update(&t, d);
        }
        assert!((s.theta[0] - 30.0).abs() < 5.0, "{}", s.theta[0]);
        assert_eq!(s.k, 3000);
    }
}
