//! Scenario JSON, version 1 (the format README.md describes), written and read by hand with
//! [`crate::sim::json`]. The writer produces the bytes serde_json produced for the derived format
//! (fields in struct order, `"key":null` for a minted key, a wired service's absent settings left
//! out); the reader takes what it took: defaults for the optional fields, `null` for an absent key
//! or wired setting, and an error naming the field for anything else, an unknown field included.
//! `tests/json_codec.rs` holds both to a record made with serde_json.
//!
//! A key is read as any text the limits allow, even one that is not the IETF draft's sf-string
//! (printable ASCII, `limits::KEY_CHARS`): keys typed in the sandbox are checked so since issue
//! 26, but a link, a saved run or a file made before then still opens as it was made (the format's
//! version is unchanged), and `Scenario::unsendable_key` finds such a key for the page to name.

use super::{Scenario, ServiceSpec, WiredService};
use crate::sim::article::production::{FailureCaching, MismatchStatus, Policies};
use crate::sim::base::uuidgen::KeyFormat;
use crate::sim::json::{self, write_str, Fields, Got, Json, JsonError, ObjectWriter};
use crate::sim::limits::{InputError, SCENARIO_VERSION};
use crate::sim::world::account::{
    Caller, FingerprintFields, KeyScope, MissingKey, PayloadCheck, RequestPolicies,
};
use crate::sim::world::client::{KeyStrategy, RetryKind, RetryPolicy};
use crate::sim::world::downstream::{Downstream, OutagePolicy};
use crate::sim::world::fault::Fault;
use crate::sim::world::input::{Input, RequestSpec};
use crate::sim::world::outbox::EmitMode;
use crate::sim::world::server::ServiceKind;
use crate::sim::world::LoggedInput;

const SCENARIO_FIELDS: [&str; 13] = [
    "version",
    "seed",
    "initial_balance",
    "services",
    "emit",
    "consumer_dedupes",
    "policies",
    "latency_ms",
    "jitter_ms",
    "timeout_ms",
    "inputs",
    "branch",
    "requests",
];
const BRANCH_FIELDS: [&str; 2] = ["at_step", "input"];
const DOWNSTREAM_FIELDS: [&str; 6] = [
    "processor_ms",
    "slow_ms",
    "pass_key",
    "recovery_points",
    "store_capacity",
    "outage",
];
/// The request policies (issue 13), each optional.
const REQUEST_POLICY_FIELDS: [&str; 4] = ["scope", "fingerprint", "payload_check", "missing_key"];
const POLICY_FIELDS: [&str; 5] = [
    "retention_ms",
    "mismatch",
    "failure_caching",
    "in_flight",
    "in_flight_timeout_ms",
];
const WIRED_FIELDS: [&str; 3] = ["kind", "emit", "consumer_dedupes"];
const REQUEST_FIELDS: [&str; 5] = ["key", "key_format", "amount", "description", "fault"];
const INPUT_TYPES: [&str; 10] = [
    "request",
    "operation",
    "parallel",
    "retry",
    "advance-time",
    "relay-tick",
    "deposit",
    "set-fault",
    "crash",
    "as",
];
/// The fields of each retry kind, besides `kind`.
fn retry_fields(kind: RetryKind) -> &'static [&'static str] {
    match kind {
        RetryKind::None | RetryKind::Immediate => &[],
        RetryKind::Fixed => &["delay_ms"],
        RetryKind::ExponentialJitter => &["base_ms", "cap_ms"],
    }
}
/// The fields of each input type, besides `type`, in `INPUT_TYPES` order.
const INPUT_FIELDS: [&[&str]; 10] = [
    &REQUEST_FIELDS,
    &[
        "amount",
        "description",
        "key_format",
        "key_strategy",
        "retry",
        "max_attempts",
        "faults",
    ],
    &["requests", "same_key"],
    &["new_key", "fault"],
    &["ms"],
    &["crash_after_publish"],
    &["amount"],
    &["op", "attempt", "fault"],
    &[],
    &["account", "stamps_body", "sends_key", "input"],
];

/// The scenario as compact JSON.
pub(crate) fn write(s: &Scenario) -> String {
    let mut out = String::with_capacity(400 + 150 * s.inputs.len());
    let mut o = ObjectWriter::new(&mut out);
    o.u64("version", s.version.into());
    o.u64("seed", s.seed);
    o.i64("initial_balance", s.initial_balance);
    o.array("services", &s.services, write_service);
    o.str("emit", s.emit.id());
    o.bool("consumer_dedupes", s.consumer_dedupes);
    write_policies(o.key("policies"), &s.policies);
    o.u64("latency_ms", s.latency_ms);
    o.u64("jitter_ms", s.jitter_ms);
    o.u64("timeout_ms", s.timeout_ms);
    o.array("inputs", &s.inputs, write_input);
    // Left out when the run was never forked: old links round-trip byte for byte.
    if !s.branch.is_empty() {
        o.array("branch", &s.branch, |w, b| {
            let mut e = ObjectWriter::new(w);
            e.u64("at_step", b.at_step as u64);
            write_input(e.key("input"), &b.input);
            e.end();
        });
    }
    // Left out when it is the article's world, so every older scenario keeps its bytes.
    if s.downstream != Downstream::default() {
        write_downstream(o.key("downstream"), &s.downstream);
    }
    if !s.requests.is_default() {
        write_request_policies(o.key("requests"), &s.requests);
    }
    o.end();
    out
}

