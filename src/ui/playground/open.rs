//! How the page opens: a share link in the hash, else the learner's last run on this route, else
//! the built-in scenario (or the default sandbox), with a message when something could not be
//! used. The page reads the hash and localStorage and hands them in; nothing here touches the DOM.

use crate::sim::Scenario;
use crate::ui::i18n::Lang;
use crate::ui::route::Route;
use crate::ui::share;
use crate::ui::text::{self, view};

use super::saved_run::SavedRun;
use super::state::{Notice, PageState};
use super::teach::{Progress, Teach, Teachers};

/// The default sandbox: the three services of the first lesson plus the production one.
pub fn sandbox_scenario() -> Scenario {
    crate::sim::sandbox_start()
}

/// The route's own scenario: the built-in lesson or the default sandbox.
fn route_scenario(route: &Route, teachers: Teachers) -> Option<Scenario> {
    match route {
        Route::Sandbox => Some(sandbox_scenario()),
        Route::Scenario(id) => (teachers.lesson)(id),
        Route::Challenge(id) => (teachers.challenge)(id).map(|c| c.start),
        _ => None,
    }
}

/// A linked or saved run for `route`: on a challenge, only a run of that challenge.
fn fits(route: &Route, s: Scenario, lang: Lang, teachers: Teachers) -> Result<Scenario, String> {
    match route {
        Route::Challenge(id) => match (teachers.challenge)(id) {
            Some(c) => c
                .accepts(&s)
                .map(|()| s)
                .map_err(|r| text::move_refused(lang, &c, r)),
            None => Ok(s),
        },
        _ => Ok(s),
    }
}

impl PageState {
    /// The page on `route`, from the address's `hash` and the `saved` last run (localStorage's
    /// text). A long run opens as a build in progress (the page shows its progress); Cancel
    /// opens the route's own scenario instead.
    pub fn open(route: &Route, hash: &str, saved: Option<&str>, lang: Lang) -> PageState {
        PageState::open_with(route, hash, saved, Progress::default(), lang, Teachers::ALL)
    }

    /// [`PageState::open`] with the learner's progress (the question's remembered answer, the
    /// done and won marks), finding the questions and challenges in `teachers` (the page's).
    pub fn open_with(
        route: &Route,
        hash: &str,
        saved: Option<&str>,
        progress: Progress,
        lang: Lang,
        teachers: Teachers,
    ) -> PageState {
        let mut st = PageState::empty();
        st.teach = Teach::for_route(route, progress, teachers);
        let route_hash = route.to_hash();
        let fallback = route_scenario(route, teachers);
        // 1. A share link in the hash.
        if let Some(q) = Route::query(hash) {
            if st.open_link(q, route, lang, teachers, &fallback) {
                return st;
            }
        }
        // 2. The learner's last run on this route.
        if st.notice.is_none() {
            if let Some(saved) = saved.and_then(SavedRun::from_json) {
                if saved.route == route_hash
                    && st.open_saved(&saved, route, lang, teachers, &fallback)
                {
                    return st;
                }
            }
        }
        // 3. The built-in scenario or the default sandbox.
        st.open_fallback(fallback, lang);
        st
    }

    /// Opens the run of the share link whose query is `query`; false, with a message saying
    /// why, when the link or its scenario cannot be used.
    fn open_link(
        &mut self,
        query: &str,
        route: &Route,
        lang: Lang,
        teachers: Teachers,
        fallback: &Option<Scenario>,
    ) -> bool {
        let p = match share::decode_query(query) {
            Ok(p) => p,
            Err(e) => {
                self.notice = Some(Notice::Error(view::playground::share_error(lang, &e)));
                return false;
            }
        };
        let notice = if p.step_unreadable {
            Notice::Error(view::playground::STEP_UNREADABLE.get(lang).into())
        } else if query.split('&').any(|part| part == share::FROM_PROPERTIES) {
            Notice::Info(view::playground::opened_counterexample(lang, p.step))
        } else {
            Notice::Info(view::playground::OPENED_SHARED.get(lang).into())
        };
        let opened = Scenario::from_json(&p.json).map(|s| fits(route, s, lang, teachers));
        let why = match opened {
            Ok(Ok(s)) => {
                match self.open_scenario(s, p.step, Some(notice), fallback.clone(), lang) {
                    Ok(()) => return true,
                    Err(e) => view::playground::link_scenario_error(lang, &e),
                }
            }
            Ok(Err(why)) => why,
            // The link decoded but its scenario does not read: say the link is damaged (the
            // parser's detail follows; advice like "write it as an escape" is for files).
            Err(e) => view::playground::link_scenario_error(lang, &e),
        };
        self.notice = Some(Notice::Error(why));
        false
    }

    /// Opens the learner's last run on this route; false when it does not open: not this
    /// challenge's run (silently), or saved by another version of the page or damaged (a
    /// message says so rather than open the lesson as if nothing had been kept).
    fn open_saved(
        &mut self,
        saved: &SavedRun,
        route: &Route,
        lang: Lang,
        teachers: Teachers,
        fallback: &Option<Scenario>,
    ) -> bool {
        let opened = Scenario::from_json(&saved.scenario).and_then(|s| {
            match fits(route, s, lang, teachers) {
                Ok(s) => self.open_scenario(s, saved.position, None, fallback.clone(), lang),
                // Not this challenge's run: open its start, silently.
                Err(_) => Ok(()),
            }
        });
        match opened {
            Ok(()) => self.building.is_some() || self.run.is_some(),
            Err(e) => {
                self.notice = Some(Notice::Error(view::playground::restore_failed(lang, &e)));
                false
            }
        }
    }

