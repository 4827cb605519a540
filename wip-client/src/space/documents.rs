//! What the Discoverable Space's index is given of an entry: its name, path, description,
//! interfaces and the operations known of them. A leaf of the space, borrowing only the
//! interfaces' part, so that a kept space's documents can be built on one thread while its
//! entries are restored on another (`taking_in.rs`).

use wip_model::{InterfaceReference, Path};

use super::interfaces::Interfaces;
use super::kept::KeptOperations;
use crate::discover::{DiscoverDocument, DiscoverOperation};

/// Where the operations of an interface are known from: its descriptor when one is held, else
/// as another run kept them.
#[derive(Clone, Copy)]
pub(super) struct Operations<'a> {
    pub(super) interfaces: &'a Interfaces,
    pub(super) kept: &'a KeptOperations,
}

impl Operations<'_> {
    /// Appends the operations of `reference` to `out`; `false` when neither source knows them.
    /// Appended in place, since every entry the index takes in asks for its interfaces'.
    pub(super) fn extend(
        &self,
        reference: &InterfaceReference,
        out: &mut Vec<DiscoverOperation>,
    ) -> bool {
        if let Some(descriptor) = self
            .interfaces
            .get(reference)
            .and_then(|entry| entry.descriptor.as_ref())
        {
            out.extend(descriptor.operations.iter().map(|operation| {
                DiscoverOperation {
                    name: operation.name.to_string(),
                    summary: operation
                        .documentation
                        .as_ref()
                        .map(|d| d.summary.to_string()),
                }
            }));
            return true;
        }
        match self.kept.get(reference) {
            Some(kept) => {
                out.extend(kept.iter().cloned());
                true
            }
            None => false,
        }
    }

    /// The document of an entry at `path` holding these fields.
    pub(super) fn document(
        &self,
        path: &Path,
        name: &str,
        description: Option<&str>,
        interfaces: &[InterfaceReference],
    ) -> DiscoverDocument {
        let mut operations = Vec::new();
        for reference in interfaces {
            self.extend(reference, &mut operations);
        }
        DiscoverDocument {
            path: path.clone(),
            name: name.to_owned(),
            description: description.map(str::to_owned),
            interfaces: interfaces.to_vec(),
            operations,
        }
    }
}
