//! Mutation fuzzing of every reader of outside text: scenario JSON (`Scenario::from_json`), share
//! links (the hash's route and query, `ui::share::decode_query`, then the scenario), the lab's
//! saved state and its `#/lab?s=` links, and the playground's saved last run. Each input is accepted or refused with an error,
//! never a panic; each accepted scenario also runs (every world to idle, or the page's `Session`
//! to the link's step), and each accepted lab state runs to its end.
//!
//! Inputs are mutations of valid documents: every built-in scenario's `to_json()`, the sandbox
//! scenarios of `tests/fixtures/scenarios_serde.txt` (every input, wiring and policy), share
//! links made by `encode_query`, lab states of every model, and saved runs. Mutations are edits of
//! the parsed tree (values replaced by extreme numbers, long or unicode strings, another
//! document's value or the same field's value in another document; members removed, doubled,
//! renamed, reordered; values buried ~128 deep) and of the bytes (bits flipped, bytes inserted,
//! deleted, duplicated, truncated, spliced from another document), stacked; share links are also
//! mutated after encoding.
//!
//! `cargo test` runs [`DEFAULT_CASES`] inputs (about 3 s in a debug build); `FUZZ_CASES=<n>` runs
//! more (`make fuzz`: a million in release), `FUZZ_SEED=<s>` another sequence, `FUZZ_CASE=<i>`
//! case `i` alone. It prints, per reader, the inputs tried, accepted, refused and panicked, and
//! saves each panicking input under the target directory's `tmp/fuzz-panics/`.
//!
//! Each reader is the page's own (`ui::lab::persist`, `ui::playground::saved_run::SavedRun`),
//! called as the page calls it.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use common::{env_u64, excerpt, mutate_bytes, mutate_tree, text, words, Layout, Rng};
use idempotency_playground::json::{self, Json, ObjectWriter};
use idempotency_playground::lab::{KeyMode, LabScenario, Model, Policy, Stepper};
use idempotency_playground::limits::{MAX_AMOUNT, MAX_PARALLEL_REQUESTS};
use idempotency_playground::ui::route::Route;
use idempotency_playground::ui::share::{b64url_encode, decode_query, encode_query};
use idempotency_playground::{builtin, builtin_ids, InputError, Scenario, Session};

/// Inputs in `cargo test`: about 3 s of CPU in a debug build on the 2-core VM. Every
/// accepted input is run in full: the core bounds each run (at most `MAX_INPUTS` inputs of at
/// most `MAX_ATTEMPTS` attempts, `MAX_TRACE_EVENTS` events per world), and mutated documents of
/// at most `MAX_JSON_BYTES` stay far inside that, so no run needs cutting short.
const DEFAULT_CASES: u64 = 12_000;
const DEFAULT_SEED: u64 = 0x6675_7a7a_2d31_3400;
/// Seed of the corpus of valid documents: fixed, so a case replays from (run seed, case) alone.
const CORPUS_SEED: u64 = 14;

// ---- the readers, each behind one small adapter -----------------------------------------------

/// The lab's saved-state reader, `ui::lab::persist::from_json`.
fn lab_state(json: &str) -> Result<Stepper, String> {
    idempotency_playground::ui::lab::persist::from_json(json)
        .map(|(run, _seed)| run)
        .map_err(|e| restore_error(&e))
}

/// A lab restore error by kind: `Unreadable`, `UnknownVersion`, `Invalid(<the lab error>)`.
fn restore_error(e: &idempotency_playground::ui::lab::persist::RestoreError) -> String {
    use idempotency_playground::ui::lab::persist::RestoreError;
    match e {
        RestoreError::Invalid(lab) => format!("Invalid({})", variant(&format!("{lab:?}"))),
        other => variant(&format!("{other:?}")),
    }
}

/// The lab's link reader `ui::lab::persist::from_query`.
fn lab_link(query: &str) -> Result<Stepper, String> {
    idempotency_playground::ui::lab::persist::from_query(query)
        .map(|(run, _seed)| run)
        .map_err(|e| restore_error(&e))
}

/// The playground's reader of its saved last run, `SavedRun::from_json`, as the page uses it:
/// the scenario it holds read and opened at the saved step.
fn saved_run(text: &str) -> Result<Session, String> {
    use idempotency_playground::ui::playground::saved_run::SavedRun;
    let saved = SavedRun::from_json(text).ok_or("not a saved run")?;
    let mut session = Scenario::from_json(&saved.scenario)
        .and_then(Session::new)
        .map_err(|e| kind(&e))?;
    session.seek(saved.position);
    Ok(session)
}

