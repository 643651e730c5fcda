//! Shrinks a Kafka scenario that breaks an invariant to a smaller one that still breaks it (a
//! developer's aid for soak failures: `cargo run --release --example kafka_reduce -- case.json
//! [invariant-index, or 4 for a congested backlog]`). Drops inputs one at a time, then lowers send counts, keeping the first
//! input (the first send alone) as it is; prints the reduced JSON.
use idempotency_playground::kafka::*;

/// What must still happen: an invariant broken (0–3) or, for 4, a congested backlog at the step limit.
fn breaks(s: &KafkaScenario, which: usize) -> bool {
    let (_, end) = Sim::run_all(s);
    match Invariant::ALL.get(which) {
        Some(&inv) => end.violations.broken_at(inv).is_some(),
        None => matches!(end.halt(), Some(Halt::Congested { .. })),
    }
}

fn main() {
    let path = std::env::args().nth(1).expect("a JSON file");
    let which: usize = std::env::args().nth(2).map_or(0, |a| {
        a.parse()
            .expect("an invariant index 0-3, or 4 (congestion)")
    });
    let text = std::fs::read_to_string(path).expect("readable");
    let mut s = from_json(&text).expect("a Kafka scenario");
    assert!(breaks(&s, which), "the scenario does not show it");
    loop {
        let before = s.inputs.len();
        let mut i = 1;
        while i < s.inputs.len() {
            let mut t = s.clone();
            t.inputs.remove(i);
            if breaks(&t, which) {
                s = t;
            } else {
                i += 1;
            }
        }
        for i in 1..s.inputs.len() {
            while let Input::Send { count: n } = s.inputs[i].input {
                if n <= 1 {
                    break;
                }
                let mut t = s.clone();
                t.inputs[i].input = Input::Send { count: n - 1 };
                if !breaks(&t, which) {
                    break;
                }
                s = t;
            }
        }
        if s.inputs.len() == before {
            break;
        }
    }
    println!("{}", to_json(&s));
}
