//! [`Sim`]: the run. A queue of events ordered by (simulated ms, insertion), each step taking
//! the next one: an input, a request reaching the broker, an answer reaching the producer, a
//! request timeout, the consumer reading a record. The invariants are checked after each step.
//! Going back is replaying: [`Sim::replay`] builds the run at step k from the scenario.

use super::broker::{Broker, ProduceBatch, Verdict};
use super::invariants::Violations;
use super::pipeline::{Consumer, Relay};
use super::producer::{Answer, Bump, FailReason, Instance, InstanceState, Reaction};
use super::{
    Config, Epoch, EventId, Input, KafkaScenario, Pid, Seq, LATENCY_MS, REQUEST_TIMEOUT_MS,
};
use crate::sim::base::rng::Rng;
use crate::sim::kernel::{EventQueue, Model};
use crate::sim::limits::KAFKA_MAX_STEPS;

/// What happened to a request as it left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// On its way.
    Delivered,
    /// Lost: it never reaches the broker.
    Lost,
    /// Delayed by this many ms.
    Delayed(u32),
}

/// A request put on the wire during a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sent {
    /// The instance (0 = the first).
    pub inst: usize,
    /// The event it carries.
    pub event: EventId,
    /// Its sequence, with idempotence.
    pub seq: Option<Seq>,
    /// Its epoch.
    pub epoch: Epoch,
    /// Its attempt (1 = first send).
    pub attempt: u8,
    /// What the network does with it.
    pub fate: Fate,
}

/// What one step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// An input was applied.
    Input(Input),
    /// A request reached the broker.
    Arrived {
        /// The instance that sent it.
        inst: usize,
        /// Its event.
        event: EventId,
        /// Producer id.
        pid: Option<Pid>,
        /// Epoch.
        epoch: Epoch,
        /// Sequence.
        seq: Option<Seq>,
        /// Attempt.
        attempt: u8,
        /// The broker's answer.
        verdict: Verdict,
        /// The answer is lost on the way back.
        ack_lost: bool,
    },
    /// An answer reached the producer.
    Answered {
        /// The instance.
        inst: usize,
        /// The event.
        event: EventId,
        /// The answer.
        verdict: Verdict,
        /// What the producer did.
        reaction: Reaction,
    },
    /// A request timed out: the connection closes, and every request on it fails (the others
    /// are in [`StepRecord::closed`]).
    TimedOut {
        /// The instance.
        inst: usize,
        /// The event.
        event: EventId,
        /// The attempt that timed out.
        attempt: u8,
        /// What the producer did.
        reaction: Reaction,
    },
    /// A batch's delivery timeout passed: it fails to the application.
    Expired {
        /// The instance.
        inst: usize,
        /// The event.
        event: EventId,
        /// Whether its sequence became unresolved (it was being retried).
        unresolved: bool,
    },
    /// The consumer read a record.
    Consumed {
        /// Its offset.
        offset: u32,
        /// Its event.
        event: EventId,
        /// Applied (false: the inbox skipped it).
        applied: bool,
    },
}

/// One step: when, what, and the requests it sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepRecord {
    /// Simulated ms.
    pub at_ms: u64,
    /// What happened.
    pub kind: StepKind,
    /// Requests sent in this step.
    pub sent: Vec<Sent>,
    /// For `Restart`: the new instance's producer id and epoch.
    pub started: Option<(Option<Pid>, Epoch)>,
    /// For `TimedOut`: the other requests the closed connection failed, oldest first.
    pub closed: Vec<Closed>,
    /// The epoch an instance bumped to during this step, if one did.
    pub bumped: Option<(usize, Epoch)>,
    /// A transactional instance that asked the coordinator for a new epoch in this step and
    /// was told `PRODUCER_FENCED` (it stopped).
    pub bump_fenced: Option<usize>,
}

/// A request failed because its connection closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Closed {
    /// Its event.
    pub event: EventId,
    /// Its attempt.
    pub attempt: u8,
    /// What the producer did.
    pub reaction: Reaction,
}

