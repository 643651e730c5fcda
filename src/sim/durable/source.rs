//! The workflow's real source, cut from `workflow.rs` at its `// @durable <name>` markers, as the
//! lab cuts the article's services at `// @lab` markers: the page shows the code the tests run,
//! not a copy. A section runs from the line after its marker to the next marker line
//! (`// @durable end` closes one without opening another).

use super::{FlowKind, StepName};

/// The source the markers live in.
pub const WORKFLOW_SOURCE: &str = include_str!("workflow.rs");

const MARKER_PREFIX: &str = "// @durable ";

/// One line of a workflow's source, with the section it belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceLine {
    /// 1-based line number in src/sim/durable/workflow.rs.
    pub number: usize,
    /// The line as written, without the indentation every line of the listing shares.
    pub text: &'static str,
    /// The marker of the section the line is in (`order.charge`).
    pub section: &'static str,
}

/// The marker of the section that takes `step` in `flow`'s code.
pub fn section(flow: FlowKind, step: StepName) -> &'static str {
    match (flow, step) {
        (FlowKind::Order, StepName::Reserve) => "order.reserve",
        (FlowKind::Order, StepName::Clock) => "order.clock",
        (FlowKind::Order, StepName::ShipExpress | StepName::ShipStandard) => "order.ship",
        (FlowKind::Order, StepName::Receipt) => "order.receipt",
        (FlowKind::Order, _) => "order.charge",
        (FlowKind::Trip, StepName::Charge) => "trip.charge",
        (FlowKind::Trip, StepName::BookFlight) => "trip.book",
        (FlowKind::Trip, StepName::ReserveHotel) => "trip.reserve",
        (FlowKind::Trip, _) => "trip.compensate",
    }
}

/// Every marked line of `flow`'s code (its function and its helpers), marker lines left out,
/// in source order. Lines outside any section (between functions) are not listed.
pub fn source_lines(flow: FlowKind) -> Vec<SourceLine> {
    let prefix = match flow {
        FlowKind::Order => "order.",
        FlowKind::Trip => "trip.",
    };
    let mut lines = Vec::new();
    let mut open: Option<&'static str> = None;
    for (index, line) in WORKFLOW_SOURCE.lines().enumerate() {
        if let Some(name) = line.trim_start().strip_prefix(MARKER_PREFIX) {
            let name = name.trim();
            open = (name != "end" && name.starts_with(prefix)).then_some(name);
        } else if let Some(section) = open {
            lines.push(SourceLine {
                number: index + 1,
                text: line,
                section,
            });
        }
    }
    let indent = lines
        .iter()
        .filter(|l| !l.text.trim().is_empty())
        .map(|l| l.text.len() - l.text.trim_start_matches(' ').len())
        .min()
        .unwrap_or(0);
    for l in &mut lines {
        l.text = l.text.get(indent.min(l.text.len())..).unwrap_or(l.text);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_step_of_each_flow_has_its_lines() {
        for flow in FlowKind::ALL {
            let lines = source_lines(flow);
            assert!(
                lines.iter().any(|l| l.text.starts_with("pub fn")),
                "{flow:?}"
            );
            for step in flow.steps() {
                let marker = section(flow, *step);
                let marked: Vec<_> = lines.iter().filter(|l| l.section == marker).collect();
                assert!(
                    !marked.is_empty(),
                    "{flow:?} {step:?}: no lines for {marker}"
                );
                // The section shows the code that names the step.
                let name = format!("{step:?}");
                assert!(
                    marked.iter().any(|l| l.text.contains(&name))
                        || matches!(
                            step,
                            StepName::Clock | StepName::Refund | StepName::CancelFlight
                        ),
                    "{marker} does not name {name}"
                );
            }
            assert!(lines.iter().all(|l| !l.text.contains("@durable")));
        }
    }
}
