//! The rules tengen plays, and the one reader of KataGo's rules names and objects (GTP's
//! `kata-set-rules`, the analysis protocol's `rules`).
//!
//! tengen plays area scoring, positional superko, no suicide, no button and no tax. The one
//! rule it lets vary is White's compensation for handicap stones ([`HandicapBonus`]): one point
//! per stone under Chinese rules (as KGS, GNU Go's `--chinese-rules` and KataGo's `chinese`
//! give it), one less than the stones under AGA's count, none under Tromp-Taylor's.
//!
//! A name or object is read into [`Rules`] when every field it sets is one tengen plays;
//! otherwise the answer names the first field that differs and what tengen plays instead
//! ([`RulesError`]), so a client learns exactly why.

use serde_json::{Map, Value};
use std::fmt;

/// White's compensation for Black's handicap stones, added to komi when scoring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum HandicapBonus {
    /// None.
    Zero,
    /// One point per handicap stone (Chinese rules).
    #[default]
    N,
    /// One point per handicap stone but the first (AGA).
    NMinusOne,
}

impl HandicapBonus {
    /// The points White receives for `stones` handicap stones.
    #[must_use]
    pub fn points(self, stones: usize) -> f32 {
        match self {
            HandicapBonus::Zero => 0.0,
            HandicapBonus::N => stones as f32,
            HandicapBonus::NMinusOne => stones.saturating_sub(1) as f32,
        }
    }

    /// KataGo's name of the bonus (`whiteHandicapBonus`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            HandicapBonus::Zero => "0",
            HandicapBonus::N => "N",
            HandicapBonus::NMinusOne => "N-1",
        }
    }
}

/// The rules of a game as tengen plays it (see the module docs): everything fixed but the
/// handicap bonus.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Rules {
    pub handicap_bonus: HandicapBonus,
}

impl Rules {
    /// Chinese rules: area scoring, positional superko, a point per handicap stone.
    pub const CHINESE: Rules = Rules {
        handicap_bonus: HandicapBonus::N,
    };

    /// The rules as KataGo's `kata-get-rules` writes them (a JSON object on one line).
    #[must_use]
    pub fn to_json(self) -> String {
        format!(
            r#"{{"friendlyPassOk":true,"hasButton":false,"ko":"POSITIONAL","scoring":"AREA","suicide":false,"tax":"NONE","whiteHandicapBonus":"{}"}}"#,
            self.handicap_bonus.name()
        )
    }

    /// Reads a KataGo rules name (case and `_`/`-` ignored) or a JSON rules object, as
    /// `kata-set-rules` and the analysis protocol's `rules` give them.
    pub fn parse_text(text: &str) -> Result<Rules, RulesError> {
        let t = text.trim();
        if t.starts_with('{') {
            match serde_json::from_str::<Value>(t) {
                Ok(v) => Rules::from_json(&v),
                Err(e) => Err(RulesError::new("rules", format!("not a rules object: {e}"))),
            }
        } else {
            Rules::from_name(t)
        }
    }

    /// A rules name or object from a JSON value.
    pub fn from_json(v: &Value) -> Result<Rules, RulesError> {
        match v {
            Value::String(s) => Rules::from_name(s),
            Value::Object(m) => Rules::from_object(m),
            _ => Err(RulesError::new(
                "rules",
                "rules must be a name or an object".to_string(),
            )),
        }
    }

    /// A KataGo rules name.
    pub fn from_name(name: &str) -> Result<Rules, RulesError> {
        let key: String = name
            .trim()
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .collect::<String>()
            .to_ascii_lowercase();
        let (field, why) = match key.as_str() {
            "chinese" | "chineseogs" | "chinesekgs" => return Ok(Rules::CHINESE),
            "japanese" | "korean" => (SCORING, "tengen scores by area, not territory"),
            "tromptaylor" | "newzealand" => (SUICIDE, "tengen forbids suicide"),
            "aga" | "bga" | "french" | "agabutton" => (KO, "tengen plays positional superko"),
            "stonescoring" => (TAX, "tengen counts territory (tax NONE)"),
            _ => {
                return Err(RulesError::new(
                    "rules",
                    format!(
                        "unknown rules {name:?}: tengen knows KataGo's names (chinese, \
                         chinese-ogs, chinese-kgs, japanese, korean, tromp-taylor, new-zealand, \
                         aga, bga, french, aga-button, stone-scoring) and rules objects"
                    ),
                ))
            }
        };
        Err(RulesError::new(field, format!("{field}: {why} ({name})")))
    }

