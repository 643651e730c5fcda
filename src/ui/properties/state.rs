//! The page's state, one reducer: the form (property, service, and the typed number of cases and
//! seed with their errors), the run, and where the walk through its shrink steps stands. `reduce`
//! forwards to the core's `PropertyRun` a slice at a time and does no I/O: the time it reports
//! comes in with the actions.

use std::rc::Rc;

use yew::Reducible;

use crate::sim::limits::{InputError, DEFAULT_PROPERTY_CASES};
use crate::sim::properties::{parse_cases, parse_seed, Property, PropertyRun, Settings};
use crate::sim::ServiceKind;

use super::persist::LinkError;

/// Trace events one slice may record before the page yields to the browser: about 5 ms of page
/// time (BENCHMARKS.md), so the progress bar moves and Cancel answers at once.
pub const SLICE_EVENTS: u64 = 6_000;

/// The settings a first visit opens with: the replay property against the naive service, so the
/// first run shows a failure and its shrinking; proptest's 256 cases.
pub fn default_settings() -> Settings {
    Settings {
        property: Property::Replay,
        service: ServiceKind::Naive,
        cases: DEFAULT_PROPERTY_CASES,
        seed: 42,
    }
}

/// Where the run stands on the page.
#[derive(Clone, Debug, PartialEq)]
pub enum RunState {
    /// Running slices.
    Running,
    /// Finished (passed or failed, shrunk), in this many ms of page time.
    Finished {
        /// From Run to the last slice.
        elapsed_ms: f64,
    },
    /// Cancelled part-way: what it had found is kept.
    Cancelled,
}

/// A run on the page.
#[derive(Clone, Debug, PartialEq)]
pub struct RunView {
    /// The core's run, as far as it got.
    pub run: PropertyRun,
    /// Running, finished or cancelled.
    pub state: RunState,
    /// Slices run: a new value asks for the next slice.
    pub slices: u64,
    started_ms: f64,
}

/// Why the page opened with other settings than asked.
#[derive(Clone, Debug, PartialEq)]
pub enum Notice {
    /// A link's settings could not be used: the saved (or default) ones are shown.
    BadLink(LinkError),
    /// The settings saved in this browser could not be used: the defaults are shown.
    BadSaved(LinkError),
}

/// The page's state.
#[derive(Clone, Debug, PartialEq)]
pub struct PropUi {
    /// The property to check.
    pub property: Property,
    /// The service to check it on.
    pub service: ServiceKind,
    /// The number of cases as typed.
    pub cases_text: String,
    /// The seed as typed.
    pub seed_text: String,
    /// Why the typed number of cases cannot be used.
    pub cases_error: Option<InputError>,
    /// Why the typed seed cannot be used.
    pub seed_error: Option<InputError>,
    /// The run under way, or the last one.
    pub run: Option<RunView>,
    /// A note about how the page opened.
    pub notice: Option<Notice>,
    /// Runs started on this page: a new value is a new run (the page then marks the address's
    /// history entry as showing one).
    pub runs: u64,
    /// The walk through the failure's shrink steps: 0 is the case as generated, `k` is shrink
    /// step `k`. As asked (a link may ask for more steps than the run takes): read it through
    /// [`PropUi::walk`].
    pub shrink_at: usize,
}

/// What the page can do.
#[derive(Clone, Debug, PartialEq)]
pub enum PropAction {
    /// Pick a property.
    Property(Property),
    /// Pick a service.
    Service(ServiceKind),
    /// Type the number of cases.
    Cases(String),
    /// Type a seed.
    Seed(String),
    /// Start a run of the form's settings, at this page time (ms).
    Run(f64),
    /// Open settings (a link, Back or Forward) and run them, at this page time.
    Open(Settings, f64),
    /// The next slice of the run, at this page time.
    Slice(f64),
    /// Stop the run where it is.
    Cancel,
    /// Say why a link opened on this page was not used.
    Notice(Notice),
    /// Show shrink step `k` of the failure (0: the case as generated).
    ShrinkTo(usize),
}

impl PropUi {
    /// The page showing `settings`, with nothing run yet.
    pub fn with(settings: Settings, notice: Option<Notice>) -> PropUi {
        PropUi {
            property: settings.property,
            service: settings.service,
            cases_text: settings.cases.to_string(),
            seed_text: settings.seed.to_string(),
            cases_error: None,
            seed_error: None,
            run: None,
            notice,
            runs: 0,
            shrink_at: 0,
        }
    }

    /// The walk through the shrink steps, once there are steps to walk (the run finished or
    /// was cancelled after a case failed): the step shown and the last one.
    pub fn walk(&self) -> Option<(usize, usize)> {
        let view = self.run.as_ref().filter(|v| v.state != RunState::Running)?;
        let last = view.run.failure()?.shrink_log().len();
        Some((self.shrink_at.min(last), last))
    }

    /// The form's settings, if both typed numbers can be used.
    pub fn settings(&self) -> Option<Settings> {
        Some(Settings {
            property: self.property,
            service: self.service,
            cases: parse_cases(&self.cases_text).ok()?,
            seed: parse_seed(&self.seed_text).ok()?,
        })
    }

    /// True while slices are running.
    pub fn running(&self) -> bool {
        self.run
            .as_ref()
            .is_some_and(|r| r.state == RunState::Running)
    }

    fn start(&mut self, settings: Settings, now_ms: f64) {
        // Settings that parsed are within their limits, so the core accepts them.
        if let Ok(run) = PropertyRun::new(settings) {
            self.run = Some(RunView {
                run,
                state: RunState::Running,
                slices: 0,
                started_ms: now_ms,
            });
            self.runs += 1;
            self.shrink_at = 0;
        }
    }
}