fn write_downstream(out: &mut String, d: &Downstream) {
    let mut o = ObjectWriter::new(out);
    o.u64("processor_ms", d.processor_ms);
    o.u64("slow_ms", d.slow_ms);
    o.bool("pass_key", d.pass_key);
    o.bool("recovery_points", d.recovery_points);
    o.u64("store_capacity", d.store_capacity.into());
    o.str("outage", d.outage.id());
    o.end();
}

/// The settings beyond the server; a missing field keeps its default.
fn read_downstream(g: &Got<'_, '_>) -> Result<Downstream, JsonError> {
    let what = g.describe();
    let mut f = g.fields(&what)?;
    f.deny_unknown(&DOWNSTREAM_FIELDS)?;
    let d = Downstream::default();
    let processor_ms = f.opt_u64("processor_ms", d.processor_ms)?;
    let slow_ms = f.opt_u64("slow_ms", d.slow_ms)?;
    let pass_key = f.opt_bool("pass_key", d.pass_key)?;
    let recovery_points = f.opt_bool("recovery_points", d.recovery_points)?;
    let store_capacity = match f.opt("store_capacity")? {
        Some(g) => g.u32()?,
        None => d.store_capacity,
    };
    let outage = match f.opt("outage")? {
        Some(g) => g.pick(OutagePolicy::ALL, OutagePolicy::id)?,
        None => d.outage,
    };
    Ok(Downstream {
        processor_ms,
        slow_ms,
        pass_key,
        recovery_points,
        store_capacity,
        outage,
    })
}

/// The request policies that differ from the default (the others are left out).
fn write_request_policies(out: &mut String, p: &RequestPolicies) {
    let d = RequestPolicies::default();
    let mut o = ObjectWriter::new(out);
    if p.scope != d.scope {
        o.str("scope", p.scope.id());
    }
    if p.fingerprint != d.fingerprint {
        o.str("fingerprint", p.fingerprint.id());
    }
    if p.payload_check != d.payload_check {
        o.str("payload_check", p.payload_check.id());
    }
    if p.missing_key != d.missing_key {
        o.str("missing_key", p.missing_key.id());
    }
    o.end();
}

fn write_service(out: &mut String, spec: &ServiceSpec) {
    match spec {
        ServiceSpec::Kind(kind) => write_str(out, kind.id()),
        ServiceSpec::Wired(w) => {
            let mut o = ObjectWriter::new(out);
            o.str("kind", w.kind.id());
            if let Some(emit) = w.emit {
                o.str("emit", emit.id());
            }
            if let Some(dedupes) = w.consumer_dedupes {
                o.bool("consumer_dedupes", dedupes);
            }
            o.end();
        }
    }
}

fn write_policies(out: &mut String, p: &Policies) {
    let mut o = ObjectWriter::new(out);
    o.u64("retention_ms", p.retention_ms);
    o.str("mismatch", p.mismatch.id());
    o.str("failure_caching", p.failure_caching.id());
    o.bool("in_flight", p.in_flight);
    o.u64("in_flight_timeout_ms", p.in_flight_timeout_ms);
    o.end();
}

/// The fields shared by a `request` input and a request of a `parallel` one, in their order.
fn write_request(
    o: &mut ObjectWriter<'_>,
    key: &Option<String>,
    key_format: KeyFormat,
    amount: i64,
    description: &str,
    fault: Fault,
) {
    match key {
        Some(key) => o.str("key", key),
        None => o.key("key").push_str("null"),
    }
    o.str("key_format", key_format.id());
    o.i64("amount", amount);
    o.str("description", description);
    o.str("fault", fault.id());
}

fn write_retry(out: &mut String, retry: &RetryPolicy) {
    let mut o = ObjectWriter::new(out);
    o.str("kind", retry.kind().id());
    match *retry {
        RetryPolicy::None | RetryPolicy::Immediate => {}
        RetryPolicy::Fixed { delay_ms } => o.u64("delay_ms", delay_ms),
        RetryPolicy::ExponentialJitter { base_ms, cap_ms } => {
            o.u64("base_ms", base_ms);
            o.u64("cap_ms", cap_ms);
        }
    }
    o.end();
}

