//! The Kafka scenario's JSON (for share links, the saved run and import/export), written and
//! read field by field with the page's own codec; unknown and duplicate fields are errors, every
//! number is checked against its limit and the error names the field.
//!
//! ```json
//! {"version": 1, "kind": "kafka", "seed": 0, "idempotence": true, "max_in_flight": 5,
//!  "retries": 3, "transactional_id": false, "relay": "outbox", "inbox": false, "jitter_ms": 0,
//!  "delivery_timeout_ms": 240 (optional; absent: none),
//!  "inputs": [{"at_ms": 0, "type": "lose-next-ack"}, {"at_ms": 0, "type": "send", "count": 3}]}
//! ```

use super::pipeline::RelayKind;
use super::{Config, Input, KafkaLimit, KafkaScenario, TimedInput};
use crate::sim::json::{parse, Fields, Got, Json, JsonError, ObjectWriter};
use crate::sim::limits::{
    InputError, KAFKA_MAX_AT_MS, KAFKA_MAX_DELAY_MS, KAFKA_MAX_DELIVERY_TIMEOUT_MS,
    KAFKA_MAX_INPUTS, KAFKA_MAX_IN_FLIGHT, KAFKA_MAX_JITTER_MS, KAFKA_MAX_RETRIES, KAFKA_MAX_SEND,
    KAFKA_MIN_IN_FLIGHT, MAX_JSON_BYTES,
};

/// The version this page writes. It reads every version from 1: version 1 was written while the
/// producer model differed from Kafka's (it renumbered batches still on the wire, let a delayed
/// request overtake later ones on one connection, and answered an older epoch as fenced), so a
/// version-1 run opens with the same settings and inputs, run by the model as it is now, and the
/// page says so ([`from_json_versioned`]).
pub const KAFKA_SCENARIO_VERSION: u64 = 2;

/// Why a Kafka scenario's JSON was not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KafkaJsonError {
    /// Longer than `MAX_JSON_BYTES`.
    TooLong(usize),
    /// Not JSON, or a field wrong (the message names it, with line and column).
    Json(InputError),
    /// A limit broken (ordering, totals).
    Limit(KafkaLimit),
}

/// The scenario as JSON.
pub fn to_json(s: &KafkaScenario) -> String {
    let mut out = String::new();
    let mut o = ObjectWriter::new(&mut out);
    o.u64("version", KAFKA_SCENARIO_VERSION);
    o.str("kind", "kafka");
    o.u64("seed", s.seed);
    let c = &s.config;
    o.bool("idempotence", c.idempotence);
    o.u64("max_in_flight", u64::from(c.max_in_flight));
    o.u64("retries", u64::from(c.retries));
    o.bool("transactional_id", c.transactional_id);
    o.str("relay", c.relay.id());
    o.bool("inbox", c.inbox);
    o.u64("jitter_ms", u64::from(c.jitter_ms));
    if let Some(d) = c.delivery_timeout_ms {
        o.u64("delivery_timeout_ms", u64::from(d));
    }
    o.array("inputs", &s.inputs, |out, t| {
        let mut w = ObjectWriter::new(out);
        w.u64("at_ms", t.at_ms);
        w.str("type", t.input.id());
        match t.input {
            Input::Send { count } => w.u64("count", u64::from(count)),
            Input::DelayNextRequest { ms } => w.u64("ms", u64::from(ms)),
            _ => {}
        }
        w.end();
    });
    o.end();
    out
}

/// Reads a scenario; every field is checked.
pub fn from_json(text: &str) -> Result<KafkaScenario, KafkaJsonError> {
    from_json_versioned(text).map(|(s, _)| s)
}

/// Reads a scenario and the version it was written in.
pub fn from_json_versioned(text: &str) -> Result<(KafkaScenario, u64), KafkaJsonError> {
    if text.len() > MAX_JSON_BYTES {
        return Err(KafkaJsonError::TooLong(text.len()));
    }
    let doc = parse(text).map_err(|e| KafkaJsonError::Json(e.into_input_error(text)))?;
    let read = read(&doc).map_err(|e| KafkaJsonError::Json(e.into_input_error(text)))?;
    read.0.check().map_err(KafkaJsonError::Limit)?;
    Ok(read)
}

const FIELDS: [&str; 12] = [
    "version",
    "kind",
    "seed",
    "idempotence",
    "max_in_flight",
    "retries",
    "transactional_id",
    "relay",
    "inbox",
    "jitter_ms",
    "delivery_timeout_ms",
    "inputs",
];