/// The first word of a `Debug` form: an error's variant.
fn variant(debug: &str) -> String {
    debug
        .split(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or("")
        .to_string()
}

/// An input error's variant; for `JsonInvalid`, whether the text was not JSON or not the format.
fn kind(e: &InputError) -> String {
    match e {
        InputError::JsonInvalid { message, .. } => {
            let what = [
                "unknown field",
                "missing field",
                "duplicate field",
                "must be",
                "unsupported",
            ]
            .into_iter()
            .find(|w| message.contains(w))
            .unwrap_or("syntax");
            format!("JsonInvalid({what})")
        }
        _ => variant(&format!("{e:?}")),
    }
}

// ---- the readers, fed and run ----------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Reader {
    Scenario,
    ShareLink,
    LabState,
    LabLink,
    SavedRun,
}

const READERS: [Reader; 5] = [
    Reader::Scenario,
    Reader::ShareLink,
    Reader::LabState,
    Reader::LabLink,
    Reader::SavedRun,
];

impl Reader {
    fn name(self) -> &'static str {
        match self {
            Reader::Scenario => "scenario JSON (Scenario::from_json, then run)",
            Reader::ShareLink => "share link #/…?s=&k= (decode_query, scenario, Session::seek)",
            Reader::LabState => "lab state (persist::from_json, then run to end)",
            Reader::LabLink => "lab link #/lab?s= (persist::from_query, then run to end)",
            Reader::SavedRun => "saved last run (SavedRun::from_json, then Session::seek)",
        }
    }
}

/// What a reader made of an input: `Ok(steps run)` when accepted, `Err(why)` when refused.
fn feed(reader: Reader, input: &str) -> Result<usize, String> {
    match reader {
        Reader::Scenario => {
            let scenario = Scenario::from_json(input).map_err(|e| kind(&e))?;
            let mut worlds = scenario
                .worlds()
                .map_err(|e| format!("ACCEPTED BUT worlds() REFUSED: {e:?}"))?;
            Ok(worlds.iter_mut().map(|w| w.run_until_idle()).sum())
        }
        Reader::ShareLink => {
            // The page reads the query of any playground route's hash.
            let _ = Route::parse(input);
            let query = Route::query(input).ok_or("no query")?;
            let link = decode_query(query).map_err(|e| variant(&format!("{e:?}")))?;
            let mut session = Scenario::from_json(&link.json)
                .and_then(Session::new)
                .map_err(|e| kind(&e))?;
            session.seek(link.step);
            Ok(session.total())
        }
        Reader::LabState | Reader::LabLink => {
            let mut run = if reader == Reader::LabState {
                lab_state(input)?
            } else {
                // As persist::link_query: a non-empty query of a `#/lab` hash.
                if Route::parse(input) != Route::Lab {
                    return Err("not a #/lab hash".into());
                }
                let query = Route::query(input).filter(|q| !q.is_empty());
                lab_link(query.ok_or("no query")?)?
            };
            let done = run.schedule().len();
            let more = run
                .run_to_end(Policy::RoundRobin)
                .map_err(|e| format!("ACCEPTED BUT run_to_end FAILED: {e:?}"))?;
            Ok(done + more)
        }
        Reader::SavedRun => saved_run(input).map(|s| s.total()),
    }
}

// ---- the corpus of valid documents -----------------------------------------------------------

struct Corpus {
    scenarios: Vec<String>,
    links: Vec<String>,
    labs: Vec<String>,
    lab_links: Vec<String>,
    saved: Vec<String>,
    /// Every JSON document above, parsed: donors of values and fields.
    trees: Vec<Json>,
    /// Every string and field name in them, and awkward strings.
    strings: Vec<String>,
}

