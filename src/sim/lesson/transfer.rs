//! A variation question's choices, as every model's transfer builds them from the varied run's
//! (`durable::transfer`, `kafka::transfer`).

use super::MAX_CHOICES;

/// The choices of a variation question from the varied run's, each with the belief behind it
/// (`None` for the right one, or a wrong one no belief names): the lesson's own answer `seen`,
/// where the varied run gives another, as the belief `as_before` ("it changes nothing"); only
/// named misconceptions among the wrong ones once three choices are named or right; at most
/// [`MAX_CHOICES`] (the last named gives its place, `as_before` keeps its own); in `rank`'s
/// order (an insertion sort of at most four: no sort routine in the wasm).
pub fn variation_choices<C: Copy + PartialEq, B: Copy + PartialEq, K: PartialOrd>(
    mut held: Vec<(C, Option<B>)>,
    right: C,
    seen: Option<C>,
    as_before: B,
    rank: impl Fn(&C) -> K,
) -> Vec<(C, Option<B>)> {
    if let Some(seen) = seen {
        match held.iter_mut().find(|(c, _)| *c == seen) {
            Some((c, b @ None)) if *c != right => *b = Some(as_before),
            Some(_) => {}
            None => held.push((seen, Some(as_before))),
        }
    }
    let named = held
        .iter()
        .filter(|(c, b)| b.is_some() || *c == right)
        .count();
    if named >= 3 {
        held.retain(|(c, b)| b.is_some() || *c == right);
    }
    while held.len() > MAX_CHOICES {
        let last = held
            .iter()
            .rposition(|(c, b)| *c != right && *b != Some(as_before));
        match last {
            Some(i) => held.remove(i),
            None => break,
        };
    }
    for i in 1..held.len() {
        let mut j = i;
        while j > 0 && rank(&held[j - 1].0) > rank(&held[j].0) {
            held.swap(j - 1, j);
            j -= 1;
        }
    }
    held
}
