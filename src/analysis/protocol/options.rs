//! The fields that shape a search rather than the position: a terminate's `turnNumbers`,
//! times (`reportDuringSearchEvery`, `overrideSettings.maxTime`), `priority` / `priorities`,
//! and `overrideSettings`.

use super::{BadRequest, Fields, MAX_MOVES, MAX_SECONDS};
use serde_json::{json, Value};
use std::time::Duration;

impl Fields<'_> {
    /// A terminate's `turnNumbers`, if given: at most [`MAX_MOVES`] + 1 turns.
    pub(super) fn turn_numbers(&self) -> Result<Option<Vec<usize>>, BadRequest> {
        let Some(v) = self.m.get("turnNumbers") else {
            return Ok(None);
        };
        let bad = || {
            self.bad(
                "turnNumbers",
                format!(
                    "turnNumbers must be a list of at most {} turns from 0 to {MAX_MOVES}",
                    MAX_MOVES + 1
                ),
            )
        };
        let list = v
            .as_array()
            .filter(|l| l.len() <= MAX_MOVES + 1)
            .ok_or_else(bad)?;
        list.iter()
            .map(|t| {
                t.as_u64()
                    .and_then(|t| usize::try_from(t).ok())
                    .filter(|&t| t <= MAX_MOVES)
                    .ok_or_else(bad)
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    /// A number of seconds above 0 from `v` (more than [`MAX_SECONDS`] taken as that), else an
    /// error of `field`.
    pub(super) fn seconds(&self, v: &Value, field: &str) -> Result<Duration, BadRequest> {
        v.as_f64()
            .filter(|s| s.is_finite() && *s > 0.0)
            .map(|s| Duration::from_secs_f64(s.min(MAX_SECONDS)))
            .ok_or_else(|| {
                self.bad(
                    field,
                    format!("{field} must be a number of seconds above 0"),
                )
            })
    }

    /// `priority` for each of `turns` turns, or `priorities` (one per turn).
    pub(super) fn priorities(&self, turns: usize) -> Result<Vec<i64>, BadRequest> {
        let whole = |v: &Value, field: &str| {
            v.as_i64()
                .ok_or_else(|| self.bad(field, format!("{field} must be whole numbers")))
        };
        match (self.m.get("priority"), self.m.get("priorities")) {
            (Some(_), Some(_)) => {
                Err(self.bad("priorities", "give priority or priorities, not both"))
            }
            (None, None) => Ok(vec![0; turns]),
            (Some(p), None) => Ok(vec![whole(p, "priority")?; turns]),
            (None, Some(list)) => {
                let list = list
                    .as_array()
                    .filter(|l| l.len() == turns)
                    .ok_or_else(|| {
                        self.bad(
                            "priorities",
                            format!("priorities must be a list of {turns}, one per turn analysed"),
                        )
                    })?;
                list.iter().map(|p| whole(p, "priorities")).collect()
            }
        }
    }

    /// `overrideSettings`: `maxTime` (the search time of each turn) is honoured; so are
    /// `reportAnalysisWinratesAs` `"BLACK"` and `wideRootNoise` 0, which are what tengen does.
    /// Any other entry, or another value of those two, gets a warning: tengen cannot honour it.
    pub(super) fn override_settings(
        &self,
        warnings: &mut Vec<Value>,
    ) -> Result<Option<Duration>, BadRequest> {
        const FIELD: &str = "overrideSettings";
        let Some(v) = self.m.get(FIELD) else {
            return Ok(None);
        };
        let settings = v
            .as_object()
            .ok_or_else(|| self.bad(FIELD, "overrideSettings must be an object"))?;
        let mut max_time = None;
        for (k, v) in settings {
            let what_tengen_does = match k.as_str() {
                "maxTime" => {
                    max_time = Some(self.seconds(v, "overrideSettings.maxTime")?);
                    continue;
                }
                "reportAnalysisWinratesAs" => {
                    v.as_str().is_some_and(|s| s.eq_ignore_ascii_case("black"))
                }
                "wideRootNoise" => v.as_f64() == Some(0.0),
                _ => false,
            };
            if !what_tengen_does {
                let warning = match k.as_str() {
                    "reportAnalysisWinratesAs" => {
                        "tengen reports win rates and scores from Black's side only (BLACK)"
                    }
                    "wideRootNoise" => "tengen adds no noise to the root: only 0 is honoured",
                    _ => "tengen cannot honour this setting: ignored",
                };
                warnings.push(
                    json!({"id": self.id, "field": format!("{FIELD}.{k}"), "warning": warning}),
                );
            }
        }
        Ok(max_time)
    }
}
