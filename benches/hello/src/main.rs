//! A Yew 0.23 hello-world page: one component, one button that counts its clicks. The load
//! benchmark (`benches/load.mjs`) times it against the playground's pages.
use yew::prelude::*;

#[function_component]
fn App() -> Html {
    let count = use_state(|| 0u32);
    let onclick = {
        let count = count.clone();
        move |_| count.set(*count + 1)
    };
    html! {
        <main>
            <h1>{ "Hello, Yew" }</h1>
            <button data-testid="hello-button" {onclick}>{ "Click me" }</button>
            <p data-testid="hello-count">{ *count }</p>
        </main>
    }
}

fn main() {
    yew::Renderer::<App>::new().render();
}
