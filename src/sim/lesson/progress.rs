//! The learner's progress in this browser: answers, done lessons and won challenges, by id, as
//! the lines of text the pages keep in one storage key (every page reads and writes the same
//! text, so a lesson done on one page is marked on the others).

use super::Value;

/// Longest progress text read back from storage (ids are short; this holds every lesson and
/// challenge many times over).
pub const MAX_PROGRESS_BYTES: usize = 16_384;

/// What the learner did with a question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Picked this value.
    Picked(Value),
    /// Skipped the question.
    Skipped,
}

/// A mark in the table of contents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A lesson whose question is answered or skipped; a challenge whose solution was opened
    /// before it was won (a win after that is no star: [`Progress::counts_win`]).
    Done,
    /// A challenge won.
    Won,
}

/// A small map by id, in insertion order (a few dozen entries at most; a `BTreeMap` would
/// cost the page's wasm several KB for nothing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ById<T>(Vec<(String, T)>);

impl<T> Default for ById<T> {
    fn default() -> Self {
        ById(Vec::new())
    }
}

impl<T: Copy> ById<T> {
    /// The entry for `id`.
    pub fn get(&self, id: &str) -> Option<&T> {
        self.0.iter().find(|(k, _)| k == id).map(|(_, v)| v)
    }

    /// Sets the entry for `id`.
    pub fn insert(&mut self, id: String, v: T) {
        match self.0.iter_mut().find(|(k, _)| *k == id) {
            Some(e) => e.1 = v,
            None => self.0.push((id, v)),
        }
    }

    /// Removes the entry for `id`.
    pub fn remove(&mut self, id: &str) {
        self.0.retain(|(k, _)| k != id);
    }

    /// Every entry.
    pub fn iter(&self) -> impl Iterator<Item = &(String, T)> {
        self.0.iter()
    }
}

/// The learner's progress in this browser: answers, done lessons and won challenges, by id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Marks by lesson or challenge id.
    pub marks: ById<Mark>,
    /// Answers by lesson id; a lesson's variation question's under `<id>/variation`
    /// ([`variation_key`]), the index of the choice picked as its value.
    pub answers: ById<Answer>,
}

/// The learner's answers kept with a page's run (the durable and Kafka pages): the lesson's
/// (`None` open, `Some(None)` skipped, `Some(Some(i))` choice i) and the variation question's
/// (choice i).
pub type RunAnswers = (Option<Option<usize>>, Option<usize>);

/// The answers as text: `a=<i>` or `a=skip`, and `t=<i>`, joined by `&` (empty: none).
pub fn run_answers_text((answer, transfer): RunAnswers) -> String {
    let mut parts = Vec::new();
    match answer {
        Some(Some(i)) => parts.push(format!("a={i}")),
        Some(None) => parts.push("a=skip".to_string()),
        None => {}
    }
    if let Some(i) = transfer {
        parts.push(format!("t={i}"));
    }
    parts.join("&")
}

/// Reads the `a=` and `t=` parts of `&`-joined text ([`run_answers_text`]'s, or a run's query
/// with them); a part it cannot read is no answer.
pub fn read_run_answers(text: &str) -> RunAnswers {
    let (mut answer, mut transfer) = (None, None);
    for part in text.split('&') {
        if let Some(v) = part.strip_prefix("a=") {
            answer = match v {
                "skip" => Some(None),
                n => n.parse().ok().map(Some),
            };
        } else if let Some(v) = part.strip_prefix("t=") {
            transfer = v.parse().ok();
        }
    }
    (answer, transfer)
}

/// Where [`Progress::answers`] keeps the answer to lesson `id`'s variation question.
pub fn variation_key(id: &str) -> String {
    format!("{id}/variation")
}

