//! [`Sim`]: the run. A queue of events ordered by (simulated ms, insertion), each step taking
//! the next one: an input, a request reaching the broker, an answer reaching the producer, a
//! request timeout, the consumer reading a record. The invariants are checked after each step.
//! Going back is replaying: [`Sim::replay`] builds the run at step k from the scenario.

use std::collections::BTreeMap;

use super::broker::{Broker, ProduceBatch, Verdict};
use super::invariants::Violations;
use super::pipeline::{Consumer, Relay};
use super::producer::{FailReason, Instance, InstanceState, Reaction};
use super::{
    Config, Epoch, EventId, Input, KafkaScenario, Pid, Seq, LATENCY_MS, REQUEST_TIMEOUT_MS,
};
use crate::sim::base::rng::Rng;
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
    /// A request timed out.
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
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    Input(usize),
    Arrive {
        inst: usize,
        batch: usize,
        attempt: u8,
        req: ProduceBatch,
    },
    Respond {
        inst: usize,
        batch: usize,
        attempt: u8,
        epoch: Epoch,
        verdict: Verdict,
    },
    Timeout {
        inst: usize,
        batch: usize,
        attempt: u8,
        epoch: Epoch,
    },
    Consume {
        offset: u32,
    },
}

/// A run of a [`KafkaScenario`] at some step.
#[derive(Clone, Debug)]
pub struct Sim {
    scenario: KafkaScenario,
    now: u64,
    queue: BTreeMap<(u64, u64), Event>,
    inserted: u64,
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
    lose_requests: u32,
    lose_acks: u32,
    delays: Vec<u32>,
    steps: usize,
    /// The invariants.
    pub violations: Violations,
    halt: Option<Halt>,
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
            queue: BTreeMap::new(),
            inserted: 0,
            rng: Rng::new(scenario.seed),
            broker,
            instances: vec![first],
            current: Some(0),
            relay: Relay::new(config.relay),
            consumer: Consumer::new(config.inbox),
            lose_requests: 0,
            lose_acks: 0,
            delays: Vec::new(),
            steps: 0,
            violations: Violations::default(),
            halt: None,
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
            .filter_map(|(&(at_ms, _), ev)| match *ev {
                Event::Arrive {
                    inst,
                    batch,
                    attempt,
                    req,
                } => {
                    let _ = batch;
                    Some(Wire::Request {
                        at_ms,
                        inst,
                        event: req.event,
                        seq: req.seq,
                        attempt,
                    })
                }
                Event::Respond {
                    inst,
                    batch,
                    verdict,
                    ..
                } => Some(Wire::Answer {
                    at_ms,
                    inst,
                    event: self.instances[inst].batches[batch].event,
                    verdict,
                }),
                _ => None,
            })
            .collect()
    }

    /// Faults armed and not yet used: lost requests, lost acks, delays.
    pub fn armed(&self) -> (u32, u32, usize) {
        (self.lose_requests, self.lose_acks, self.delays.len())
    }

    fn schedule(&mut self, at: u64, ev: Event) {
        self.queue.insert((at, self.inserted), ev);
        self.inserted += 1;
    }

    fn latency(&mut self) -> u64 {
        let jitter = u64::from(self.scenario.config.jitter_ms);
        if jitter == 0 {
            LATENCY_MS
        } else {
            LATENCY_MS + self.rng.below_inclusive(jitter)
        }
    }

    /// Takes the next event; false when there is none (or the step limit is reached).
    pub fn step(&mut self) -> bool {
        if self.halt.is_some() {
            return false;
        }
        if self.steps >= KAFKA_MAX_STEPS {
            self.halt = Some(Halt::StepLimit);
            return false;
        }
        let (at, ev) = loop {
            let Some((&(at, key), &ev)) = self.queue.iter().next() else {
                return false;
            };
            self.queue.remove(&(at, key));
            match ev {
                Event::Timeout {
                    inst,
                    batch,
                    attempt,
                    epoch,
                } if !self.instances[inst].timer_matters(batch, attempt, epoch) => continue,
                _ => break (at, ev),
            }
        };
        self.now = at;
        self.steps += 1;
        let mut rec = StepRecord {
            at_ms: at,
            kind: StepKind::Input(Input::Crash),
            sent: Vec::new(),
            started: None,
        };
        rec.kind = match ev {
            Event::Input(i) => {
                let input = self.scenario.inputs[i].input;
                self.apply(input, &mut rec);
                StepKind::Input(input)
            }
            Event::Arrive {
                inst,
                batch,
                attempt,
                req,
            } => self.arrive(inst, batch, attempt, req),
            Event::Respond {
                inst,
                batch,
                attempt,
                epoch,
                verdict,
            } => {
                let config = self.scenario.config;
                let reaction = self.instances[inst].answer(batch, attempt, epoch, verdict, &config);
                let event = self.instances[inst].batches[batch].event;
                self.after_reaction(inst, event, reaction);
                self.drain(inst, &mut rec);
                StepKind::Answered {
                    inst,
                    event,
                    verdict,
                    reaction,
                }
            }
            Event::Timeout {
                inst,
                batch,
                attempt,
                epoch,
            } => {
                let config = self.scenario.config;
                let reaction = self.instances[inst].timeout(batch, attempt, epoch, &config);
                let event = self.instances[inst].batches[batch].event;
                self.after_reaction(inst, event, reaction);
                self.drain(inst, &mut rec);
                StepKind::TimedOut {
                    inst,
                    event,
                    attempt,
                    reaction,
                }
            }
            Event::Consume { offset } => {
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
        };
        self.last = Some(rec);
        true
    }

    fn arrive(&mut self, inst: usize, batch: usize, attempt: u8, req: ProduceBatch) -> StepKind {
        let verdict = self.broker.append(req, self.steps);
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
        let ack_lost = self.lose_acks > 0;
        if ack_lost {
            self.lose_acks -= 1;
        } else {
            let at = self.now + self.latency();
            self.schedule(
                at,
                Event::Respond {
                    inst,
                    batch,
                    attempt,
                    epoch: req.epoch,
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
            Reaction::Failed(reason) if reason != FailReason::Fenced => {
                // The row stays unpublished (the change uncommitted): the relay publishes it
                // again, as a new record.
                self.instances[inst].enqueue(event);
            }
            Reaction::Stopped => self.current = None,
            _ => {}
        }
    }

    fn apply(&mut self, input: Input, rec: &mut StepRecord) {
        match input {
            Input::Send { count } => {
                let events = self.relay.write(count);
                if let Some(c) = self.current {
                    if self.instances[c].state == InstanceState::Running {
                        for e in events {
                            self.instances[c].enqueue(e);
                        }
                        self.drain(c, rec);
                    }
                }
            }
            Input::LoseNextRequest => self.lose_requests += 1,
            Input::LoseNextAck => self.lose_acks += 1,
            Input::DelayNextRequest { ms } => self.delays.push(ms),
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
                let c = self.instances.len() - 1;
                self.current = Some(c);
                for e in self.relay.restart() {
                    self.instances[c].enqueue(e);
                }
                self.drain(c, rec);
            }
            Input::WakeZombie => {
                let zombie = (0..self.instances.len())
                    .rev()
                    .find(|&i| self.instances[i].state == InstanceState::Crashed);
                if let Some(z) = zombie {
                    self.instances[z].state = InstanceState::Zombie;
                    let config = self.scenario.config;
                    for b in self.instances[z].overdue(self.now) {
                        let (attempt, epoch) = {
                            let batch = &self.instances[z].batches[b];
                            (batch.attempts, batch.epoch)
                        };
                        self.instances[z].timeout(b, attempt, epoch, &config);
                    }
                    self.drain(z, rec);
                }
            }
        }
    }

    /// Sends what instance `inst` may send now.
    fn drain(&mut self, inst: usize, rec: &mut StepRecord) {
        let config = self.scenario.config;
        while let Some(b) = self.instances[inst].next_to_send(&config) {
            self.instances[inst].sent(b, self.now);
            let i = &self.instances[inst];
            let batch = i.batches[b];
            let req = ProduceBatch {
                pid: i.pid,
                epoch: batch.epoch,
                seq: batch.seq,
                transactional: config.transactional_id,
                event: batch.event,
                writer: inst,
            };
            let fate = if self.lose_requests > 0 {
                self.lose_requests -= 1;
                Fate::Lost
            } else if !self.delays.is_empty() {
                Fate::Delayed(self.delays.remove(0))
            } else {
                Fate::Delivered
            };
            let extra = match fate {
                Fate::Delayed(ms) => u64::from(ms),
                _ => 0,
            };
            if fate != Fate::Lost {
                let at = self.now + self.latency() + extra;
                self.schedule(
                    at,
                    Event::Arrive {
                        inst,
                        batch: b,
                        attempt: batch.attempts,
                        req,
                    },
                );
            }
            self.schedule(
                self.now + REQUEST_TIMEOUT_MS,
                Event::Timeout {
                    inst,
                    batch: b,
                    attempt: batch.attempts,
                    epoch: batch.epoch,
                },
            );
            rec.sent.push(Sent {
                inst,
                event: batch.event,
                seq: batch.seq,
                epoch: batch.epoch,
                attempt: batch.attempts,
                fate,
            });
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