/// A request of a `parallel` input, as an object.
fn write_request_spec(out: &mut String, r: &RequestSpec) {
    let mut spec = ObjectWriter::new(out);
    write_request(
        &mut spec,
        &r.key,
        r.key_format,
        r.amount,
        &r.description,
        r.fault,
    );
    spec.end();
}

/// An `as` input's caller: only what differs from the default caller.
fn write_caller(o: &mut ObjectWriter<'_>, caller: &Caller) {
    let d = Caller::default();
    if caller.account != d.account {
        o.u64("account", caller.account.into());
    }
    if caller.stamps_body != d.stamps_body {
        o.bool("stamps_body", caller.stamps_body);
    }
    if caller.sends_key != d.sends_key {
        o.bool("sends_key", caller.sends_key);
    }
}

fn write_input(out: &mut String, input: &Input) {
    let mut o = ObjectWriter::new(out);
    match input {
        Input::Request {
            key,
            key_format,
            amount,
            description,
            fault,
        } => {
            o.str("type", "request");
            write_request(&mut o, key, *key_format, *amount, description, *fault);
        }
        Input::Operation {
            amount,
            description,
            key_format,
            key_strategy,
            retry,
            max_attempts,
            faults,
        } => {
            o.str("type", "operation");
            o.i64("amount", *amount);
            o.str("description", description);
            o.str("key_format", key_format.id());
            o.str("key_strategy", key_strategy.id());
            write_retry(o.key("retry"), retry);
            o.u64("max_attempts", (*max_attempts).into());
            o.array("faults", faults, |w, fault| write_str(w, fault.id()));
        }
        Input::Parallel { requests, same_key } => {
            o.str("type", "parallel");
            o.array("requests", requests, write_request_spec);
            o.bool("same_key", *same_key);
        }
        Input::Retry { new_key, fault } => {
            o.str("type", "retry");
            o.bool("new_key", *new_key);
            o.str("fault", fault.id());
        }
        Input::AdvanceTime { ms } => {
            o.str("type", "advance-time");
            o.u64("ms", *ms);
        }
        Input::RelayTick {
            crash_after_publish,
        } => {
            o.str("type", "relay-tick");
            o.bool("crash_after_publish", *crash_after_publish);
        }
        Input::Deposit { amount } => {
            o.str("type", "deposit");
            o.i64("amount", *amount);
        }
        Input::SetFault { op, attempt, fault } => {
            o.str("type", "set-fault");
            o.u64("op", (*op).into());
            o.u64("attempt", (*attempt).into());
            o.str("fault", fault.id());
        }
        Input::Crash => o.str("type", "crash"),
        Input::As { caller, input } => {
            o.str("type", "as");
            write_caller(&mut o, caller);
            write_input(o.key("input"), input);
        }
    }
    o.end();
}

/// Reads scenario JSON: the version first, on its own, so a newer file gets "unsupported
/// version" rather than a confusing unknown-field error; then every field. Validation against the
/// limits is the caller's.
pub(crate) fn read(text: &str) -> Result<Scenario, InputError> {
    let doc = json::parse(text).map_err(|e| e.into_input_error(text))?;
    let version = read_version(&doc).map_err(|e| e.into_input_error(text))?;
    if version != SCENARIO_VERSION {
        return Err(InputError::UnsupportedVersion {
            version,
            supported: SCENARIO_VERSION,
        });
    }
    read_scenario(&doc).map_err(|e| e.into_input_error(text))
}

fn read_version(doc: &Json) -> Result<u32, JsonError> {
    // Every other field is ignored here: another version may have other fields.
    Got::new(doc, "a scenario")
        .fields("")?
        .req("version")?
        .u32()
}