fn lab_json(run: &Stepper, seed: u64) -> String {
    // The saved form written by src/ui/lab/persist.rs: equal amounts once, fields in this order.
    let s = run.scenario();
    let amounts = if s.amounts().windows(2).all(|w| w[0] == w[1]) {
        &s.amounts()[..1]
    } else {
        s.amounts()
    };
    let mut out = String::new();
    let mut o = ObjectWriter::new(&mut out);
    o.u64("v", 1);
    o.str("model", s.model().id());
    o.u64("k", s.requests() as u64);
    o.str(
        "keys",
        match s.keys() {
            KeyMode::Same => "same",
            KeyMode::Different => "different",
        },
    );
    o.array("amounts", amounts, |w, a| w.push_str(&a.to_string()));
    o.i64("balance", s.initial_balance());
    o.u64("seed", seed);
    o.array("schedule", run.schedule(), |w, r| {
        w.push_str(&r.to_string())
    });
    o.end();
    out
}

fn corpus() -> Corpus {
    let mut rng = Rng::new(CORPUS_SEED);
    let mut scenarios: Vec<(String, String)> = builtin_ids()
        .iter()
        .map(|id| {
            (
                format!("#/scenario/{id}"),
                builtin(id).expect("built in").to_json(),
            )
        })
        .collect();
    for line in include_str!("fixtures/scenarios_serde.txt").lines() {
        let (name, doc) = line.split_once(' ').expect("name and JSON");
        if !builtin_ids().contains(&name) {
            assert!(Scenario::from_json(doc).is_ok(), "{name}");
            scenarios.push(("#/sandbox".into(), doc.to_string()));
        }
    }
    let links = scenarios
        .iter()
        .map(|(route, doc)| format!("{route}?{}", encode_query(doc, rng.below(60))))
        .collect();
    let saved = scenarios
        .iter()
        .map(|(route, doc)| {
            let mut out = String::new();
            let mut o = ObjectWriter::new(&mut out);
            o.str("route", route);
            o.u64("position", rng.below(60) as u64);
            o.str("scenario", doc);
            o.end();
            out
        })
        .collect::<Vec<_>>();
    let mut labs = Vec::new();
    for model in Model::ALL {
        for keys in [KeyMode::Same, KeyMode::Different] {
            for k in [2, 3, 5, MAX_PARALLEL_REQUESTS] {
                let amounts: Vec<i64> = if rng.chance(50) {
                    vec![1 + rng.below(500) as i64]
                } else {
                    (0..k)
                        .map(|_| 1 + rng.below(MAX_AMOUNT as usize) as i64)
                        .collect()
                };
                let balance = rng.below(5_000) as i64;
                let scenario =
                    LabScenario::new(model, k, keys, &amounts, balance).expect("valid lab");
                let mut run = Stepper::new(scenario);
                let steps = rng.below(run.scenario().total_steps() + 1);
                for _ in 0..steps {
                    let movable = run.movable();
                    if movable.is_empty() {
                        break;
                    }
                    run.step(*rng.pick(&movable))
                        .expect("a movable request moves");
                }
                labs.push(lab_json(&run, rng.next_u64()));
            }
        }
    }
    let lab_links = labs
        .iter()
        .map(|doc| format!("#/lab?s={}", b64url_encode(doc.as_bytes())))
        .collect();
    let scenarios: Vec<String> = scenarios.into_iter().map(|(_, doc)| doc).collect();
    let trees: Vec<Json> = scenarios
        .iter()
        .chain(&labs)
        .chain(&saved)
        .map(|doc| json::parse(doc).expect("the corpus is valid JSON"))
        .collect();
    let mut strings = common::awkward_strings();
    for t in &trees {
        words(t, &mut strings);
    }
    strings.sort();
    strings.dedup();
    Corpus {
        scenarios,
        links,
        labs,
        lab_links,
        saved,
        trees,
        strings,
    }
}

// ---- inputs ----------------------------------------------------------------------------------

/// A mutation of the JSON document `base`: tree edits, then byte edits (at least one edit). A
/// third of the mutations are gentle (tree edits a reader may accept, no byte edits), so that
/// accepted documents, and the runs they start, are not rare.
fn mutate_json(rng: &mut Rng, base: &str, c: &Corpus) -> Vec<u8> {
    let gentle = rng.chance(35);
    let mut edited = false;
    let mut bytes = if gentle || rng.chance(60) {
        let mut tree = json::parse(base).expect("the corpus is valid JSON");
        for _ in 0..rng.len(3) {
            mutate_tree(rng, &mut tree, &c.trees, &c.strings, gentle);
        }
        let layout = if rng.chance(85) {
            Layout::Compact
        } else {
            Layout::Random
        };
        let mut out = String::new();
        common::write(rng, &tree, layout, &mut out);
        edited = true;
        out.into_bytes()
    } else {
        base.as_bytes().to_vec()
    };
    if !edited || (!gentle && rng.chance(30)) {
        let donor = common::compact(rng.pick(&c.trees));
        for _ in 0..rng.len(3) {
            mutate_bytes(rng, &mut bytes, donor.as_bytes(), &c.strings);
        }
    }
    bytes
}