impl Progress {
    /// Reads what [`Progress::to_text`] wrote; unreadable lines are ignored (another version may
    /// add some), and text over [`MAX_PROGRESS_BYTES`] is not read.
    pub fn from_text(text: &str) -> Progress {
        let mut p = Progress::default();
        if text.len() > MAX_PROGRESS_BYTES {
            return p;
        }
        for line in text.lines() {
            let mut parts = line.split(' ');
            match (parts.next(), parts.next(), parts.next(), parts.next()) {
                (Some("done"), Some(id), None, None) => {
                    p.marks.insert(id.into(), Mark::Done);
                }
                (Some("won"), Some(id), None, None) => {
                    p.marks.insert(id.into(), Mark::Won);
                }
                (Some("skip"), Some(id), None, None) => {
                    p.answers.insert(id.into(), Answer::Skipped);
                }
                (Some("pick"), Some(id), Some(v), None) => {
                    let value = match v {
                        "yes" => Some(Value::Bool(true)),
                        "no" => Some(Value::Bool(false)),
                        n => n.parse().ok().map(Value::Int),
                    };
                    if let Some(v) = value {
                        p.answers.insert(id.into(), Answer::Picked(v));
                    }
                }
                _ => {}
            }
        }
        p
    }

    /// One line per mark and answer.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (id, m) in self.marks.iter() {
            let word = match m {
                Mark::Done => "done",
                Mark::Won => "won",
            };
            out.push_str(&format!("{word} {id}\n"));
        }
        for (id, a) in self.answers.iter() {
            match a {
                Answer::Skipped => out.push_str(&format!("skip {id}\n")),
                Answer::Picked(Value::Bool(b)) => {
                    out.push_str(&format!("pick {id} {}\n", if *b { "yes" } else { "no" }))
                }
                Answer::Picked(Value::Int(n)) => out.push_str(&format!("pick {id} {n}\n")),
            }
        }
        out
    }

    /// Marks `id`, unless it is won already (a won challenge stays won) or has this mark;
    /// whether anything changed.
    pub fn set_mark(&mut self, id: &str, mark: Mark) -> bool {
        let now = self.mark(id);
        if now == Some(Mark::Won) || now == Some(mark) {
            return false;
        }
        self.marks.insert(id.to_string(), mark);
        true
    }

    /// Whether a win of challenge `id` counts (is marked won): not once this browser has opened
    /// its solution, as a revealed answer scores nothing (a challenge won before stays won).
    pub fn counts_win(&self, id: &str) -> bool {
        self.mark(id) != Some(Mark::Done)
    }

    /// The mark of a lesson or challenge.
    pub fn mark(&self, id: &str) -> Option<Mark> {
        self.marks.get(id).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_reads_back_what_it_wrote_and_skips_what_it_cannot_read() {
        let mut p = Progress::default();
        assert!(p.set_mark("dual-write", Mark::Done));
        assert!(p.set_mark("triple-charge", Mark::Won));
        assert!(
            !p.set_mark("triple-charge", Mark::Done),
            "a won challenge stays won"
        );
        p.answers
            .insert("key-replays".into(), Answer::Picked(Value::Int(2)));
        p.answers
            .insert("dual-write".into(), Answer::Picked(Value::Bool(false)));
        p.answers.insert("atomic-lock".into(), Answer::Skipped);
        let text = p.to_text();
        assert_eq!(Progress::from_text(&text), p);
        let noisy = format!("{text}future-line x y z\npick broken notanumber\ntransfer x -1\n");
        assert_eq!(Progress::from_text(&noisy), p);
        let huge = "done x\n".repeat(MAX_PROGRESS_BYTES);
        assert_eq!(Progress::from_text(&huge), Progress::default());
    }

    #[test]
    fn a_win_after_the_solution_was_opened_does_not_count() {
        let mut p = Progress::default();
        assert!(
            p.counts_win("triple-charge"),
            "never opened: the learner found it"
        );
        // Opening the solution marks the challenge done, not won.
        assert!(p.set_mark("triple-charge", Mark::Done));
        assert!(!p.counts_win("triple-charge"));
        assert!(p.counts_win("toctou-all-three"), "another challenge");
        // Kept in the text every page reads: a reload, another page.
        let back = Progress::from_text(&p.to_text());
        assert!(!back.counts_win("triple-charge"));
        // A win before the solution was opened stays won.
        let mut won = Progress::default();
        won.set_mark("triple-charge", Mark::Won);
        assert!(!won.set_mark("triple-charge", Mark::Done));
        assert_eq!(won.mark("triple-charge"), Some(Mark::Won));
    }
}
