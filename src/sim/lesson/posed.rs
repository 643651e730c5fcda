//! A lesson's question against one run. Predict-then-reveal needs four things from the run: the
//! step to stop at (the next one decides), the choices, which of them is right, and the step
//! whose event shows it. A model's question computes them from the run ([`Pose`]); when the
//! learner changed the run so that the question no longer applies, it says why ([`NotPosed`]).

/// A question against one run; `C` is what the model's choices are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Posed<C> {
    /// The column asked about, in the run on the page (0 for a model with one run).
    pub column: usize,
    /// The step at which the run stops for the question (the decisive step is the next one).
    pub ask_at: usize,
    /// 2 to [`MAX_CHOICES`] choices, in the order shown.
    pub choices: Vec<C>,
    /// Index of the right choice.
    pub answer: usize,
    /// The step whose event shows the answer.
    pub shows_at: usize,
}

/// Choices at most.
pub const MAX_CHOICES: usize = 4;

impl<C: Copy + PartialEq> Posed<C> {
    /// A question whose right choice is `answer`, which must be one of `choices`.
    pub fn new(column: usize, ask_at: usize, choices: Vec<C>, answer: C, shows_at: usize) -> Self {
        let index = choices.iter().position(|c| *c == answer);
        debug_assert!(index.is_some(), "the answer is one of the choices");
        debug_assert!((2..=MAX_CHOICES).contains(&choices.len()));
        Posed {
            column,
            ask_at,
            choices,
            answer: index.unwrap_or(0),
            shows_at,
        }
    }

    /// Whether choice `i` is right.
    pub fn is_right(&self, i: usize) -> bool {
        i == self.answer
    }

    /// The right choice.
    pub fn answer_value(&self) -> C {
        self.choices[self.answer]
    }
}

/// Why a question does not apply to the run on the page; `K` names the column it wanted (the
/// service it is about, or nothing for a model whose columns have no such name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotPosed<K = ()> {
    /// The run has no column like the one the question is about.
    NoSuchColumn(K),
    /// The moment it asks at never comes in this run (a setting or an input was changed).
    NeverAsked,
}

/// A model's question, posed against its runs (`Run`: a session of worlds, a durable run, a
/// Kafka run's steps and end).
pub trait Pose<Run: ?Sized> {
    /// What the choices are.
    type Choice: Copy + PartialEq;
    /// What names a column the question wants.
    type Column: Copy;

    /// This question against `run`.
    fn pose(&self, run: &Run) -> Result<Posed<Self::Choice>, NotPosed<Self::Column>>;
}

/// A model's challenge: a goal judged on its runs.
pub trait Judge<Run: ?Sized> {
    /// Whether `run`, as it stands, meets the goal.
    fn won(&self, run: &Run) -> bool;
}
