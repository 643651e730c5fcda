//! The page's state as JSON: the columns' settings, the learner's actions and the cursor. The
//! same text is the share link's payload (base64url), what this browser keeps for a reload, and
//! what Download / Import JSON write and read. Every field has a named limit; an error names
//! the field (and its line and column). Version 2 added each column's `start_to_close_ms` and
//! `request_id` and lets the second start come up to 48 h later; a version-1 state reads with
//! their defaults, and [`differs_from_version_1`] tells whether its run may now go otherwise.

use crate::sim::json::{self, Fields, Got, JsonError, ObjectWriter};
use crate::sim::limits::{
    InputError, MAX_DURABLE_ACTIONS, MAX_DURABLE_COLUMNS, MAX_DURABLE_FAULTS, MAX_DURABLE_STEPS,
    MAX_JSON_BYTES, MAX_PROPERTY_SEED,
};

use super::run::Action;
use super::{
    ClockMode, Config, ConflictPolicy, Engine, FaultKind, FaultSpec, FlowKind, KeyMode, RequestId,
    RestateTarget, ReusePolicy, StepName, MAX_START_AGAIN_MS, MAX_START_TO_CLOSE_MS,
    MIN_START_TO_CLOSE_MS,
};

/// The version this build writes. It reads versions 1 and 2.
pub const STATE_VERSION: u64 = 2;

/// What the page saves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedState {
    /// The worlds' settings, 1 to [`MAX_DURABLE_COLUMNS`].
    pub columns: Vec<Config>,
    /// The learner's actions and their steps, at most [`MAX_DURABLE_ACTIONS`].
    pub actions: Vec<(usize, Action)>,
    /// The step shown, at most [`MAX_DURABLE_STEPS`].
    pub cursor: usize,
}

/// Why a state was not read: the reader's error (naming the field) as an [`InputError`].
pub type StateError = InputError;

const FIELDS: [&str; 4] = ["version", "columns", "actions", "cursor"];
const CONFIG_FIELDS: [&str; 13] = [
    "flow",
    "engine",
    "key",
    "clock",
    "reuse",
    "conflict",
    "restate",
    "start_to_close_ms",
    "request_id",
    "faults",
    "start_again_at_ms",
    "auto_restart",
    "seed",
];

/// The state as compact JSON.
pub fn write_state(s: &SavedState) -> String {
    let mut out = String::new();
    let mut o = ObjectWriter::new(&mut out);
    o.u64("version", STATE_VERSION);
    o.array("columns", &s.columns, |out, c| {
        let mut o = ObjectWriter::new(out);
        o.str("flow", c.flow.id());
        o.str("engine", c.engine.id());
        o.str("key", c.key.id());
        o.str("clock", c.clock.id());
        o.str("reuse", c.reuse.id());
        o.str("conflict", c.conflict.id());
        o.str("restate", c.restate.id());
        o.u64("start_to_close_ms", c.start_to_close_ms);
        o.str("request_id", c.request_id.id());
        o.array("faults", &c.faults, |out, f| {
            let mut o = ObjectWriter::new(out);
            o.str("step", f.step.id());
            o.str("kind", f.kind.id());
            o.end();
        });
        match c.start_again_at_ms {
            Some(ms) => o.u64("start_again_at_ms", ms),
            None => o.key("start_again_at_ms").push_str("null"),
        }
        o.bool("auto_restart", c.auto_restart);
        o.u64("seed", c.seed);
        o.end();
    });
    o.array("actions", &s.actions, |out, (at, a)| {
        let mut o = ObjectWriter::new(out);
        o.u64("at", *at as u64);
        o.str("action", a.id());
        o.end();
    });
    o.u64("cursor", s.cursor as u64);
    o.end();
    out
}

fn limited(g: &Got, value: u64, max: u64, what: &str) -> Result<u64, JsonError> {
    if value > max {
        Err(g.expected(&format!("{what} at most {max}")))
    } else {
        Ok(value)
    }
}

/// The optional field `name`, one of `all` by its id; `default` when absent.
fn opt_pick<'c, T: Copy, const N: usize>(
    f: &mut Fields<'_, 'c>,
    name: &'c str,
    all: [T; N],
    id: fn(T) -> &'static str,
    default: T,
) -> Result<T, JsonError> {
    match f.opt(name)? {
        Some(g) => g.pick(all, id),
        None => Ok(default),
    }
}