/// A step for a share link: a number, an edge, or not a number.
fn step_text(rng: &mut Rng) -> String {
    match rng.below(4) {
        0 | 1 => rng.below(200).to_string(),
        2 => rng
            .pick(&[
                "0",
                "18446744073709551615",
                "18446744073709551616",
                "4294967296",
            ])
            .to_string(),
        _ => rng
            .pick(&["", "-1", "1.5", "x", "0x10", " 1", "+3", "１"])
            .to_string(),
    }
}

/// A query string around a payload: sometimes other parameters, a second `s=` or `k=`, padding.
fn query(rng: &mut Rng, payload: &str, step: Option<String>) -> String {
    let mut parts = vec![format!("s={payload}")];
    if let Some(k) = step {
        parts.push(format!("k={k}"));
    }
    if rng.chance(20) {
        parts.insert(
            rng.below(parts.len() + 1),
            rng.pick(&["x=1", "s=", "k=2", "", "s=e30", "=", "&"])
                .to_string(),
        );
    }
    if rng.chance(10) {
        let pad = *rng.pick(&["=", "==", "+", "/", "%3D"]);
        parts[0].push_str(pad);
    }
    parts.join("&")
}

/// Case `case`'s input for `reader`.
fn input(rng: &mut Rng, reader: Reader, c: &Corpus) -> String {
    match reader {
        Reader::Scenario => {
            let base = rng.pick(&c.scenarios);
            text(&mutate_json(rng, base, c))
        }
        Reader::ShareLink | Reader::LabLink => {
            let share = reader == Reader::ShareLink;
            if rng.chance(60) {
                // The document mutated, then encoded (its bytes need not be UTF-8).
                let base = rng.pick(if share { &c.scenarios } else { &c.labs });
                let bytes = mutate_json(rng, base, c);
                let k = share.then(|| step_text(rng));
                let route = if share {
                    *rng.pick(&[
                        "#/sandbox",
                        "#/scenario/double-charge",
                        "#/",
                        "",
                        "#/nope/x",
                    ])
                } else {
                    *rng.pick(&["#/lab", "#/lab", "#/lab", "#/lab/", "#lab", "#/sandbox"])
                };
                format!("{route}?{}", query(rng, &b64url_encode(&bytes), k))
            } else {
                // A good link, mutated as text.
                let links = if share { &c.links } else { &c.lab_links };
                let mut bytes = rng.pick(links).clone().into_bytes();
                let donor = rng.pick(links);
                for _ in 0..rng.len(4) {
                    mutate_bytes(rng, &mut bytes, donor.as_bytes(), &c.strings);
                }
                text(&bytes)
            }
        }
        Reader::LabState => {
            let base = rng.pick(&c.labs);
            text(&mutate_json(rng, base, c))
        }
        Reader::SavedRun => {
            let base = rng.pick(&c.saved).clone();
            if rng.chance(70) {
                // The scenario inside mutated (a string in the saved run), the rest intact.
                let tree = json::parse(&base).expect("valid");
                let mut route = String::new();
                let mut position = 0;
                let mut scenario = String::new();
                if let json::Value::Object(members) = &tree.value {
                    for m in members {
                        match (&m.key[..], &m.value.value) {
                            ("route", json::Value::Str(s)) => route = s.clone(),
                            ("position", json::Value::Int(n)) => position = *n as u64,
                            ("scenario", json::Value::Str(s)) => scenario = s.clone(),
                            _ => {}
                        }
                    }
                }
                let inner = text(&mutate_json(rng, &scenario, c));
                let mut out = String::new();
                let mut o = ObjectWriter::new(&mut out);
                o.str("route", &route);
                o.u64("position", position);
                o.str("scenario", &inner);
                o.end();
                if rng.chance(30) {
                    return text(&mutate_json(rng, &out, c));
                }
                out
            } else {
                text(&mutate_json(rng, &base, c))
            }
        }
    }
}