/// A message on the wire, for the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wire {
    /// A request on its way to the broker, arriving at `at_ms`.
    Request {
        /// Arrival time.
        at_ms: u64,
        /// Sender.
        inst: usize,
        /// Event.
        event: EventId,
        /// Sequence.
        seq: Option<Seq>,
        /// Attempt.
        attempt: u8,
    },
    /// An answer on its way back.
    Answer {
        /// Arrival time.
        at_ms: u64,
        /// Receiver.
        inst: usize,
        /// Event.
        event: EventId,
        /// The answer.
        verdict: Verdict,
    },
}

/// Why a run stopped before its queue emptied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Halt {
    /// It reached `KAFKA_MAX_STEPS`.
    StepLimit,
    /// It reached `KAFKA_MAX_STEPS` in a congested run: batches gave up at their delivery
    /// timeout more often (`expired`) than the service wrote events (`written`). Each waited
    /// behind the others longer than `delivery.timeout.ms` (which counts from `send()`,
    /// queueing included), failed, and was published again at the back, so most give up
    /// again: the backlog drains slowly or never (a metastable failure), in Kafka as here.
    Congested {
        /// Batches failed by their delivery timeout.
        expired: u32,
        /// Events the service wrote.
        written: u32,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    Input(usize),
    Arrive {
        inst: usize,
        conn: u32,
        id: u32,
        attempt: u8,
        req: ProduceBatch,
    },
    Respond {
        inst: usize,
        conn: u32,
        id: u32,
        batch: usize,
        verdict: Verdict,
    },
    Timeout {
        inst: usize,
        conn: u32,
        id: u32,
    },
    Expire {
        inst: usize,
        batch: usize,
    },
    Consume {
        offset: u32,
    },
}

/// One instance's connection as the network sees it: requests and answers keep their order
/// (TCP, and the broker handles one request of a connection at a time: `SocketServer` mutes a
/// connection while a request of it is handled), and once one is lost the later ones on the
/// same connection are lost too.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Link {
    requests_lost: Option<u32>,
    answers_lost: Option<u32>,
    last_arrival: u64,
    last_answer: u64,
}

/// A run of a [`KafkaScenario`] at some step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sim {
    scenario: KafkaScenario,
    now: u64,
    queue: EventQueue<Event>,
    rng: Rng,
    /// The broker.
    pub broker: Broker,
    /// Every producer instance started, the first at 0.
    pub instances: Vec<Instance>,
    /// The instance the relay uses now, if one runs.
    pub current: Option<usize>,
    /// The relay.
    pub relay: Relay,
    /// The consumer.
    pub consumer: Consumer,
    links: Vec<Link>,
    lose_requests: u32,
    refuse_requests: u32,
    lose_acks: u32,
    delays: Vec<u32>,
    steps: usize,
    /// The invariants.
    pub violations: Violations,
    halt: Option<Halt>,
    /// Batches of the current instance failed by their delivery timeout (for
    /// [`Halt::Congested`]).
    expired: u32,
    /// The last step, if any.
    pub last: Option<StepRecord>,
}

impl Sim {
    /// The run of `scenario` at step 0 (the first producer has its id; nothing sent yet).
    pub fn new(scenario: &KafkaScenario) -> Self {
        let config = scenario.config;
        let mut broker = Broker::new();
        let first = start_instance(&mut broker, &config);
        let mut sim = Sim {
            scenario: scenario.clone(),
            now: 0,
            queue: EventQueue::new(),
            rng: Rng::new(scenario.seed),
            broker,
            instances: vec![first],
            current: Some(0),
            relay: Relay::new(config.relay),
            consumer: Consumer::new(config.inbox),
            links: vec![Link::default()],
            lose_requests: 0,
            refuse_requests: 0,
            lose_acks: 0,
            delays: Vec::new(),
            steps: 0,
            violations: Violations::default(),
            halt: None,
            expired: 0,
            last: None,
        };
        for (i, t) in scenario.inputs.iter().enumerate() {
            sim.schedule(t.at_ms, Event::Input(i));
        }
        sim
    }

    /// The run of `scenario` after `k` steps (fewer if it ends sooner): rewinding is replaying.
    pub fn replay(scenario: &KafkaScenario, k: usize) -> Self {
        let mut sim = Sim::new(scenario);
        while sim.steps < k && sim.step() {}
        sim
    }

