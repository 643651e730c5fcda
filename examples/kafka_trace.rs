//! Prints a Kafka lesson's run step by step (a developer's aid: `cargo run --example kafka_trace -- kafka-in-flight`).
use idempotency_playground::kafka::*;

fn main() {
    let id = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "kafka-lost-ack".into());
    let mut s = std::fs::read_to_string(&id)
        .ok()
        .and_then(|t| from_json(&t).ok())
        .or_else(|| lesson(&id).map(|l| l.scenario))
        .or_else(|| challenge(&id).map(|c| c.solution))
        .expect("a lesson or challenge id");
    for a in std::env::args().skip(2) {
        match a.as_str() {
            "idem" => s.config.idempotence = !s.config.idempotence,
            "tid" => s.config.transactional_id = !s.config.transactional_id,
            "inbox" => s.config.inbox = !s.config.inbox,
            "log" => s.config.relay = RelayKind::Log,
            n => s.config.max_in_flight = n.parse().expect("in flight"),
        }
    }
    let (records, end) = Sim::run_all(&s);
    for (i, r) in records.iter().enumerate() {
        println!(
            "{:>3} t={:>4} {}",
            i + 1,
            r.at_ms,
            idempotency_playground::ui::text::kafka::step(
                idempotency_playground::ui::i18n::Lang::En,
                r
            )
        );
    }
    for r in &end.broker.log {
        println!("log {:?}", r);
    }
    for inv in Invariant::ALL {
        println!("{:?}: {:?}", inv, end.violations.broken_at(inv));
    }
    println!("applied {:?}", end.consumer.applied);
    if let Some(l) = lesson(&id) {
        println!("posed {:?}", l.question.pose(&records, &end));
    }
}
