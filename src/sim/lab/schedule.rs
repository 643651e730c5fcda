//! Reading the lab's text fields into numbers, with typed errors instead of panics. Schedules are
//! written 1-based ("1 2 1 1 2 2"), as the page numbers its requests.

use super::error::{LabError, NumberField};
use crate::sim::limits::{read_number, MAX_SCHEDULE_LEN};

fn tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c == ',' || c == '、' || c.is_whitespace())
        .filter(|t| !t.is_empty())
}

/// A whole number typed into `field`, within the field's range ([`NumberField::range`]); what
/// is wrong (empty, not a number, negative, too small, too large) is told apart.
pub fn parse_integer(field: NumberField, text: &str) -> Result<i128, LabError> {
    let (min, max) = field.range();
    read_number(text, min, max).map_err(|number| LabError::BadNumber { field, number })
}

/// A seed: any whole number from 0 to 2^64 - 1.
pub fn parse_seed(text: &str) -> Result<u64, LabError> {
    // In range, so it fits.
    parse_integer(NumberField::Seed, text).map(|n| n as u64)
}

/// Amounts separated by commas or blanks, each within the amounts' range; stops reading after
/// `MAX_SCHEDULE_LEN` of them (more than any scenario uses). How many there must be is checked
/// by [`super::LabScenario::new`].
pub fn parse_amounts(text: &str) -> Result<Vec<i64>, LabError> {
    let mut amounts = Vec::new();
    for token in tokens(text).take(MAX_SCHEDULE_LEN + 1) {
        // In range, so it fits.
        amounts.push(parse_integer(NumberField::Amounts, token)? as i64);
    }
    if amounts.is_empty() {
        // Nothing but blanks and separators: the field is empty.
        return parse_integer(NumberField::Amounts, "").map(|_| amounts);
    }
    Ok(amounts)
}

/// A 1-based schedule ("1 2 1 1 2 2") as 0-based indices. The indices are checked against the
/// scenario by [`super::Stepper::replay`]; here only that each is a request number (1 to
/// `MAX_PARALLEL_REQUESTS`) and the length.
pub fn parse_schedule(text: &str) -> Result<Vec<usize>, LabError> {
    let mut schedule = Vec::new();
    for (position, token) in tokens(text).enumerate() {
        if position >= MAX_SCHEDULE_LEN {
            return Err(LabError::ScheduleTooLong {
                length: tokens(text).count(),
                max: MAX_SCHEDULE_LEN,
            });
        }
        // From 1, so the 0-based index is one less.
        let n = parse_integer(NumberField::Schedule, token)?;
        schedule.push(n as usize - 1);
    }
    Ok(schedule)
}

/// A schedule written 1-based, as [`parse_schedule`] reads it.
pub fn format_schedule(schedule: &[usize]) -> String {
    schedule
        .iter()
        .map(|r| (r + 1).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}
