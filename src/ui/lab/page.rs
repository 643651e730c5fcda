//! The lab page.

use yew::prelude::*;

use crate::ui::i18n::Lang;

/// Props of [`LabPage`].
#[derive(Properties, PartialEq)]
pub struct LabPageProps {
    /// The page language.
    pub lang: Lang,
}

/// The concurrency lab.
#[component(LabPage)]
pub fn lab_page(props: &LabPageProps) -> Html {
    html! { <h2>{ props.lang.t("Concurrency lab", "並行性ラボ") }</h2> }
}