fn read_scenario(doc: &Json) -> Result<Scenario, JsonError> {
    let mut f = Got::new(doc, "a scenario").fields("")?;
    // Issue 13's optional `downstream` is read first, so the fields an error lists stay the
    // article's (and every message the JSON record holds stays the same).
    let downstream = match f.opt("downstream")? {
        Some(g) => read_downstream(&g)?,
        None => Downstream::default(),
    };
    f.deny_unknown(&SCENARIO_FIELDS)?;
    let version = f.req("version")?.u32()?;
    let seed = f.req("seed")?.u64()?;
    let initial_balance = f.req("initial_balance")?.i64()?;
    let mut services = Vec::new();
    for (i, item) in f.req("services")?.array()?.iter().enumerate() {
        services.push(read_service(item, &format!("service {}", i + 1))?);
    }
    let emit = match f.opt("emit")? {
        Some(g) => read_emit(&g)?,
        None => EmitMode::default(),
    };
    let consumer_dedupes = f.opt_bool("consumer_dedupes", true)?;
    let policies = match f.opt("policies")? {
        Some(g) => read_policies(&g)?,
        None => Policies::default(),
    };
    let latency_ms = f.req("latency_ms")?.u64()?;
    let jitter_ms = f.opt_u64("jitter_ms", 0)?;
    let timeout_ms = f.req("timeout_ms")?.u64()?;
    let mut inputs = Vec::new();
    for (i, item) in f.req("inputs")?.array()?.iter().enumerate() {
        inputs.push(read_input(item, &format!("input {}", i + 1))?);
    }
    let mut branch = Vec::new();
    if let Some(g) = f.opt("branch")? {
        for (i, item) in g.array()?.iter().enumerate() {
            branch.push(read_fork(item, &format!("fork {}", i + 1))?);
        }
    }
    let requests = match f.opt("requests")? {
        Some(g) => read_request_policies(&g)?,
        None => RequestPolicies::default(),
    };
    Ok(Scenario {
        version,
        seed,
        initial_balance,
        services,
        emit,
        consumer_dedupes,
        policies,
        latency_ms,
        jitter_ms,
        timeout_ms,
        inputs,
        branch,
        downstream,
        requests,
    })
}

/// One fork of the branch: `{"at_step": k, "input": {...}}`.
fn read_fork(json: &Json, what: &str) -> Result<LoggedInput, JsonError> {
    let mut f = Got::new(json, what).fields(what)?;
    f.deny_unknown(&BRANCH_FIELDS)?;
    let at_step = f.req("at_step")?.u64()?;
    let input = read_input(f.req("input")?.json, &format!("the input of {what}"))?;
    Ok(LoggedInput {
        at_step: usize::try_from(at_step).unwrap_or(usize::MAX),
        input,
    })
}

/// The request policies; a missing field keeps its default.
fn read_request_policies(g: &Got<'_, '_>) -> Result<RequestPolicies, JsonError> {
    let what = g.describe();
    let mut f = g.fields(&what)?;
    f.deny_unknown(&REQUEST_POLICY_FIELDS)?;
    let d = RequestPolicies::default();
    Ok(RequestPolicies {
        scope: match f.opt("scope")? {
            Some(g) => g.pick(KeyScope::ALL, KeyScope::id)?,
            None => d.scope,
        },
        fingerprint: match f.opt("fingerprint")? {
            Some(g) => g.pick(FingerprintFields::ALL, FingerprintFields::id)?,
            None => d.fingerprint,
        },
        payload_check: match f.opt("payload_check")? {
            Some(g) => g.pick(PayloadCheck::ALL, PayloadCheck::id)?,
            None => d.payload_check,
        },
        missing_key: match f.opt("missing_key")? {
            Some(g) => g.pick(MissingKey::ALL, MissingKey::id)?,
            None => d.missing_key,
        },
    })
}

fn read_service_kind(g: &Got<'_, '_>) -> Result<ServiceKind, JsonError> {
    g.pick(ServiceKind::ALL, ServiceKind::id)
}

fn read_emit(g: &Got<'_, '_>) -> Result<EmitMode, JsonError> {
    g.pick(EmitMode::ALL, EmitMode::id)
}

fn read_fault(g: &Got<'_, '_>) -> Result<Fault, JsonError> {
    // Issue 13's faults are read by name; anything else is checked against the article's list,
    // so its message is the one the JSON record holds.
    if let json::Value::Str(name) = &g.json.value {
        if let Some(f) = Fault::EVERY[Fault::ALL.len()..]
            .iter()
            .find(|f| f.id() == name)
        {
            return Ok(*f);
        }
    }
    g.pick(Fault::ALL, Fault::id)
}

fn read_key_format(f: &mut Fields<'_, '_>) -> Result<KeyFormat, JsonError> {
    match f.opt("key_format")? {
        Some(g) => g.pick(KeyFormat::ALL, KeyFormat::id),
        None => Ok(KeyFormat::default()),
    }
}

fn read_fault_field(f: &mut Fields<'_, '_>) -> Result<Fault, JsonError> {
    match f.opt("fault")? {
        Some(g) => read_fault(&g),
        None => Ok(Fault::default()),
    }
}

