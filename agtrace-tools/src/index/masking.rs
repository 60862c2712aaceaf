//! Masking at ingest: the index never holds a secret an answer would mask.
//!
//! Masking only answers left the secrets in the index: a prefix search could rebuild a masked
//! key one character at a time, an exact search confirmed a guess, and the index file held them
//! verbatim. So what a parser thread makes of a log is masked ([`mask_parsed`], the masking
//! answers use, [`crate::secrets`]) before anything of it is written: event texts (and so the
//! word and CJK indexes), the parse state kept for appends (which holds the first prompt and the
//! project root), and the paths of file history.
//!
//! Unless [`Config::show_secrets`] is set when indexing: then the index holds the raw text. The
//! choice is recorded in the `meta` table; a run under the other choice rebuilds the index
//! ([`Choice::rebuild_needed`]), in one write transaction with SQLite's `secure_delete` on, so
//! that neither a half-rebuilt index nor the freed pages of the old text are left behind.
//!
//! [`Config::show_secrets`]: crate::config::Config::show_secrets

use rusqlite::{Connection, OptionalExtension};

use super::touches::Touch;
use crate::config::Config;
use crate::error::Result;
use crate::model::Event;
use crate::providers::ParseState;
use crate::secrets;

/// The `meta` table: settings the index was built with (an added table: older versions ignore
/// it). Key [`SECRETS_KEY`]: `masked` or `raw`.
pub(super) const TABLE: &str = r#"
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
"#;

const SECRETS_KEY: &str = "secrets";

/// What the index holds of secrets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Choice {
    /// Masked as answers mask them (the default).
    Masked,
    /// As the logs have them ([`Config::show_secrets`](crate::config::Config::show_secrets)).
    Raw,
}

impl Choice {
    /// The choice a run under `cfg` indexes with.
    pub(crate) fn of(cfg: &Config) -> Self {
        if cfg.show_secrets {
            Choice::Raw
        } else {
            Choice::Masked
        }
    }

    /// The recorded form.
    pub(super) fn as_str(self) -> &'static str {
        match self {
            Choice::Masked => "masked",
            Choice::Raw => "raw",
        }
    }

    /// Whether the parser threads mask what they make.
    pub(super) fn masks(self) -> bool {
        self == Choice::Masked
    }

    /// Whether an index whose recorded choice is `stored` ([`stored`]) holds text of another
    /// choice than `self`, so that a run must rebuild it before adding text of `self`'s.
    pub(super) fn differs(self, stored: Option<&str>) -> bool {
        stored.is_some_and(|s| s != self.as_str())
    }

    /// [`Choice::differs`] for the index behind `conn`.
    pub(crate) fn rebuild_needed(self, conn: &Connection) -> Result<bool> {
        Ok(self.differs(stored(conn)?.as_deref()))
    }
}

/// The recorded choice, as stored; `None` for an index that holds no log yet. An index with
/// logs and no record was built before the choice was recorded, when the index held the raw
/// text: it reads as `raw`. A value a later version wrote and this one does not know reads as
/// itself, so that it differs from either choice and the index is rebuilt.
pub(super) fn stored(conn: &Connection) -> Result<Option<String>> {
    // Prepared once per connection: every search asks (store's `match_choice`).
    let value: Option<String> = conn
        .prepare_cached("SELECT value FROM meta WHERE key = ?1")?
        .query_row([SECRETS_KEY], |r| r.get(0))
        .optional()?;
    if value.is_some() {
        return Ok(value);
    }
    let any_log: bool = conn.query_row("SELECT EXISTS(SELECT 1 FROM files)", [], |r| r.get(0))?;
    Ok(any_log.then(|| Choice::Raw.as_str().to_string()))
}

/// Records `choice` as what the index holds. Call in the transaction that writes its text.
pub(super) fn record(conn: &Connection, choice: Choice) -> Result<()> {
    conn.execute(
        "INSERT INTO meta (key, value) VALUES (?1, ?2)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        [SECRETS_KEY, choice.as_str()],
    )?;
    Ok(())
}