impl PropUi {
    /// Once the walk can be shown, the step asked for becomes one the run has.
    fn settle_walk(&mut self) {
        if let Some((at, _)) = self.walk() {
            self.shrink_at = at;
        }
    }
}

impl Reducible for PropUi {
    type Action = PropAction;

    fn reduce(self: Rc<Self>, action: PropAction) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            PropAction::Property(p) => next.property = p,
            PropAction::Service(s) => next.service = s,
            PropAction::Cases(text) => {
                next.cases_error = parse_cases(&text).err();
                next.cases_text = text;
            }
            PropAction::Seed(text) => {
                next.seed_error = parse_seed(&text).err();
                next.seed_text = text;
            }
            PropAction::Run(now_ms) => {
                next.cases_error = parse_cases(&next.cases_text).err();
                next.seed_error = parse_seed(&next.seed_text).err();
                if let Some(settings) = next.settings() {
                    next.notice = None;
                    next.start(settings, now_ms);
                }
            }
            PropAction::Open(settings, now_ms) => {
                let runs = next.runs;
                next = PropUi::with(settings, None);
                next.runs = runs;
                next.start(settings, now_ms);
            }
            PropAction::Notice(n) => next.notice = Some(n),
            PropAction::ShrinkTo(k) => {
                next.shrink_at = k;
                if let Some((at, _)) = next.walk() {
                    next.shrink_at = at;
                }
            }
            PropAction::Slice(now_ms) => {
                let Some(view) = next.run.as_mut().filter(|v| v.state == RunState::Running) else {
                    return self;
                };
                if view.run.run_slice(SLICE_EVENTS) {
                    view.state = RunState::Finished {
                        elapsed_ms: (now_ms - view.started_ms).max(0.0),
                    };
                }
                view.slices += 1;
                next.settle_walk();
            }
            PropAction::Cancel => {
                let Some(view) = next.run.as_mut().filter(|v| v.state == RunState::Running) else {
                    return self;
                };
                view.state = RunState::Cancelled;
                next.settle_walk();
            }
        }
        Rc::new(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::properties::Phase;

    fn reduce(ui: PropUi, actions: Vec<PropAction>) -> PropUi {
        let mut ui = Rc::new(ui);
        for a in actions {
            ui = ui.reduce(a);
        }
        (*ui).clone()
    }

    fn run_out(mut ui: Rc<PropUi>) -> PropUi {
        let mut t = 0.0;
        while ui.running() {
            t += 1.0;
            ui = ui.reduce(PropAction::Slice(t));
        }
        (*ui).clone()
    }

    #[test]
    fn a_run_goes_in_slices_to_its_end_and_cancel_keeps_what_it_found() {
        let ui = reduce(
            PropUi::with(default_settings(), None),
            vec![PropAction::Run(0.0)],
        );
        assert!(ui.running());
        let done = run_out(Rc::new(ui.clone()));
        let view = done.run.as_ref().unwrap();
        assert_eq!(view.run.phase(), Phase::Failed);
        assert!(matches!(view.state, RunState::Finished { elapsed_ms } if elapsed_ms > 0.0));
        let cancelled = reduce(ui, vec![PropAction::Cancel, PropAction::Slice(9.0)]);
        let view = cancelled.run.as_ref().unwrap();
        assert_eq!((view.state.clone(), view.slices), (RunState::Cancelled, 0));
    }

    #[test]
    fn the_walk_through_the_shrink_steps_stays_within_them_and_a_new_run_starts_it_over() {
        let ui = reduce(
            PropUi::with(default_settings(), None),
            vec![PropAction::Run(0.0), PropAction::ShrinkTo(4)],
        );
        assert_eq!(
            (ui.walk(), ui.shrink_at),
            (None, 4),
            "no walk while it runs"
        );
        let done = run_out(Rc::new(ui));
        let last = done
            .run
            .as_ref()
            .unwrap()
            .run
            .failure()
            .unwrap()
            .shrink_log()
            .len();
        assert!(last >= 4, "{last} shrink steps");
        assert_eq!(done.walk(), Some((4, last)), "a link's step is kept");
        let far = reduce(done.clone(), vec![PropAction::ShrinkTo(10_000)]);
        assert_eq!((far.walk(), far.shrink_at), (Some((last, last)), last));
        let back = reduce(far, vec![PropAction::ShrinkTo(1)]);
        assert_eq!(back.walk(), Some((1, last)));
        let again = reduce(back, vec![PropAction::Run(5.0)]);
        assert_eq!((again.walk(), again.shrink_at), (None, 0));
        // A link asking for more steps than the run takes shows the last one.
        let linked = reduce(
            PropUi::with(default_settings(), None),
            vec![
                PropAction::Open(default_settings(), 0.0),
                PropAction::ShrinkTo(999),
            ],
        );
        assert_eq!(run_out(Rc::new(linked)).walk(), Some((last, last)));
    }

    #[test]
    fn bad_numbers_are_named_and_block_the_run() {
        let ui = reduce(
            PropUi::with(default_settings(), None),
            vec![
                PropAction::Cases("-1".into()),
                PropAction::Seed("x".into()),
                PropAction::Run(0.0),
            ],
        );
        assert!(
            matches!(ui.cases_error, Some(InputError::BadNumber { ref number, .. }) if number.text == "-1")
        );
        assert!(matches!(ui.seed_error, Some(InputError::BadNumber { .. })));
        assert!(ui.run.is_none() && ui.settings().is_none());
        let fixed = reduce(
            ui,
            vec![
                PropAction::Cases("3".into()),
                PropAction::Seed("5".into()),
                PropAction::Run(0.0),
            ],
        );
        assert_eq!(fixed.cases_error, None);
        assert_eq!(fixed.run.unwrap().run.settings().cases, 3);
    }
}