// ---- the run ---------------------------------------------------------------------------------

#[derive(Default)]
struct Tally {
    tried: u64,
    accepted: u64,
    refused: u64,
    panics: u64,
    steps: u64,
    time: Duration,
    why: BTreeMap<String, u64>,
}

thread_local! {
    /// Where the last panic happened and what it said, noted by the hook set below.
    static LAST_PANIC: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

#[test]
fn every_reader_accepts_or_refuses_mutated_input_without_panicking() {
    // Panics are reported with their input at the end, not printed as they happen.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        LAST_PANIC.with(|p| *p.borrow_mut() = info.to_string());
    }));
    // The harness needs unwinding (a panic = "abort" profile would end the run at the first).
    assert!(catch_unwind(|| panic!("caught")).is_err());
    assert!(LAST_PANIC.with(|p| p.borrow().contains("caught")));
    let seed = env_u64("FUZZ_SEED").unwrap_or(DEFAULT_SEED);
    let only = env_u64("FUZZ_CASE");
    let cases = env_u64("FUZZ_CASES").unwrap_or(DEFAULT_CASES);
    println!("fuzz: seed {seed} (FUZZ_SEED={seed} repeats this run), {cases} cases");
    let c = corpus();
    let started = Instant::now();
    let mut tallies: BTreeMap<Reader, Tally> = BTreeMap::new();
    let mut failures = Vec::new();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-panics");
    for case in only.map_or(0..cases, |i| i..i + 1) {
        let mut rng = Rng::for_case(seed, case);
        let reader = READERS[(case % READERS.len() as u64) as usize];
        let text = input(&mut rng, reader, &c);
        let t = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| feed(reader, &text)));
        let tally = tallies.entry(reader).or_default();
        tally.time += t.elapsed();
        tally.tried += 1;
        match outcome {
            Ok(Ok(steps)) => {
                tally.accepted += 1;
                tally.steps += steps as u64;
            }
            Ok(Err(why)) => {
                if why.starts_with("ACCEPTED BUT") {
                    failures.push(format!(
                        "FUZZ_SEED={seed} FUZZ_CASE={case} {reader:?}: {why}\n  input: {}",
                        excerpt(&text, 2_000)
                    ));
                }
                tally.refused += 1;
                *tally.why.entry(why).or_default() += 1;
            }
            Err(_) => {
                tally.panics += 1;
                let _ = std::fs::create_dir_all(&dir);
                let file = dir.join(format!("{reader:?}-{seed}-{case}.txt"));
                let _ = std::fs::write(&file, &text);
                failures.push(format!(
                    "FUZZ_SEED={seed} FUZZ_CASE={case} {reader:?} {}\n  input (saved in {}): {}",
                    LAST_PANIC.with(|p| p.borrow().clone()),
                    file.display(),
                    excerpt(&text, 2_000)
                ));
            }
        }
    }
    let elapsed = started.elapsed();
    std::panic::set_hook(default_hook);
    let mut total = Tally::default();
    println!(
        "{:<62} {:>9} {:>9} {:>9} {:>6} {:>12} {:>8}",
        "reader", "tried", "accepted", "refused", "panics", "steps run", "time"
    );
    for (reader, t) in &tallies {
        println!(
            "{:<62} {:>9} {:>9} {:>9} {:>6} {:>12} {:>7.2}s",
            reader.name(),
            t.tried,
            t.accepted,
            t.refused,
            t.panics,
            t.steps,
            t.time.as_secs_f64()
        );
        let mut why: Vec<(&String, &u64)> = t.why.iter().collect();
        why.sort_by(|a, b| b.1.cmp(a.1));
        let top: Vec<String> = why
            .iter()
            .take(6)
            .map(|(w, n)| format!("{w} {n}"))
            .collect();
        println!("    refused as: {}", top.join(", "));
        total.tried += t.tried;
        total.accepted += t.accepted;
        total.refused += t.refused;
        total.panics += t.panics;
        total.steps += t.steps;
    }
    println!(
        "{:<62} {:>9} {:>9} {:>9} {:>6} {:>12} {:>7.2}s",
        "all readers",
        total.tried,
        total.accepted,
        total.refused,
        total.panics,
        total.steps,
        elapsed.as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} failures (first 10):\n{}",
        failures.len(),
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
