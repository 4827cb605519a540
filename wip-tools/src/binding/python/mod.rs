//! The Python projection for programmatic tool calling (PTC): a module, standard library only,
//! in which every inspected Object is a proxy whose methods call an `invoke` the host program
//! provides.
//!
//! What the generated module holds, in order:
//!
//! - `invoke`: the one function the module calls, `async def invoke(target: str, operation:
//!   str, input: dict) -> Any` (the PTC tool). The host program assigns it to the module's
//!   `invoke`, or defines `invoke` in the namespace the source is executed in. It receives the
//!   Object's path, the complete operation notation (`/projects/wip::"issue::lifecycle"#close`)
//!   and a dict of the named arguments by their WIP names, passed by keyword; it returns the
//!   result as JSON (as `json.loads` gives it) or raises. Where `invoke` returns the result's
//!   JSON text instead, as a tool called from Anthropic's code execution does ([`ptc_tools`]),
//!   the program sets the module's `invoke_returns_text` to `True`. The module never builds a
//!   protocol request.
//! - `WipObject`, the proxies' base class, and the sentinel behind optional parameters: an
//!   omitted optional argument is absent from `input`, never sent as `null`.
//! - One type hint per type declaration of each interface (see the table in `types.rs`:
//!   `TypedDict`, `Literal`, `list`, `Union`, `None` for `unit`, `Any` for `json`, `str` for
//!   `bytes` in base64, `WipObject | str` for `entry`), each evaluated lazily as a string.
//! - One class per target with one `async` method per operation, parameters keyword-only and
//!   named as in the descriptor (`async def close(self, *, reason: str) -> CloseResult`),
//!   docstrings that quote the Host's documentation with the safe escape and say it is data.
//!   An operation name that several interfaces of the Object declare gets no method of its own
//!   name: each gets `<operation>_<interface name>`, so nothing picks an interface for the caller.
//! - A module-level variable per target (named after its path, `/projects/wip/1` →
//!   `projects_wip_1`, the root `root`; mangled as any name is) and `objects`, the proxies by exact path. An `entry` in
//!   a result comes back as the proxy when its Object is one of the module's, and as its path
//!   otherwise.
//!
//! Names that are not plain Python identifiers are mangled by one documented rule
//! (`names.rs`: `class` → `class_`, `a b` → `a_b`, collisions get `_2`, `_3`, …); the call
//! always carries the WIP name.
//!
//! ```
//! use wip_model::codec::{Limits, decode_descriptor};
//! use wip_model::{FetchInterfaceResponse, InterfaceName, InterfaceReference, Object, Path};
//! use wip_tools::binding::python::{ProjectedObject, python_source};
//!
//! let lifecycle = InterfaceReference::new(Path::root(), InterfaceName::new("issue.lifecycle")?);
//! let descriptor = decode_descriptor(br#"{"format":"wip-interface/1","types":[],"operations":[
//!     {"name":"close","parameters":[{"name":"reason","required":true,"type":{"kind":"string"}}],
//!      "returns":{"type":{"kind":"unit"}}}]}"#, &Limits::default())?;
//! let object = Object {
//!     name: "1".into(),
//!     description: None,
//!     interfaces: vec![lifecycle.clone()].into(),
//!     object_ref: None,
//!     validator: None,
//! };
//! let source = python_source(&[ProjectedObject {
//!     path: Path::new("/issues/1")?,
//!     object,
//!     interfaces: vec![FetchInterfaceResponse {
//!         interface: lifecycle,
//!         scope_ref: None,
//!         descriptor,
//!         validator: None,
//!     }].into(),
//! }]);
//! assert!(source.contains("async def close(self, *, reason: str) -> None:"));
//! assert!(source.contains(r#"await _wip_call(self, "/::issue.lifecycle#close", _wip_input, None)"#));
//! assert!(source.contains(r#"issues_1 = _WipObject1("/issues/1")"#));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(feature = "fuzzing")]
mod fuzz;
mod literal;
mod names;
mod ptc_tools;
mod source;
mod types;

use wip_refs::SignatureRef;

use crate::failure::write_worldspace_error;
use crate::inspect::{parse_target, unknown_target};
use crate::output::ToolOutput;
use crate::output::failure;
use crate::tools::Tools;
use crate::worldspace::Worldspace;

pub use ptc_tools::{DEFAULT_CODE_EXECUTION, ptc_tools};
pub use source::{ProjectedObject, python_source};

#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub use fuzz::{fuzz_python_names, python_module_for};

/// The Python module for `targets`, each resolved and its interfaces fetched through the tools'
/// Worldspace, as `wip ptc TARGET...` prints it.
///
/// A target that is not a canonical path, does not resolve, or has an interface that cannot be
/// fetched is an `Err` with the same text `inspect` gives for it. A target named twice is
/// projected once. See [`python_source`] for the module itself.
///
/// ```
/// use wip_tools::Tools;
/// use wip_tools::binding::python::python_module;
/// use wip_tools::fake::FakeWorldspace;
///
/// let tools = Tools::new(FakeWorldspace::new());
/// let error = block_on(python_module(&tools, &["issues/1".to_owned()])).unwrap_err();
/// assert!(error.is_error);
/// assert!(error.text.contains("is not an entry"), "{}", error.text);
/// # fn block_on<F: std::future::Future>(future: F) -> F::Output {
/// #     let runtime = tokio::runtime::Builder::new_current_thread().enable_time().build();
/// #     runtime.expect("a runtime").block_on(future)
/// # }
/// ```
pub async fn python_module<W: Worldspace>(
    tools: &Tools<W>,
    targets: &[String],
) -> Result<String, ToolOutput> {
    let mut projected: Vec<ProjectedObject> = Vec::new();
    for target in targets {
        let path = parse_target(tools.config.audience, target)?;
        if projected.iter().any(|object| object.path == path) {
            continue;
        }
        let observation = tools
            .worldspace
            .resolve(&path)
            .await
            .map_err(|error| unknown_target(tools.config.audience, &path, &error))?;
        let mut interfaces = Vec::new();
        for reference in &observation.object.interfaces {
            let fetched = tools
                .worldspace
                .fetch_interface(reference)
                .await
                .map_err(|error| {
                    failure(|out| {
                        let what = format!("fetching interface {}", SignatureRef(reference));
                        write_worldspace_error(out, tools.config.audience, &what, &error)
                    })
                })?;
            interfaces.push(fetched);
        }
        projected.push(ProjectedObject {
            path,
            object: observation.object,
            interfaces,
        });
    }
    Ok(python_source(&projected))
}