/// Masks, in place, what a parser thread made of a log: the events' texts, the parse state that
/// is stored for appends, and the file history's paths (extracted from the raw tool calls
/// before: a mask inside a JSON argument must not hide the call's paths).
pub(super) fn mask_parsed(events: &mut [Event], state: &mut ParseState, touches: &mut Vec<Touch>) {
    events.iter_mut().for_each(secrets::mask_event);
    mask_state(state);
    mask_touches(touches);
}

/// [`secrets::mask`] on every string of the state, through its JSON form (the form it is
/// stored in): the first prompt, the project root, a provider's remembered texts. Left as it is
/// in the rare case the masked form does not read back.
fn mask_state(state: &mut ParseState) {
    let Ok(mut value) = serde_json::to_value(&*state) else {
        return;
    };
    if !secrets::mask_json_changed(&mut value) {
        return;
    }
    if let Ok(masked) = serde_json::from_value::<ParseState>(value) {
        // Not serialized: keep what the parse set.
        let (record_ms, cap) = (state.record_ms, state.result_text_cap);
        *state = masked;
        state.record_ms = record_ms;
        state.result_text_cap = cap;
    }
}

/// Masks the touched paths; two paths masked alike in one call become one row.
fn mask_touches(touches: &mut Vec<Touch>) {
    let mut changed = false;
    for t in touches.iter_mut() {
        if let std::borrow::Cow::Owned(m) = secrets::mask(&t.path) {
            t.path = m;
            changed = true;
        }
    }
    if changed {
        touches.sort_by(|a, b| (&a.path, a.index, a.action).cmp(&(&b.path, b.index, b.action)));
        touches.dedup();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::touches::Action;
    use crate::model::Provider;
    use crate::providers::FileHint;

    #[test]
    fn the_stored_choice_differs_only_when_recorded_otherwise() {
        assert!(
            !Choice::Masked.differs(None),
            "an empty index takes any choice"
        );
        assert!(!Choice::Masked.differs(Some("masked")));
        assert!(Choice::Masked.differs(Some("raw")));
        assert!(Choice::Raw.differs(Some("masked")));
        assert!(
            Choice::Raw.differs(Some("masked-v2")),
            "an unknown choice is rebuilt"
        );
    }

    #[test]
    fn the_state_kept_for_appends_is_masked_and_ordinary_text_kept() {
        let path = std::path::Path::new("/logs/-work-app/s.jsonl");
        let hint = FileHint::from_path(Provider::ClaudeCode, path);
        let mut state = ParseState::new(Provider::ClaudeCode, &hint);
        state.meta.first_prompt = Some("deploy with AKIAQ7RZ5XK2MBN4TW3P".into());
        state.meta.cwd = Some("/work/ASIAPACIFICNORTH2024".into());
        state.record_ms = Some(7);
        mask_parsed(&mut [], &mut state, &mut Vec::new());
        assert_eq!(
            state.meta.first_prompt.as_deref(),
            Some("deploy with [REDACTED:aws_access_key_id]")
        );
        assert_eq!(
            state.meta.cwd.as_deref(),
            Some("/work/ASIAPACIFICNORTH2024")
        );
        assert_eq!(state.record_ms, Some(7), "transient fields survive");
    }

    #[test]
    fn touched_paths_masked_alike_become_one_row() {
        let touch = |path: &str| Touch {
            path: path.into(),
            index: 3,
            action: Action::Read,
            turn: 0,
        };
        let mut touches = vec![
            touch("keys/ghp_Zq8RtY2uVw4xKpL6mN0bC3dF5gH7jS9aE1iO"),
            touch("keys/ghp_Aq8RtY2uVw4xKpL6mN0bC3dF5gH7jS9aE1iO"),
            touch("src/main.rs"),
        ];
        mask_touches(&mut touches);
        let paths: Vec<&str> = touches.iter().map(|t| t.path.as_str()).collect();
        assert_eq!(paths, ["keys/[REDACTED:github_token]", "src/main.rs"]);
    }
}