fn ranged(g: &Got<'_, '_>, min: u64, max: u64) -> Result<u64, JsonError> {
    let n = g.u64()?;
    if n < min || n > max {
        return Err(g.expected(&format!("a whole number from {min} to {max}")));
    }
    Ok(n)
}

fn read(doc: &Json) -> Result<(KafkaScenario, u64), JsonError> {
    let root = Got::new(doc, "the scenario");
    let mut f = root.fields("")?;
    f.deny_unknown(&FIELDS)?;
    let version = f.req("version")?;
    let version = ranged(&version, 1, KAFKA_SCENARIO_VERSION)?;
    let kind = f.req("kind")?;
    kind.one_of(&["kafka"])?;
    let seed = f.opt_u64("seed", 0)?;
    let d = Config::default();
    let idempotence = f.opt_bool("idempotence", d.idempotence)?;
    let max_in_flight = opt_ranged(
        &mut f,
        "max_in_flight",
        u64::from(KAFKA_MIN_IN_FLIGHT),
        u64::from(KAFKA_MAX_IN_FLIGHT),
        u64::from(d.max_in_flight),
    )? as u8;
    let retries = opt_ranged(&mut f, "retries", 0, u64::from(KAFKA_MAX_RETRIES), 3)? as u8;
    let transactional_id = f.opt_bool("transactional_id", false)?;
    let relay = match f.opt("relay")? {
        Some(g) => g.pick(RelayKind::ALL, RelayKind::id)?,
        None => d.relay,
    };
    let inbox = f.opt_bool("inbox", false)?;
    let jitter_ms = opt_ranged(&mut f, "jitter_ms", 0, u64::from(KAFKA_MAX_JITTER_MS), 0)? as u32;
    // Absent (as in every link made before it existed): no delivery timeout.
    let delivery_timeout_ms = match f.opt("delivery_timeout_ms")? {
        Some(g) => Some(ranged(&g, 1, u64::from(KAFKA_MAX_DELIVERY_TIMEOUT_MS))? as u32),
        None => None,
    };
    let mut inputs = Vec::new();
    if let Some(g) = f.opt("inputs")? {
        let items = g.array()?;
        if items.len() > KAFKA_MAX_INPUTS {
            return Err(g.expected(&format!("at most {KAFKA_MAX_INPUTS} inputs")));
        }
        for (i, item) in items.iter().enumerate() {
            let what = format!("input {}", i + 1);
            inputs.push(read_input(item, &what)?);
        }
    }
    let scenario = KafkaScenario {
        config: Config {
            idempotence,
            max_in_flight,
            retries,
            transactional_id,
            relay,
            inbox,
            jitter_ms,
            delivery_timeout_ms,
        },
        seed,
        inputs,
    };
    Ok((scenario, version))
}

fn opt_ranged(
    f: &mut Fields<'_, '_>,
    name: &'static str,
    min: u64,
    max: u64,
    default: u64,
) -> Result<u64, JsonError> {
    match f.opt(name)? {
        Some(g) => ranged(&g, min, max),
        None => Ok(default),
    }
}

fn read_input(json: &Json, what: &str) -> Result<TimedInput, JsonError> {
    let g = Got::new(json, what);
    let mut f = g.fields(what)?;
    let ty = f.req("type")?;
    let kind = ty.one_of(&Input::KINDS)?;
    let expected: &[&str] = match Input::KINDS[kind] {
        "send" => &["at_ms", "type", "count"],
        "delay-next-request" => &["at_ms", "type", "ms"],
        _ => &["at_ms", "type"],
    };
    f.deny_unknown(expected)?;
    let at_ms = opt_ranged(&mut f, "at_ms", 0, KAFKA_MAX_AT_MS, 0)?;
    let input = match Input::KINDS[kind] {
        "send" => Input::Send {
            count: ranged(&f.req("count")?, 1, u64::from(KAFKA_MAX_SEND))? as u8,
        },
        "delay-next-request" => Input::DelayNextRequest {
            ms: ranged(&f.req("ms")?, 1, u64::from(KAFKA_MAX_DELAY_MS))? as u32,
        },
        "lose-next-request" => Input::LoseNextRequest,
        "lose-next-ack" => Input::LoseNextAck,
        "refuse-next-request" => Input::RefuseNextRequest,
        "expire-producers" => Input::ExpireProducers,
        "crash" => Input::Crash,
        "restart" => Input::Restart,
        _ => Input::WakeZombie,
    };
    Ok(TimedInput { at_ms, input })
}
