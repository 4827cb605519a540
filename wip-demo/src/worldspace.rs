//! The Worldspace one endpoint serves: the tracker, and the lab at `/lab` when the crate is built
//! with the `lab` feature and `DemoOptions::lab` asks for it. Each request
//! goes to the provider that owns its path; without the lab every request is the tracker's.

use wip_host::RegistrationError;
use wip_http::{CallOperationMetadata, Limits};
use wip_protocol::{
    FetchInterfaceRequest, FetchInterfaceResponse, ObjectObservation, ObserveRequest, ProtocolError,
};

use crate::auth::Access;
use crate::call::CallOutcome;
use crate::generate;
#[cfg(feature = "lab")]
use crate::lab::{self, LabTree};
use crate::options::DemoOptions;
use crate::provider::Provider;
use crate::tracker::TrackerTree;

/// The providers of one endpoint.
#[derive(Debug)]
pub(crate) struct Worldspace {
    pub(crate) tracker: Provider<TrackerTree>,
    /// The lab, when [`DemoOptions::lab`](crate::DemoOptions::lab) is on.
    #[cfg(feature = "lab")]
    lab: Option<Provider<LabTree>>,
}

impl Worldspace {
    /// Generates the tracker's world and registers every interface; generating 100,000 issues
    /// takes a while, so callers run this off the async runtime.
    pub(crate) fn build(options: &DemoOptions) -> Result<Self, RegistrationError> {
        let max_objects = options.max_observe_objects;
        let tracker = TrackerTree::provider(
            generate::build(options.issues),
            options.diagnostics,
            max_objects,
        )?;
        Ok(Self {
            tracker,
            #[cfg(feature = "lab")]
            lab: options
                .lab
                .then(|| {
                    LabTree::provider(options.deep_levels, options.wide_operations, max_objects)
                })
                .transpose()?,
        })
    }

    /// The lab provider, when the lab is on and `path` is in it.
    #[cfg(feature = "lab")]
    fn lab_for(&self, path: &str) -> Option<&Provider<LabTree>> {
        self.lab.as_ref().filter(|_| lab::owns(path))
    }

    /// An observation from the provider that owns the path.
    pub(crate) fn observe(
        &self,
        request: &ObserveRequest,
    ) -> Result<ObjectObservation, ProtocolError> {
        #[cfg(feature = "lab")]
        if let Some(lab) = &self.lab {
            return self.observe_with_lab(lab, request);
        }
        self.tracker.observe(request, 0)
    }

    /// An observe of `/` at depth 1 or more also gets the lab's tree as the root's last child;
    /// the two trees are separate snapshots, since the two providers share no lock.
    #[cfg(feature = "lab")]
    fn observe_with_lab(
        &self,
        lab: &Provider<LabTree>,
        request: &ObserveRequest,
    ) -> Result<ObjectObservation, ProtocolError> {
        if lab::owns(&request.path) {
            return lab.observe(request, 0);
        }
        if request.path != "/" || request.depth == 0 {
            return self.tracker.observe(request, 0);
        }
        let below = request.depth - 1;
        let mut observation = self.tracker.observe(request, lab.root_size(below))?;
        let lab_tree = lab.observe(
            &ObserveRequest {
                path: lab::ROOT.into(),
                depth: below,
            },
            0,
        )?;
        if let Some(children) = &mut observation.children {
            children.push(lab_tree);
        }
        Ok(observation)
    }

    /// The descriptor from the provider that owns the reference's scope.
    pub(crate) fn fetch(
        &self,
        request: &FetchInterfaceRequest,
    ) -> Result<FetchInterfaceResponse, ProtocolError> {
        #[cfg(feature = "lab")]
        if let Some(lab) = self.lab_for(&request.interface.scope) {
            return lab.fetch(request);
        }
        self.tracker.fetch(request)
    }

    /// One call, run by the provider that owns its target.
    pub(crate) fn call(
        &self,
        access: Access,
        metadata: CallOperationMetadata,
        body: &[u8],
        limits: Limits,
    ) -> CallOutcome {
        #[cfg(feature = "lab")]
        if let Some(lab) = self.lab_for(&metadata.target.path) {
            return lab.call(access, metadata, body, limits);
        }
        self.tracker.call(access, metadata, body, limits)
    }
}