    /// Opens the route's own scenario (the built-in one or the default sandbox) with the
    /// message so far, or says there is none.
    fn open_fallback(&mut self, fallback: Option<Scenario>, lang: Lang) {
        match fallback.map(|s| self.open_scenario(s, 0, self.notice.clone(), None, lang)) {
            Some(Ok(())) => {}
            Some(Err(e)) => self.notice = Some(Notice::Error(text::input_error(lang, &e))),
            None => {
                self.notice = Some(Notice::Error(
                    view::playground::NO_SUCH_SCENARIO.get(lang).into(),
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opened(route: &str, hash: &str, saved: Option<&str>) -> (Option<usize>, Option<Notice>) {
        let st = PageState::open(&Route::parse(route), hash, saved, Lang::En);
        (st.run.map(|r| r.session().position()), st.notice)
    }

    #[test]
    fn a_link_wins_over_the_saved_run_which_wins_over_the_lesson() {
        let lesson = Route::Scenario("double-charge".into());
        let json = crate::sim::builtin("double-charge").unwrap().to_json();
        let saved = SavedRun {
            route: lesson.to_hash(),
            position: 2,
            scenario: json.clone(),
        }
        .to_json();
        let link = format!("#/scenario/double-charge?{}", share::encode_query(&json, 4));
        let (at, notice) = opened(&link, &link, Some(&saved));
        assert_eq!(at, Some(4));
        assert!(matches!(notice, Some(Notice::Info(_))));
        let here = lesson.to_hash();
        assert_eq!(opened(&here, &here, Some(&saved)), (Some(2), None));
        // Another route's saved run, or unreadable storage, opens the lesson at its start.
        assert_eq!(opened("#/sandbox", "#/sandbox", Some(&saved)).0, Some(0));
        assert_eq!(opened(&here, &here, Some("{")), (Some(0), None));
        // A damaged link opens the lesson (not the saved run) and says so.
        let (at, notice) = opened(&here, "#/scenario/double-charge?s=%%", Some(&saved));
        assert_eq!(at, Some(0));
        assert!(matches!(notice, Some(Notice::Error(t)) if t.contains("damaged")));
        let (at, notice) = opened("#/scenario/nope", "#/scenario/nope", None);
        assert_eq!(at, None);
        assert!(matches!(notice, Some(Notice::Error(t)) if t.contains("no built-in scenario")));
    }

    /// Issue 28: the property page's link says where the run came from, not that it was shared.
    #[test]
    fn a_counterexample_from_the_property_checks_says_so() {
        let json = sandbox_scenario().to_json();
        let link = format!(
            "#/sandbox?{}&{}",
            share::encode_query(&json, 0),
            share::FROM_PROPERTIES
        );
        let (_, notice) = opened(&link, &link, None);
        let Some(Notice::Info(t)) = notice else {
            panic!("{notice:?}")
        };
        assert!(
            t.starts_with("Opened the counterexample from the property checks"),
            "{t}"
        );
        assert!(!t.contains("shared"), "{t}");
    }

    /// Issue 26: a key typed before keys were checked (not an sf-string) still opens, from a
    /// link, a saved run or a file, and the page says which input holds it and why.
    #[test]
    fn a_run_with_a_key_no_client_could_send_opens_and_says_so() {
        let mut s = sandbox_scenario();
        s.inputs.push(crate::sim::Input::Request {
            key: Some("注文-1".into()),
            key_format: crate::sim::KeyFormat::V4,
            amount: 100,
            description: "order".into(),
            fault: crate::sim::Fault::None,
        });
        let json = s.to_json();
        let link = format!("#/sandbox?{}", share::encode_query(&json, 0));
        let (at, notice) = opened(&link, &link, None);
        assert_eq!(at, Some(0));
        let Some(Notice::Info(t)) = notice else {
            panic!("{notice:?}")
        };
        assert!(
            t.starts_with(
                "Opened the shared run at the sender's step. Input 1's key predates the key check"
            ),
            "{t}"
        );
        assert!(
            t.contains("Character 1 of the key is “注” (U+6CE8):"),
            "{t}"
        );
        let saved = SavedRun {
            route: Route::Sandbox.to_hash(),
            position: 0,
            scenario: json,
        }
        .to_json();
        let st = PageState::open(&Route::Sandbox, "#/sandbox", Some(&saved), Lang::Ja);
        assert!(st.run.is_some());
        assert!(
            matches!(&st.notice, Some(Notice::Info(t)) if t.starts_with("入力 1 のキーは検査の導入前のもので")),
            "{:?}",
            st.notice
        );
        // A run whose keys are all sendable says nothing more.
        let (_, notice) = opened("#/sandbox", "#/sandbox", None);
        assert_eq!(notice, None);
    }
}