    /// Every step of the whole run, and the run at its end.
    pub fn run_all(scenario: &KafkaScenario) -> (Vec<StepRecord>, Sim) {
        let mut sim = Sim::new(scenario);
        let mut records = Vec::new();
        while sim.step() {
            records.extend(sim.last.clone());
        }
        (records, sim)
    }

    /// The settings.
    pub fn config(&self) -> &Config {
        &self.scenario.config
    }

    /// The scenario.
    pub fn scenario(&self) -> &KafkaScenario {
        &self.scenario
    }

    /// Steps taken.
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// Simulated ms now.
    pub fn now_ms(&self) -> u64 {
        self.now
    }

    /// Whether nothing is left to happen (or the step limit stopped it).
    pub fn done(&self) -> bool {
        self.queue.is_empty() || self.halt.is_some()
    }

    /// Why the run stopped early, if it did.
    pub fn halt(&self) -> Option<Halt> {
        self.halt
    }

    /// Messages on the wire now, in arrival order.
    pub fn wire(&self) -> Vec<Wire> {
        self.queue
            .iter()
            .filter_map(|(key, ev)| match *ev {
                Event::Arrive {
                    inst, attempt, req, ..
                } => Some(Wire::Request {
                    at_ms: key.at_ms,
                    inst,
                    event: req.event,
                    seq: req.seq,
                    attempt,
                }),
                Event::Respond {
                    inst,
                    batch,
                    verdict,
                    ..
                } => Some(Wire::Answer {
                    at_ms: key.at_ms,
                    inst,
                    event: self.instances[inst].batches[batch].event,
                    verdict,
                }),
                _ => None,
            })
            .collect()
    }

    /// Faults armed and not yet used: lost requests, lost acks, delays, refused requests.
    pub fn armed(&self) -> (u32, u32, usize, u32) {
        (
            self.lose_requests,
            self.lose_acks,
            self.delays.len(),
            self.refuse_requests,
        )
    }

    fn schedule(&mut self, at: u64, ev: Event) {
        self.queue.schedule(at, ev);
    }

    fn latency(&mut self) -> u64 {
        let jitter = u64::from(self.scenario.config.jitter_ms);
        if jitter == 0 {
            LATENCY_MS
        } else {
            LATENCY_MS + self.rng.below_inclusive(jitter)
        }
    }

    /// Whether an event would be a step: timers and expiries that no longer matter pass
    /// without one.
    fn matters(&self, ev: &Event) -> bool {
        match *ev {
            Event::Timeout { inst, conn, id } => self.instances[inst].timer_matters(conn, id),
            // Once an answer on a connection is lost, the later ones on it never arrive.
            Event::Respond { inst, conn, .. } => self.links[inst].answers_lost != Some(conn),
            Event::Expire { inst, batch } => {
                let i = &self.instances[inst];
                i.live()
                    && matches!(
                        i.batches[batch].status,
                        super::BatchStatus::Queued | super::BatchStatus::InFlight
                    )
            }
            _ => true,
        }
    }

    /// Takes the next event; false when there is none (or the step limit is reached).
    pub fn step(&mut self) -> bool {
        if self.halt.is_some() {
            return false;
        }
        if self.steps >= KAFKA_MAX_STEPS {
            self.halt = Some(if self.expired > self.relay.written {
                Halt::Congested {
                    expired: self.expired,
                    written: self.relay.written,
                }
            } else {
                Halt::StepLimit
            });
            return false;
        }
        let Some((at, ev)) = self.next_event() else {
            return false;
        };
        debug_assert!(at >= self.now, "simulated time never runs backwards");
        self.now = at;
        self.steps += 1;
        let mut rec = StepRecord {
            at_ms: at,
            kind: StepKind::Input(Input::Crash),
            sent: Vec::new(),
            started: None,
            closed: Vec::new(),
            bumped: None,
            bump_fenced: None,
        };
        rec.kind = match ev {
            Event::Input(i) => {
                let input = self.scenario.inputs[i].input;
                self.apply(input, &mut rec);
                StepKind::Input(input)
            }
            Event::Arrive {
                inst,
                conn,
                id,
                attempt,
                req,
            } => self.arrive(inst, conn, id, attempt, req),
            Event::Respond {
                inst,
                conn,
                id,
                batch,
                verdict,
            } => self.answer_arrives(inst, conn, id, batch, verdict, &mut rec),
            Event::Timeout { inst, conn, id } => self.time_out(inst, conn, id, &mut rec),
            Event::Expire { inst, batch } => self.batch_expires(inst, batch, &mut rec),
            Event::Consume { offset } => self.consume(offset),
        };
        self.last = Some(rec);
        true
    }