    /// A KataGo rules object: every field given must be one tengen plays.
    pub fn from_object(m: &Map<String, Value>) -> Result<Rules, RulesError> {
        let text = |field: &str| -> Result<Option<String>, RulesError> {
            match m.get(field) {
                None => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.to_ascii_uppercase())),
                Some(Value::Number(n)) => Ok(Some(n.to_string())),
                Some(_) => Err(RulesError::new(field, format!("{field} must be a string"))),
            }
        };
        let flag = |field: &str| -> Result<Option<bool>, RulesError> {
            match m.get(field) {
                None => Ok(None),
                Some(Value::Bool(b)) => Ok(Some(*b)),
                Some(_) => Err(RulesError::new(
                    field,
                    format!("{field} must be true or false"),
                )),
            }
        };
        let refuse =
            |field: &str, why: &str| Err(RulesError::new(field, format!("{field}: {why}")));
        if let Some(k) = text(KO)? {
            if k != "POSITIONAL" {
                return refuse(KO, "tengen plays positional superko");
            }
        }
        if let Some(s) = text(SCORING)? {
            if s != "AREA" {
                return refuse(SCORING, "tengen scores by area");
            }
        }
        if let Some(t) = text(TAX)? {
            if t != "NONE" {
                return refuse(TAX, "tengen counts territory (tax NONE)");
            }
        }
        if flag(SUICIDE)? == Some(true) {
            return refuse(SUICIDE, "tengen forbids suicide");
        }
        if flag("hasButton")? == Some(true) {
            return refuse("hasButton", "tengen plays without a button");
        }
        // Whether a pass before the end costs a point is a referee's matter: tengen's area
        // count is the same either way.
        flag("friendlyPassOk")?;
        let handicap_bonus = match text("whiteHandicapBonus")?.as_deref() {
            None | Some("N") => HandicapBonus::N,
            Some("0") => HandicapBonus::Zero,
            Some("N-1") => HandicapBonus::NMinusOne,
            Some(_) => return refuse("whiteHandicapBonus", "tengen plays \"0\", \"N\" or \"N-1\""),
        };
        for k in m.keys() {
            if !KNOWN.contains(&k.as_str()) {
                // An empty name is no field to name: the rules are at fault.
                let field = if k.is_empty() { "rules" } else { k.as_str() };
                return Err(RulesError::new(
                    field,
                    format!("{k:?}: not a field of KataGo's rules objects"),
                ));
            }
        }
        Ok(Rules { handicap_bonus })
    }
}

const KO: &str = "ko";
const SCORING: &str = "scoring";
const TAX: &str = "tax";
const SUICIDE: &str = "suicide";
const KNOWN: &[&str] = &[
    KO,
    SCORING,
    TAX,
    SUICIDE,
    "hasButton",
    "whiteHandicapBonus",
    "friendlyPassOk",
];

/// Rules tengen does not play: the field that differs and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesError {
    /// The rules field at fault (`rules` for an unknown name or a malformed object).
    pub field: String,
    pub message: String,
}

impl RulesError {
    fn new(field: &str, message: String) -> Self {
        Self {
            field: field.to_string(),
            message,
        }
    }

    /// Whether only the scoring differs (territory rules), which an analysis may answer
    /// anyway, scored by area.
    #[must_use]
    pub fn is_scoring(&self) -> bool {
        self.field == SCORING
    }
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for n in ["chinese", "Chinese", "chinese-ogs", "CHINESE_KGS"] {
            assert_eq!(Rules::from_name(n), Ok(Rules::CHINESE), "{n}");
        }
        let field = |n: &str| Rules::from_name(n).unwrap_err().field;
        assert_eq!(field("japanese"), "scoring");
        assert_eq!(field("korean"), "scoring");
        assert_eq!(field("tromp-taylor"), "suicide");
        assert_eq!(field("new-zealand"), "suicide");
        assert_eq!(field("aga"), "ko");
        assert_eq!(field("stone-scoring"), "tax");
        assert_eq!(field("go-moku"), "rules");
        assert_eq!(
            Rules::from_name("tromp-taylor").unwrap_err().to_string(),
            "suicide: tengen forbids suicide (tromp-taylor)"
        );
        assert!(Rules::from_name("japanese").unwrap_err().is_scoring());
    }

    /// `kata-get-rules`' own answer reads back as the same rules, whatever the bonus.
    #[test]
    fn own_output_reads_back() {
        for b in [
            HandicapBonus::Zero,
            HandicapBonus::N,
            HandicapBonus::NMinusOne,
        ] {
            let r = Rules { handicap_bonus: b };
            assert_eq!(Rules::parse_text(&r.to_json()), Ok(r));
        }
    }

    #[test]
    fn objects() {
        let parse = |s: &str| Rules::parse_text(s);
        assert_eq!(parse("{}"), Ok(Rules::CHINESE));
        assert_eq!(
            parse(r#"{"scoring":"AREA","whiteHandicapBonus":"0"}"#),
            Ok(Rules {
                handicap_bonus: HandicapBonus::Zero
            })
        );
        let e = parse(r#"{"ko":"POSITIONAL","suicide":true}"#).unwrap_err();
        assert_eq!(e.to_string(), "suicide: tengen forbids suicide");
        assert_eq!(parse(r#"{"ko":"SIMPLE"}"#).unwrap_err().field, "ko");
        assert_eq!(
            parse(r#"{"scoring":"TERRITORY"}"#).unwrap_err().field,
            "scoring"
        );
        assert_eq!(parse(r#"{"tax":"SEKI"}"#).unwrap_err().field, "tax");
        assert_eq!(
            parse(r#"{"hasButton":true}"#).unwrap_err().field,
            "hasButton"
        );
        assert_eq!(
            parse(r#"{"whiteHandicapBonus":"2"}"#).unwrap_err().field,
            "whiteHandicapBonus"
        );
        assert_eq!(parse(r#"{"colour":"blue"}"#).unwrap_err().field, "colour");
        // Found by the analysis_request fuzz target: an empty name still names a field.
        assert_eq!(parse(r#"{"":1}"#).unwrap_err().field, "rules");
        assert_eq!(parse(r#"{"suicide":"no"}"#).unwrap_err().field, "suicide");
        assert_eq!(parse("{nope").unwrap_err().field, "rules");
    }

    #[test]
    fn bonus_points() {
        assert_eq!(HandicapBonus::N.points(9), 9.0);
        assert_eq!(HandicapBonus::NMinusOne.points(9), 8.0);
        assert_eq!(HandicapBonus::NMinusOne.points(0), 0.0);
        assert_eq!(HandicapBonus::Zero.points(9), 0.0);
    }
}
