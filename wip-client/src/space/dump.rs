//! The dump: the whole Known Space as deterministic text, for tests and diagnostics.

use std::fmt::Write as _;

use wip_model::Validator;
use wip_model::escape::Escaped;

use super::KnownSpace;
use super::vocabulary::{ObservationState, SpaceError};

impl KnownSpace {
    /// A deterministic text dump of the whole space, one line per entry (in path order) and
    /// interface (in reference order), Host strings escaped: for tests and diagnostics.
    pub fn dump(&self) -> String {
        let mut out = String::new();
        for (path, entry) in self.objects.iter() {
            let _ = write!(
                out,
                "{} {}",
                Escaped(path.as_str()),
                state_name(&entry.observation.state())
            );
            if let Some(held) = &entry.object {
                if let Some(object_ref) = &held.object_ref {
                    let _ = write!(out, " ref={}", Escaped(object_ref.as_str()));
                }
                write_validator(&mut out, held.validator.as_ref());
            }
            if let Some(children) = &entry.children {
                let names: Vec<String> = children.iter().map(|c| Escaped(c).to_string()).collect();
                let _ = write!(out, " children=[{}]", names.join(","));
            }
            if entry.discoverable {
                out.push_str(" discoverable");
            }
            out.push('\n');
        }
        for (reference, entry) in self.interfaces.iter() {
            let _ = write!(
                out,
                "iface {}#{} {}",
                Escaped(reference.scope().as_str()),
                Escaped(reference.name().as_str()),
                state_name(&entry.observation.state())
            );
            if entry.descriptor.is_none() {
                out.push_str(" no-descriptor");
            }
            if let Some(scope_ref) = &entry.scope_ref {
                let _ = write!(out, " scope_ref={}", Escaped(scope_ref.as_str()));
            }
            write_validator(&mut out, entry.validator.as_ref());
            out.push('\n');
        }
        out
    }
}

fn write_validator(out: &mut String, validator: Option<&Validator>) {
    if let Some(validator) = validator {
        let _ = write!(
            out,
            " v={}",
            Escaped(&String::from_utf8_lossy(validator.as_bytes()))
        );
    }
}

fn state_name(state: &ObservationState) -> String {
    match state {
        ObservationState::Loading => "loading".into(),
        ObservationState::Fresh => "fresh".into(),
        ObservationState::Stale => "stale".into(),
        ObservationState::Error(SpaceError::Protocol(code)) => format!("error({})", code.as_str()),
        ObservationState::Error(SpaceError::Transport(_)) => "error(transport)".into(),
        ObservationState::Error(SpaceError::InvalidResponse(_)) => "error(invalid)".into(),
    }
}