fn read_config(g: Got) -> Result<Config, JsonError> {
    let mut f = g.fields("a column")?;
    f.deny_unknown(&CONFIG_FIELDS)?;
    let d = Config::default();
    let flow = opt_pick(&mut f, "flow", FlowKind::ALL, FlowKind::id, d.flow)?;
    let engine = opt_pick(&mut f, "engine", Engine::ALL, Engine::id, d.engine)?;
    let key = opt_pick(&mut f, "key", KeyMode::ALL, KeyMode::id, d.key)?;
    let clock = opt_pick(&mut f, "clock", ClockMode::ALL, ClockMode::id, d.clock)?;
    let reuse = opt_pick(&mut f, "reuse", ReusePolicy::ALL, ReusePolicy::id, d.reuse)?;
    let conflict = opt_pick(
        &mut f,
        "conflict",
        ConflictPolicy::ALL,
        ConflictPolicy::id,
        d.conflict,
    )?;
    // A state written before the field existed started Restate with an idempotency key.
    let restate = opt_pick(
        &mut f,
        "restate",
        RestateTarget::ALL,
        RestateTarget::id,
        d.restate,
    )?;
    // Written since version 2; before, Temporal had no timeout and every start a new request id.
    let start_to_close_ms = read_start_to_close(&mut f, d.start_to_close_ms)?;
    let request_id = opt_pick(
        &mut f,
        "request_id",
        RequestId::ALL,
        RequestId::id,
        d.request_id,
    )?;
    let faults = read_faults(&mut f)?;
    let start_again_at_ms = match f.opt("start_again_at_ms")? {
        Some(g) if g.is_null() => None,
        Some(g) => Some(limited(&g, g.u64()?, MAX_START_AGAIN_MS, "a time in ms")?),
        None => None,
    };
    let auto_restart = f.opt_bool("auto_restart", d.auto_restart)?;
    let seed = match f.opt("seed")? {
        Some(g) => limited(&g, g.u64()?, MAX_PROPERTY_SEED, "a seed")?,
        None => d.seed,
    };
    Ok(Config {
        flow,
        engine,
        key,
        clock,
        reuse,
        conflict,
        restate,
        start_to_close_ms,
        request_id,
        faults,
        start_again_at_ms,
        auto_restart,
        seed,
    })
}

/// A column's `start_to_close_ms`, within its limits; `default` when absent.
fn read_start_to_close(f: &mut Fields<'_, '_>, default: u64) -> Result<u64, JsonError> {
    let Some(g) = f.opt("start_to_close_ms")? else {
        return Ok(default);
    };
    let ms = g.u64()?;
    if !(MIN_START_TO_CLOSE_MS..=MAX_START_TO_CLOSE_MS).contains(&ms) {
        return Err(g.expected(&format!(
            "a timeout in ms from {MIN_START_TO_CLOSE_MS} to {MAX_START_TO_CLOSE_MS}"
        )));
    }
    Ok(ms)
}

/// A column's `faults`: at most [`MAX_DURABLE_FAULTS`], no two on one step.
fn read_faults(f: &mut Fields<'_, '_>) -> Result<Vec<FaultSpec>, JsonError> {
    let mut faults: Vec<FaultSpec> = Vec::new();
    let Some(list) = f.opt("faults")? else {
        return Ok(faults);
    };
    if list.array()?.len() > MAX_DURABLE_FAULTS {
        return Err(list.expected(&format!("at most {MAX_DURABLE_FAULTS} faults")));
    }
    for item in list.items()? {
        let mut ff = item.fields("a fault")?;
        ff.deny_unknown(&["step", "kind"])?;
        let step = ff.req("step")?.pick(StepName::ALL, StepName::id)?;
        let kind = ff.req("kind")?.pick(FaultKind::ALL, FaultKind::id)?;
        if faults.iter().any(|x| x.step == step) {
            return Err(item.expected("a fault on a step no other fault names"));
        }
        faults.push(FaultSpec { step, kind });
    }
    Ok(faults)
}

fn read(text: &str) -> Result<(SavedState, u64), JsonError> {
    let doc = json::parse(text)?;
    let root = Got::new(&doc, "the state");
    let mut f = root.fields("")?;
    f.deny_unknown(&FIELDS)?;
    let version = f.req("version")?;
    let version = match version.u64()? {
        v @ 1..=STATE_VERSION => v,
        _ => return Err(version.expected(&format!("1 to {STATE_VERSION}"))),
    };
    let cols = f.req("columns")?;
    let n = cols.array()?.len();
    if n == 0 || n > MAX_DURABLE_COLUMNS {
        return Err(cols.expected(&format!("1 to {MAX_DURABLE_COLUMNS} columns")));
    }
    let columns = cols
        .items()?
        .map(read_config)
        .collect::<Result<Vec<_>, _>>()?;
    let mut actions = Vec::new();
    if let Some(list) = f.opt("actions")? {
        if list.array()?.len() > MAX_DURABLE_ACTIONS {
            return Err(list.expected(&format!("at most {MAX_DURABLE_ACTIONS} actions")));
        }
        for item in list.items()? {
            let mut af = item.fields("an action")?;
            af.deny_unknown(&["at", "action"])?;
            let at = af.req("at")?;
            let step = limited(&at, at.u64()?, MAX_DURABLE_STEPS as u64, "a step")? as usize;
            let action = af.req("action")?.pick(Action::ALL, Action::id)?;
            if actions.iter().any(|(s, _)| *s == step) {
                return Err(item.expected("an action at a step no other action takes"));
            }
            actions.push((step, action));
        }
    }
    let cursor = match f.opt("cursor")? {
        Some(g) => limited(&g, g.u64()?, MAX_DURABLE_STEPS as u64, "a step")? as usize,
        None => 0,
    };
    Ok((
        SavedState {
            columns,
            actions,
            cursor,
        },
        version,
    ))
}