/// A service name, or an object with `kind` and the optional `emit` and `consumer_dedupes`
/// (`null` meaning absent).
fn read_service(json: &Json, what: &str) -> Result<ServiceSpec, JsonError> {
    let g = Got::new(json, what);
    match json.value {
        json::Value::Str(_) => read_service_kind(&g).map(ServiceSpec::Kind),
        json::Value::Object(_) => {
            let mut f = g.fields(what)?;
            f.deny_unknown(&WIRED_FIELDS)?;
            let kind = read_service_kind(&f.req("kind")?)?;
            let emit = match f.opt("emit")? {
                Some(g) if !g.is_null() => Some(read_emit(&g)?),
                _ => None,
            };
            let consumer_dedupes = match f.opt("consumer_dedupes")? {
                Some(g) if !g.is_null() => Some(g.bool()?),
                _ => None,
            };
            Ok(ServiceSpec::Wired(WiredService {
                kind,
                emit,
                consumer_dedupes,
            }))
        }
        _ => Err(g.expected(&format!(
            "a service name ({}) or an object with `kind`",
            ServiceKind::ALL.map(ServiceKind::id).join(", ")
        ))),
    }
}

/// The policies; a missing field keeps its default (Stripe's).
fn read_policies(g: &Got<'_, '_>) -> Result<Policies, JsonError> {
    let what = g.describe();
    let mut f = g.fields(&what)?;
    f.deny_unknown(&POLICY_FIELDS)?;
    let d = Policies::default();
    let retention_ms = f.opt_u64("retention_ms", d.retention_ms)?;
    let mismatch = match f.opt("mismatch")? {
        Some(g) => g.pick(MismatchStatus::ALL, MismatchStatus::id)?,
        None => d.mismatch,
    };
    let failure_caching = match f.opt("failure_caching")? {
        Some(g) => g.pick(FailureCaching::ALL, FailureCaching::id)?,
        None => d.failure_caching,
    };
    let in_flight = f.opt_bool("in_flight", d.in_flight)?;
    let in_flight_timeout_ms = f.opt_u64("in_flight_timeout_ms", d.in_flight_timeout_ms)?;
    Ok(Policies {
        retention_ms,
        mismatch,
        failure_caching,
        in_flight,
        in_flight_timeout_ms,
    })
}

/// A minted key is `null` or absent.
fn read_key(f: &mut Fields<'_, '_>) -> Result<Option<String>, JsonError> {
    match f.opt("key")? {
        Some(g) if !g.is_null() => g.string().map(Some),
        _ => Ok(None),
    }
}

fn read_request_spec(json: &Json, what: &str) -> Result<RequestSpec, JsonError> {
    let mut f = Got::new(json, what).fields(what)?;
    f.deny_unknown(&REQUEST_FIELDS)?;
    let spec = RequestSpec {
        key: read_key(&mut f)?,
        key_format: read_key_format(&mut f)?,
        amount: f.req("amount")?.i64()?,
        description: f.opt_string("description")?,
        fault: read_fault_field(&mut f)?,
    };
    Ok(spec)
}

fn read_retry(g: &Got<'_, '_>) -> Result<RetryPolicy, JsonError> {
    let what = g.describe();
    let mut f = g.fields(&what)?;
    let kind = f.req("kind")?.pick(RetryKind::ALL, RetryKind::id)?;
    f.deny_unknown(retry_fields(kind))?;
    Ok(match kind {
        RetryKind::None => RetryPolicy::None,
        RetryKind::Immediate => RetryPolicy::Immediate,
        RetryKind::Fixed => RetryPolicy::Fixed {
            delay_ms: f.req("delay_ms")?.u64()?,
        },
        RetryKind::ExponentialJitter => RetryPolicy::ExponentialJitter {
            base_ms: f.req("base_ms")?.u64()?,
            cap_ms: f.req("cap_ms")?.u64()?,
        },
    })
}

fn read_input(json: &Json, what: &str) -> Result<Input, JsonError> {
    let mut f = Got::new(json, what).fields(what)?;
    let ty = f.req("type")?.one_of(&INPUT_TYPES)?;
    f.deny_unknown(INPUT_FIELDS[ty])?;
    Ok(match ty {
        0 => Input::Request {
            key: read_key(&mut f)?,
            key_format: read_key_format(&mut f)?,
            amount: f.req("amount")?.i64()?,
            description: f.opt_string("description")?,
            fault: read_fault_field(&mut f)?,
        },
        1 => read_operation(&mut f)?,
        2 => read_parallel(&mut f, what)?,
        3 => Input::Retry {
            new_key: f.opt_bool("new_key", false)?,
            fault: read_fault_field(&mut f)?,
        },
        4 => Input::AdvanceTime {
            ms: f.req("ms")?.u64()?,
        },
        5 => Input::RelayTick {
            crash_after_publish: f.opt_bool("crash_after_publish", false)?,
        },
        6 => Input::Deposit {
            amount: f.req("amount")?.i64()?,
        },
        7 => Input::SetFault {
            op: f.req("op")?.u32()?,
            attempt: f.req("attempt")?.u32()?,
            fault: read_fault(&f.req("fault")?)?,
        },
        8 => Input::Crash,
        _ => read_as(&mut f, what)?,
    })
}

