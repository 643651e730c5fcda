//! Reading the lab's text fields into numbers, with typed errors instead of panics. Schedules are
//! written 1-based ("1 2 1 1 2 2"), as the page numbers its requests.

use super::error::{LabError, NumberField};
use crate::sim::limits::MAX_SCHEDULE_LEN;

fn tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c == ',' || c == '、' || c.is_whitespace())
        .filter(|t| !t.is_empty())
}

/// A whole number from `text` (surrounding blanks and `_` digit separators allowed).
pub fn parse_integer(field: NumberField, text: &str) -> Result<i64, LabError> {
    let cleaned: String = text.trim().chars().filter(|c| *c != '_').collect();
    cleaned.parse::<i64>().map_err(|_| LabError::NotANumber {
        field,
        text: text.trim().chars().take(40).collect(),
    })
}

/// A seed: any whole number from 0 to 2^64 - 1.
pub fn parse_seed(text: &str) -> Result<u64, LabError> {
    let cleaned: String = text.trim().chars().filter(|c| *c != '_').collect();
    cleaned.parse::<u64>().map_err(|_| LabError::NotANumber {
        field: NumberField::Seed,
        text: text.trim().chars().take(40).collect(),
    })
}

/// Amounts separated by commas or blanks. Limits are checked by [`super::LabScenario::new`]; this
/// only reads numbers, and stops reading after `MAX_SCHEDULE_LEN` of them (more than any scenario uses).
pub fn parse_amounts(text: &str) -> Result<Vec<i64>, LabError> {
    let mut amounts = Vec::new();
    for token in tokens(text).take(MAX_SCHEDULE_LEN + 1) {
        amounts.push(parse_integer(NumberField::Amounts, token)?);
    }
    if amounts.is_empty() {
        return Err(LabError::NotANumber {
            field: NumberField::Amounts,
            text: String::new(),
        });
    }
    Ok(amounts)
}

/// A 1-based schedule ("1 2 1 1 2 2") as 0-based indices. The indices are checked against the
/// scenario by [`super::Stepper::replay`]; here only that each is a number from 1 and the length.
pub fn parse_schedule(text: &str) -> Result<Vec<usize>, LabError> {
    let mut schedule = Vec::new();
    for (position, token) in tokens(text).enumerate() {
        if position >= MAX_SCHEDULE_LEN {
            return Err(LabError::ScheduleTooLong {
                length: tokens(text).count(),
                max: MAX_SCHEDULE_LEN,
            });
        }
        let n = token.parse::<usize>().map_err(|_| LabError::NotANumber {
            field: NumberField::Schedule,
            text: token.chars().take(40).collect(),
        })?;
        match n.checked_sub(1) {
            Some(r) => schedule.push(r),
            None => {
                return Err(LabError::NotANumber {
                    field: NumberField::Schedule,
                    text: token.to_string(),
                })
            }
        }
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