/// Reads a state written by [`write_state`] (or by hand): refused with an error that names the
/// field, never a panic.
pub fn read_state(text: &str) -> Result<SavedState, StateError> {
    read_state_versioned(text).map(|(s, _)| s)
}

/// Reads a state and the version it was written in (1 or [`STATE_VERSION`]).
pub fn read_state_versioned(text: &str) -> Result<(SavedState, u64), StateError> {
    if text.len() > MAX_JSON_BYTES {
        return Err(InputError::JsonTooLarge {
            bytes: text.len(),
            max: MAX_JSON_BYTES,
        });
    }
    read(text).map_err(|e| e.into_input_error(text))
}

/// Whether a state written by version 1 may run otherwise now: a Temporal column that starts a
/// run and in which an activity can be left without a result (a crash before or after its effect,
/// a lost reply, or a crash by the learner's hand). Version 1 ran such an activity again when the
/// new worker had replayed, or 2 s after a lost reply; Temporal now waits for the attempt's
/// Start-To-Close timeout and the retry's backoff, and replays after. Nothing else a version-1
/// state can hold runs otherwise (a transient failure is retried after the same backoff; a crash
/// after the journal replays as before).
pub fn differs_from_version_1(s: &SavedState) -> bool {
    let crash_by_hand = s.actions.iter().any(|(_, a)| *a == Action::Crash);
    s.columns.iter().any(|c| {
        c.engine == Engine::Temporal
            && c.policy_error().is_none()
            && (crash_by_hand
                || c.faults.iter().any(|f| {
                    matches!(
                        f.kind,
                        FaultKind::CrashBefore | FaultKind::CrashAfterEffect | FaultKind::ReplyLost
                    )
                }))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::durable::lessons::{lesson, LESSON_IDS};

    #[test]
    fn every_lesson_round_trips_and_bad_fields_are_named() {
        for id in LESSON_IDS {
            let l = lesson(id).unwrap();
            let s = SavedState {
                columns: l.columns,
                actions: vec![(3, Action::Crash), (9, Action::Restart)],
                cursor: 12,
            };
            let text = write_state(&s);
            assert_eq!(read_state(&text), Ok(s), "{id}");
        }
        let bad = |text: &str, needle: &str| match read_state(text) {
            Err(InputError::JsonInvalid { message, .. }) => {
                assert!(message.contains(needle), "{text}: {message}")
            }
            other => panic!("{text}: {other:?}"),
        };
        bad(r#"{"version":1,"columns":[]}"#, "1 to 4 columns");
        bad(r#"{"version":3,"columns":[{}]}"#, "`version`");
        bad(r#"{"version":0,"columns":[{}]}"#, "`version`");
        bad(
            r#"{"version":2,"columns":[{"start_to_close_ms":100}]}"#,
            "`start_to_close_ms`",
        );
        bad(
            r#"{"version":2,"columns":[{"request_id":"old"}]}"#,
            "`request_id`",
        );
        bad(
            r#"{"version":2,"columns":[{"start_again_at_ms":172800001}]}"#,
            "`start_again_at_ms`",
        );
        bad(
            r#"{"version":1,"columns":[{"engine":"kafka"}]}"#,
            "`engine`",
        );
        bad(
            r#"{"version":1,"columns":[{"seed":9007199254740992}]}"#,
            "`seed`",
        );
        bad(r#"{"version":1,"columns":[{}],"cursor":401}"#, "`cursor`");
        bad(r#"{"version":1,"columns":[{}],"x":1}"#, "unknown field `x`");
        bad(
            r#"{"version":1,"columns":[{"faults":[{"step":"charge_card","kind":"reply-lost"},{"step":"charge_card","kind":"fail-once"}]}]}"#,
            "no other fault",
        );
        assert!(matches!(
            read_state(&" ".repeat(MAX_JSON_BYTES + 1)),
            Err(InputError::JsonTooLarge { .. })
        ));
        // Defaults for what a hand-written state leaves out.
        let s = read_state(r#"{"version":1,"columns":[{}]}"#).unwrap();
        assert_eq!(s.columns, vec![Config::default()]);
        assert_eq!((s.actions.len(), s.cursor), (0, 0));
    }
}