/// The fields of an `operation` input, in their order.
fn read_operation(f: &mut Fields<'_, '_>) -> Result<Input, JsonError> {
    let amount = f.req("amount")?.i64()?;
    let description = f.opt_string("description")?;
    let key_format = read_key_format(f)?;
    let key_strategy = match f.opt("key_strategy")? {
        Some(g) => g.pick(KeyStrategy::ALL, KeyStrategy::id)?,
        None => KeyStrategy::default(),
    };
    let retry = match f.opt("retry")? {
        Some(g) => read_retry(&g)?,
        None => RetryPolicy::default(),
    };
    let max_attempts = f.req("max_attempts")?.u32()?;
    let mut faults = Vec::new();
    if let Some(g) = f.opt("faults")? {
        for item in g.items()? {
            faults.push(read_fault(&item)?);
        }
    }
    Ok(Input::Operation {
        amount,
        description,
        key_format,
        key_strategy,
        retry,
        max_attempts,
        faults,
    })
}

/// The fields of a `parallel` input (`what` names it).
fn read_parallel(f: &mut Fields<'_, '_>, what: &str) -> Result<Input, JsonError> {
    let mut requests = Vec::new();
    for (i, item) in f.req("requests")?.array()?.iter().enumerate() {
        requests.push(read_request_spec(
            item,
            &format!("request {} of {what}", i + 1),
        )?);
    }
    let same_key = f.opt_bool("same_key", false)?;
    Ok(Input::Parallel { requests, same_key })
}

