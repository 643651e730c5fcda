//! The concurrency lab page (#/lab): the learner plays the scheduler over the article's services,
//! and the explorer searches every schedule. One component per file; every rule lives in
//! `crate::sim::lab`, the components only draw its state and send it the learner's choices.

mod compare;
mod controls;
mod explorer;
mod histogram;
mod lane;
mod page;
mod persist;
mod settings;
mod share;
mod shared;
mod state;
mod text;
mod timeline;

pub use page::{LabPage, LabPageProps};
