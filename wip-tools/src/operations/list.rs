//! The per-operation tools of one scope, as found so far.

use std::collections::HashSet;

use wip_model::{InterfaceReference, Path};
use wip_refs::OperationRef;

use super::found::FoundOperations;
use super::tool::{LeftOut, MAX_OPERATION_TOOLS, OperationTool};
use crate::policy::{Policy, Via};

/// The per-operation tools of one scope, as found so far: see the [module](super).
#[derive(Debug, Clone)]
pub struct OperationTools {
    scope: Path,
    tools: Vec<OperationTool>,
    /// The interfaces whose operations were made tools (or left out): never looked at again.
    looked_at: HashSet<InterfaceReference>,
}

/// What [`OperationTools::add`] did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Added {
    /// How many tools were added.
    pub tools: usize,
    /// How many tools were dropped because no Object of the scope exposes their interface any
    /// more.
    pub removed: usize,
    /// The operations that got no tool, and why.
    pub left_out: Vec<(OperationRef, LeftOut)>,
}

impl OperationTools {
    /// No tools yet, for the operations under `scope`.
    pub fn new(scope: Path) -> Self {
        Self {
            scope,
            tools: Vec::new(),
            looked_at: HashSet::new(),
        }
    }

    /// The scope the operations are found under.
    pub fn scope(&self) -> &Path {
        &self.scope
    }

    /// The tools, in the order they were found.
    pub fn tools(&self) -> &[OperationTool] {
        &self.tools
    }

    /// The tool named `name`.
    pub fn get(&self, name: &str) -> Option<&OperationTool> {
        self.tools.iter().find(|tool| tool.name() == name)
    }

    /// Whether the list holds [`MAX_OPERATION_TOOLS`] tools.
    pub fn is_full(&self) -> bool {
        self.tools.len() >= MAX_OPERATION_TOOLS
    }

    /// Whether the interface's operations were looked at already.
    pub(crate) fn looked_at(&self, interface: &InterfaceReference) -> bool {
        self.looked_at.contains(interface)
    }

    /// Adds a tool for each operation of the interfaces `found` holds that were not looked at
    /// before, under `policy`, as the [module](super) says; when the look read the whole scope,
    /// drops the tools of interfaces no Object of it exposes any more (they are looked at again
    /// should one come back).
    pub fn add(&mut self, found: FoundOperations, policy: &Policy) -> Added {
        let mut added = Added::default();
        if let Some(exposed) = &found.exposed {
            let before = self.tools.len();
            self.tools
                .retain(|tool| exposed.contains(&tool.operation().interface));
            self.looked_at
                .retain(|interface| exposed.contains(interface));
            added.removed = before - self.tools.len();
        }
        for interface in found.interfaces {
            let reference = interface.fetched.interface.clone();
            if !self.looked_at.insert(reference.clone()) {
                continue;
            }
            let descriptor = &interface.fetched.descriptor;
            for declaration in &descriptor.operations {
                let operation = OperationRef::new(reference.clone(), declaration.name.to_string());
                let via = if policy.is_read(&operation) {
                    Via::Read
                } else {
                    Via::Invoke
                };
                let runs = interface
                    .exposed_by
                    .iter()
                    .find(|path| policy.check(path, &operation, via).is_ok());
                let made = match runs {
                    None => Err(LeftOut::Refused),
                    Some(_) if self.is_full() => Err(LeftOut::PastTheMaximum),
                    Some(example) => OperationTool::new(
                        operation.clone(),
                        descriptor,
                        declaration,
                        via,
                        example,
                        policy.confirms_operation(&operation),
                    ),
                };
                let made = made.and_then(|tool| match self.get(tool.name()) {
                    Some(other) => Err(LeftOut::NameTaken {
                        by: other.operation().clone(),
                    }),
                    None => Ok(tool),
                });
                match made {
                    Ok(tool) => {
                        self.tools.push(tool);
                        added.tools += 1;
                    }
                    Err(why) => added.left_out.push((operation, why)),
                }
            }
        }
        added
    }
}