/// The fields of an `as` input (`what` names it): the caller, then the wrapped input.
fn read_as(f: &mut Fields<'_, '_>, what: &str) -> Result<Input, JsonError> {
    let d = Caller::default();
    let caller = Caller {
        account: f.opt_u64("account", d.account.into())?.min(u32::MAX.into()) as u32,
        stamps_body: f.opt_bool("stamps_body", d.stamps_body)?,
        sends_key: f.opt_bool("sends_key", d.sends_key)?,
    };
    let inner = f.req("input")?;
    let input = read_input(inner.json, &format!("the input of {what}"))?;
    Ok(Input::As {
        caller,
        input: Box::new(input),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(text: &str) -> Result<Input, String> {
        let doc = json::parse(text).expect("JSON");
        read_input(&doc, "input 3").map_err(|e| e.message)
    }

    fn policies(text: &str) -> Result<Policies, String> {
        let doc = json::parse(text).expect("JSON");
        read_policies(&Got::new(&doc, "`policies`")).map_err(|e| e.message)
    }

    fn written(p: &Policies) -> String {
        let mut out = String::new();
        write_policies(&mut out, p);
        out
    }

    fn minimal(inputs: &str) -> String {
        format!(
            r#"{{"version":1,"seed":7,"initial_balance":1000,"services":["atomic"],"latency_ms":50,"timeout_ms":1000,"inputs":[{inputs}]}}"#
        )
    }

    fn message(json: &str) -> (usize, usize, String) {
        match Scenario::from_json(json) {
            Err(InputError::JsonInvalid {
                line,
                column,
                message,
            }) => (line, column, message),
            other => panic!("{json}: {other:?}"),
        }
    }

    #[test]
    fn input_shape_and_defaults() {
        assert_eq!(
            input(r#"{"type":"request","amount":100}"#),
            Ok(Input::Request {
                key: None,
                key_format: KeyFormat::V4,
                amount: 100,
                description: String::new(),
                fault: Fault::None
            })
        );
        assert_eq!(
            input(r#"{"amount":100,"key":null,"type":"request"}"#),
            input(r#"{"type":"request","amount":100}"#)
        );
        assert_eq!(
            input(r#"{"type":"relay-tick","crash_after_publish":true}"#),
            Ok(Input::RelayTick {
                crash_after_publish: true
            })
        );
        assert_eq!(
            input(r#"{"type":"relay-tick"}"#),
            Ok(Input::RelayTick {
                crash_after_publish: false
            })
        );
        assert_eq!(
            input(r#"{"type":"operation","amount":5,"max_attempts":2}"#),
            Ok(Input::Operation {
                amount: 5,
                description: String::new(),
                key_format: KeyFormat::V4,
                key_strategy: KeyStrategy::Reuse,
                retry: RetryPolicy::None,
                max_attempts: 2,
                faults: vec![],
            })
        );
    }

    /// Bad inputs and the message each gets, read as "input 3".
    const INPUT_ERRORS: [(&str, &str); 18] = [
        (
            r#"{"type":"request","amount":1,"x":1}"#,
            "unknown field `x` in input 3, expected one of `key`, `key_format`, `amount`, `description`, `fault`",
        ),
        (
            r#"{"type":"nope"}"#,
            "`type` in input 3 must be one of `request`, `operation`, `parallel`, `retry`, `advance-time`, `relay-tick`, `deposit`, `set-fault`, `crash`, `as`, found \"nope\"",
        ),
        (r#"{"amount":1}"#, "missing field `type` in input 3"),
        (r#"{"type":"deposit"}"#, "missing field `amount` in input 3"),
        (
            r#"{"type":"deposit","amount":1,"amount":2}"#,
            "duplicate field `amount` in input 3",
        ),
        (
            r#"{"type":"deposit","type":"deposit","amount":1}"#,
            "duplicate field `type` in input 3",
        ),
        (
            r#"{"type":"advance-time","ms":1.5}"#,
            "`ms` in input 3 must be a whole number, found 1.5",
        ),
        (
            r#"{"type":"advance-time","ms":-1}"#,
            "`ms` in input 3 must be a whole number, not negative, found -1",
        ),
        (
            r#"{"type":"deposit","amount":9223372036854775808}"#,
            "`amount` in input 3 must be at most 9223372036854775807, found 9223372036854775808",
        ),
        (
            r#"{"type":"operation","amount":5,"max_attempts":4294967296}"#,
            "`max_attempts` in input 3 must be at most 4294967295, found 4294967296",
        ),
        (
            r#"{"type":"operation","amount":5,"max_attempts":2,"faults":["none",7]}"#,
            "item 2 of `faults` in input 3 must be one of `none`, `request-lost`, `response-lost`, `crash-before-charge`, `crash-after-charge-before-record`, `crash-after-commit-before-reply`, `processor-error`, found 7",
        ),
        (
            r#"{"type":"operation","amount":5,"max_attempts":2,"retry":{"kind":"fixed"}}"#,
            "missing field `delay_ms` in `retry` in input 3",
        ),
        (
            r#"{"type":"operation","amount":5,"max_attempts":2,"retry":{"kind":"none","delay_ms":5}}"#,
            "unknown field `delay_ms` in `retry` in input 3, expected no other field",
        ),
        (
            r#"{"type":"operation","amount":5,"max_attempts":2,"retry":{"kind":0}}"#,
            "`kind` in `retry` in input 3 must be one of `none`, `immediate`, `fixed`, `exponential-jitter`, found 0",
        ),
        (
            r#"{"type":"parallel","requests":[{"amount":1},{"amount":1,"key":5}]}"#,
            "`key` in request 2 of input 3 must be a string, found 5",
        ),
        (
            r#"{"type":"parallel","requests":[{"amount":1},{"type":"request","amount":1}]}"#,
            "unknown field `type` in request 2 of input 3, expected one of `key`, `key_format`, `amount`, `description`, `fault`",
        ),
        (
            r#"{"type":"request","amount":1,"description":null}"#,
            "`description` in input 3 must be a string, found null",
        ),
        (
            r#"{"type":"retry","new_key":"yes"}"#,
            "`new_key` in input 3 must be true or false, found \"yes\"",
        ),
    ];

    #[test]
    fn input_errors_name_the_field() {
        for (json, want) in INPUT_ERRORS {
            assert_eq!(input(json), Err(want.to_string()), "{json}");
        }
        let doc = json::parse("[1]").expect("JSON");
        assert_eq!(
            read_input(&doc, "input 3").map_err(|e| e.message),
            Err("input 3 must be an object, found an array".to_string())
        );
    }

    #[test]
    fn policies_names_and_defaults() {
        let p = Policies::rocket_rides();
        let json = written(&p);
        assert_eq!(
            json,
            r#"{"retention_ms":259200000,"mismatch":"rocket-rides-409","failure_caching":"cache-all","in_flight":true,"in_flight_timeout_ms":90000}"#
        );
        assert_eq!(policies(&json), Ok(p));
        let partial = policies(r#"{"in_flight":false}"#).expect("defaults");
        assert_eq!(
            partial,
            Policies {
                in_flight: false,
                ..Policies::default()
            }
        );
        assert_eq!(policies("{}"), Ok(Policies::default()));
        assert_eq!(
            policies(r#"{"nope":1}"#),
            Err("unknown field `nope` in `policies`, expected one of `retention_ms`, `mismatch`, `failure_caching`, `in_flight`, `in_flight_timeout_ms`".into())
        );
        assert!(policies("[]").is_err());
        for m in MismatchStatus::ALL {
            for c in FailureCaching::ALL {
                let p = Policies {
                    mismatch: m,
                    failure_caching: c,
                    ..Policies::default()
                };
                assert_eq!(policies(&written(&p)), Ok(p));
            }
        }
    }

    #[test]
    fn services_in_both_forms() {
        let json = minimal("").replace(
            r#"["atomic"]"#,
            r#"["naive",{"kind":"atomic"},{"kind":"toctou","emit":"outbox"},{"kind":"production","consumer_dedupes":false,"emit":null}]"#,
        );
        let s = Scenario::from_json(&json).expect("valid");
        assert_eq!(
            s.services,
            vec![
                ServiceSpec::Kind(ServiceKind::Naive),
                ServiceSpec::Wired(WiredService {
                    kind: ServiceKind::Atomic,
                    emit: None,
                    consumer_dedupes: None
                }),
                ServiceSpec::Wired(WiredService {
                    kind: ServiceKind::TocTou,
                    emit: Some(EmitMode::Outbox),
                    consumer_dedupes: None
                }),
                ServiceSpec::Wired(WiredService {
                    kind: ServiceKind::Production,
                    emit: None,
                    consumer_dedupes: Some(false)
                }),
            ]
        );
        assert!(s.to_json().contains(
            r#""services":["naive",{"kind":"atomic"},{"kind":"toctou","emit":"outbox"},{"kind":"production","consumer_dedupes":false}]"#
        ));
        let (_, _, msg) = message(&minimal("").replace(r#"["atomic"]"#, r#"[5]"#));
        assert_eq!(msg, "service 1 must be a service name (naive, idempotent, toctou, atomic, split-store, production) or an object with `kind`, found 5");
        let (_, _, msg) = message(&minimal("").replace(r#"["atomic"]"#, r#"["atomic","Naive"]"#));
        assert!(msg.starts_with("service 2 must be one of `naive`"), "{msg}");
        let (_, _, msg) = message(&minimal("").replace(r#"["atomic"]"#, r#"[{"emit":"outbox"}]"#));
        assert_eq!(msg, "missing field `kind` in service 1");
    }

    #[test]
    fn scenario_errors_say_where_and_what() {
        let ok = minimal(r#"{"type":"deposit","amount":5}"#);
        assert!(Scenario::from_json(&ok).is_ok());
        let pretty = ok.replace(",\"", ",\n  \"");
        assert!(Scenario::from_json(&pretty).is_ok());
        assert_eq!(
            message(&pretty.replace("\"seed\":7", "\"seed\":7.5")),
            (2, 10, "`seed` must be a whole number, found 7.5".into())
        );
        // A misspelt field is reported as unknown (with the right names), not as a missing one.
        let (line, _, msg) = message(&pretty.replace("\"seed\"", "\"sead\""));
        assert_eq!(line, 2);
        assert!(
            msg.starts_with("unknown field `sead`, expected one of `version`, `seed`,"),
            "{msg}"
        );
        let typo = minimal(r#"{"type":"request","amuont":5}"#);
        assert_eq!(
            message(&typo).2,
            "unknown field `amuont` in input 1, expected one of `key`, `key_format`, `amount`, \
             `description`, `fault`"
        );
        let typo = minimal(
            r#"{"type":"operation","amount":5,"max_attempts":2,"retry":{"kind":"fixed","delay":1}}"#,
        );
        assert_eq!(
            message(&typo).2,
            "unknown field `delay` in `retry` in input 1, expected one of `delay_ms`"
        );
        let missing = minimal(r#"{"type":"deposit"}"#);
        assert_eq!(message(&missing).2, "missing field `amount` in input 1");
        let (line, column, msg) = message(&pretty.replace("\"timeout", "\"x\":1,\n  \"timeout"));
        assert_eq!(
            (line, column, msg.as_str()),
            (
                6,
                3,
                "unknown field `x`, expected one of `version`, `seed`, `initial_balance`, `services`, `emit`, `consumer_dedupes`, `policies`, `latency_ms`, `jitter_ms`, `timeout_ms`, `inputs`, `branch`, `requests`"
            )
        );
        assert_eq!(
            message(&ok.replace("\"seed\":7", "\"seed\":7,\"seed\":8")).2,
            "duplicate field `seed`"
        );
        assert_eq!(
            message(&ok.replace(":5}", ":5,\"x\":[]}")).2,
            "unknown field `x` in input 1, expected one of `amount`"
        );
        assert_eq!(
            message("[1]").2,
            "a scenario must be an object, found an array"
        );
        assert_eq!(
            message(r#"{"version":"1"}"#).2,
            "`version` must be a whole number, found \"1\""
        );
        assert_eq!(message(r#"{"seed":1}"#).2, "missing field `version`");
        assert_eq!(
            message(r#"{"version":1,"version":1}"#).2,
            "duplicate field `version`"
        );
        // Another version is told apart before its fields are read (they may differ).
        assert_eq!(
            Scenario::from_json(r#"{"version":2,"whatever":[{"x":null}]}"#),
            Err(InputError::UnsupportedVersion {
                version: 2,
                supported: SCENARIO_VERSION
            })
        );
        // A syntax error anywhere is reported before the version.
        assert_eq!(message(r#"{"version":2,"x":}"#).0, 1);
    }
}