    /// The next event that matters, dropping those that no longer do.
    fn next_event(&mut self) -> Option<(u64, Event)> {
        loop {
            let (at, ev) = self.queue.pop()?;
            if self.matters(&ev) {
                return Some((at, ev));
            }
        }
    }

    /// The broker's answer `verdict` to request `id` (batch `batch`) on `conn` reaches
    /// instance `inst`, which reacts and sends what it may.
    fn answer_arrives(
        &mut self,
        inst: usize,
        conn: u32,
        id: u32,
        batch: usize,
        verdict: Verdict,
        rec: &mut StepRecord,
    ) -> StepKind {
        let config = self.scenario.config;
        if !self.instances[inst].live() {
            // A stopped process does not read this answer, so the connection has lost
            // it: the answers behind it on the same connection cannot come through.
            self.links[inst].answers_lost = Some(conn);
        }
        let reaction = self.instances[inst].answer(conn, id, Answer::Broker(verdict), &config);
        let event = self.instances[inst].batches[batch].event;
        self.after_reaction(inst, event, reaction);
        self.drain(inst, rec);
        StepKind::Answered {
            inst,
            event,
            verdict,
            reaction,
        }
    }

    /// Batch `batch` of instance `inst` reaches its delivery timeout.
    fn batch_expires(&mut self, inst: usize, batch: usize, rec: &mut StepRecord) -> StepKind {
        let reaction = self.instances[inst].expire(batch);
        let event = self.instances[inst].batches[batch].event;
        let unresolved = self.instances[inst].has_unresolved_sequence();
        if let Some(r) = reaction {
            self.after_reaction(inst, event, r);
        }
        self.drain(inst, rec);
        StepKind::Expired {
            inst,
            event,
            unresolved,
        }
    }

    /// The consumer reads the log at `offset`.
    fn consume(&mut self, offset: u32) -> StepKind {
        let event = self.broker.log[offset as usize].event;
        let applied = self.consumer.read(event);
        self.violations
            .check_applied(self.consumer.times(event), self.steps);
        StepKind::Consumed {
            offset,
            event,
            applied,
        }
    }

    /// Request `id`'s timeout on `conn` passed: the instance closes the connection, failing every
    /// request on it (batch, attempt, reaction), and the connection's answers never arrive.
    fn close_connection(&mut self, inst: usize, conn: u32, id: u32) -> Vec<(usize, u8, Reaction)> {
        let config = self.scenario.config;
        let failed = self.instances[inst]
            .timeout(conn, id, &config)
            .unwrap_or_default();
        self.queue.retain(|_, ev| {
            !matches!(*ev, Event::Respond { inst: i, conn: c, .. } if i == inst && c == conn)
        });
        failed
    }

    /// Request `id`'s timeout passed: its connection closes; every request on it fails.
    fn time_out(&mut self, inst: usize, conn: u32, id: u32, rec: &mut StepRecord) -> StepKind {
        let failed = self.close_connection(inst, conn, id);
        let mut first = None;
        for &(batch, attempt, reaction) in &failed {
            let event = self.instances[inst].batches[batch].event;
            self.after_reaction(inst, event, reaction);
            if first.is_none() {
                first = Some((event, attempt, reaction));
            } else {
                rec.closed.push(Closed {
                    event,
                    attempt,
                    reaction,
                });
            }
        }
        self.drain(inst, rec);
        let (event, attempt, reaction) = first.unwrap_or((0, 0, Reaction::Ignored));
        StepKind::TimedOut {
            inst,
            event,
            attempt,
            reaction,
        }
    }

