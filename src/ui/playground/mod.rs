//! The playground page: scenarios and the sandbox, every chosen service fed the same inputs.

use yew::prelude::*;

use super::i18n::Lang;
use super::route::Route;

/// Props of the playground page.
#[derive(Properties, PartialEq, Clone)]
pub struct PlaygroundProps {
    /// Page language.
    pub lang: Lang,
    /// Which scenario or the sandbox.
    pub route: Route,
}

/// The playground page.
#[function_component(Playground)]
pub fn playground(props: &PlaygroundProps) -> Html {
    let l = props.lang;
    html! {
        <section class="intro" data-testid="intro">
            <h2>{ l.t("Why “just add a key” is not enough", "「キーを付ければ済む」わけではない理由") }</h2>
            <p>{ l.t(
                "A payment request times out. Did the server charge the card or not? The client cannot tell, so it retries, and a service without idempotency charges twice.",
                "決済リクエストがタイムアウトした。サーバーは課金したのか、していないのか。クライアントには判別できないのでリトライし、冪等性のないサービスは二重に課金する。") }</p>
        </section>
    }
}
