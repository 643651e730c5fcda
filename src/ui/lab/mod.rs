//! The concurrency lab page (#/lab): the learner plays the scheduler over the article's services,
//! and the explorer searches every schedule. One component per file; all logic is in `crate::sim::lab`.

mod page;

pub use page::{LabPage, LabPageProps};