    fn arrive(
        &mut self,
        inst: usize,
        conn: u32,
        id: u32,
        attempt: u8,
        req: ProduceBatch,
    ) -> StepKind {
        let verdict = if self.refuse_requests > 0 {
            // min.insync.replicas is checked before anything is appended or validated.
            self.refuse_requests -= 1;
            Verdict::NotEnoughReplicas
        } else {
            self.broker.append(req, self.steps)
        };
        if let Verdict::Appended(offset) = verdict {
            let coordinator = match (self.broker.txn, req.pid) {
                (Some((tpid, tepoch)), Some(pid)) if tpid == pid && req.transactional => {
                    Some(tepoch)
                }
                _ => None,
            };
            self.violations
                .check_append(&self.broker.log, self.steps, coordinator);
            let at = self.now + self.latency();
            self.schedule(at, Event::Consume { offset });
        }
        if self.lose_acks > 0 && self.links[inst].answers_lost != Some(conn) {
            self.lose_acks -= 1;
            self.links[inst].answers_lost = Some(conn);
        }
        // A connection the producer has closed carries no answer back.
        let ack_lost =
            self.links[inst].answers_lost == Some(conn) || conn != self.instances[inst].connection;
        if !ack_lost {
            let at = (self.now + self.latency()).max(self.links[inst].last_answer);
            self.links[inst].last_answer = at;
            self.schedule(
                at,
                Event::Respond {
                    inst,
                    conn,
                    id,
                    batch: req.batch,
                    verdict,
                },
            );
        }
        StepKind::Arrived {
            inst,
            event: req.event,
            pid: req.pid,
            epoch: req.epoch,
            seq: req.seq,
            attempt,
            verdict,
            ack_lost,
        }
    }

    /// What the relay does with an instance's reaction (only the current process's relay acts).
    fn after_reaction(&mut self, inst: usize, event: EventId, reaction: Reaction) {
        if self.current != Some(inst) {
            return;
        }
        match reaction {
            Reaction::Acked(_) => self.relay.acked(event),
            Reaction::Failed(FailReason::Expired) => {
                self.expired += 1;
                let now = self.now;
                self.enqueue(inst, event, now);
            }
            Reaction::Failed(reason) if reason != FailReason::Fenced => {
                // The row stays unpublished (the change uncommitted): the relay publishes it
                // again, as a new record.
                let now = self.now;
                self.enqueue(inst, event, now);
            }
            Reaction::Stopped => self.current = None,
            _ => {}
        }
    }

    /// The application's `send()`: a new batch, with its delivery timeout armed.
    fn enqueue(&mut self, inst: usize, event: EventId, now: u64) {
        self.instances[inst].enqueue(event, now);
        if let Some(ms) = self.scenario.config.delivery_timeout_ms {
            let batch = self.instances[inst].batches.len() - 1;
            self.schedule(now + u64::from(ms), Event::Expire { inst, batch });
        }
    }

    fn apply(&mut self, input: Input, rec: &mut StepRecord) {
        match input {
            Input::Send { count } => {
                let events = self.relay.write(count);
                if let Some(c) = self.current {
                    if self.instances[c].state == InstanceState::Running {
                        let now = self.now;
                        for e in events {
                            self.enqueue(c, e, now);
                        }
                        self.drain(c, rec);
                    }
                }
            }
            Input::LoseNextRequest => self.lose_requests += 1,
            Input::LoseNextAck => self.lose_acks += 1,
            Input::DelayNextRequest { ms } => self.delays.push(ms),
            Input::RefuseNextRequest => self.refuse_requests += 1,
            Input::ExpireProducers => self.broker.expire_producers(),
            Input::Crash => {
                if let Some(c) = self.current.take() {
                    self.instances[c].state = InstanceState::Crashed;
                }
            }
            Input::Restart => {
                if let Some(c) = self.current.take() {
                    self.instances[c].state = InstanceState::Crashed;
                }
                let config = self.scenario.config;
                let inst = start_instance(&mut self.broker, &config);
                rec.started = Some((inst.pid, inst.epoch));
                self.instances.push(inst);
                self.links.push(Link::default());
                let c = self.instances.len() - 1;
                self.current = Some(c);
                let now = self.now;
                for e in self.relay.restart() {
                    self.enqueue(c, e, now);
                }
                self.drain(c, rec);
            }
            Input::WakeZombie => {
                let zombie = (0..self.instances.len())
                    .rev()
                    .find(|&i| self.instances[i].state == InstanceState::Crashed);
                if let Some(z) = zombie {
                    self.wake(z, rec);
                }
            }
        }
    }

    /// A crashed process carries on: what fell due while it was down happens now.
    fn wake(&mut self, z: usize, rec: &mut StepRecord) {
        self.instances[z].state = InstanceState::Zombie;
        if let Some(ms) = self.scenario.config.delivery_timeout_ms {
            let due: Vec<usize> = (0..self.instances[z].batches.len())
                .filter(|&b| self.instances[z].batches[b].created_at + u64::from(ms) <= self.now)
                .collect();
            for b in due {
                self.instances[z].expire(b);
            }
        }
        if let Some(req) = self.instances[z].overdue(self.now) {
            let conn = self.instances[z].connection;
            self.close_connection(z, conn, req.id);
        }
        self.drain(z, rec);
    }

    /// Sends what instance `inst` may send now (`Sender.runOnce`: resolve, bump, drain).
    fn drain(&mut self, inst: usize, rec: &mut StepRecord) {
        self.prepare(inst, rec);
        let config = self.scenario.config;
        while let Some(b) = self.instances[inst].next_to_send(&config) {
            let r = self.instances[inst].sent(b, self.now);
            let i = &self.instances[inst];
            let conn = i.connection;
            let req = ProduceBatch {
                pid: i.pid,
                epoch: r.epoch,
                seq: r.seq,
                transactional: config.transactional_id,
                event: i.batches[b].event,
                writer: inst,
                batch: b,
            };
            let fate = self.request_fate(inst, conn);
            let extra = match fate {
                Fate::Delayed(ms) => u64::from(ms),
                _ => 0,
            };
            if fate != Fate::Lost {
                let at = (self.now + self.latency() + extra).max(self.links[inst].last_arrival);
                self.links[inst].last_arrival = at;
                self.schedule(
                    at,
                    Event::Arrive {
                        inst,
                        conn,
                        id: r.id,
                        attempt: r.attempt,
                        req,
                    },
                );
            }
            self.schedule(
                self.now + REQUEST_TIMEOUT_MS,
                Event::Timeout {
                    inst,
                    conn,
                    id: r.id,
                },
            );
            rec.sent.push(Sent {
                inst,
                event: req.event,
                seq: r.seq,
                epoch: r.epoch,
                attempt: r.attempt,
                fate,
            });
        }
    }

    /// Before sending, instance `inst` resolves its sequences and bumps its epoch if it must
    /// (fenced: it is no longer the relay's current instance).
    fn prepare(&mut self, inst: usize, rec: &mut StepRecord) {
        let transactional = self.scenario.config.transactional_id;
        let broker = &mut self.broker;
        match self.instances[inst].prepare_with(transactional, |pid, e| broker.bump_epoch(pid, e)) {
            Bump::To(epoch) => rec.bumped = Some((inst, epoch)),
            Bump::Fenced => {
                rec.bump_fenced = Some(inst);
                if self.current == Some(inst) {
                    self.current = None;
                }
            }
            Bump::None => {}
        }
    }

    /// What the network does to the request instance `inst` sends now on `conn`: lost behind a
    /// lost one, lost or delayed as the learner arranged, else delivered.
    fn request_fate(&mut self, inst: usize, conn: u32) -> Fate {
        if self.links[inst].requests_lost == Some(conn) {
            Fate::Lost
        } else if self.lose_requests > 0 {
            self.lose_requests -= 1;
            self.links[inst].requests_lost = Some(conn);
            Fate::Lost
        } else if !self.delays.is_empty() {
            Fate::Delayed(self.delays.remove(0))
        } else {
            Fate::Delivered
        }
    }
}

/// A new producer instance: `InitProducerId` when idempotent.
fn start_instance(broker: &mut Broker, config: &Config) -> Instance {
    if config.idempotence {
        let (pid, epoch) = broker.init_producer_id(config.transactional_id);
        Instance::new(Some(pid), epoch)
    } else {
        Instance::new(None, 0)
    }
}

impl Model for Sim {
    type Checked = Violations;

    fn step(&mut self) -> bool {
        Sim::step(self)
    }

    fn steps(&self) -> usize {
        self.steps
    }

    fn checked(&self) -> Violations {
        self.violations
    }
}
