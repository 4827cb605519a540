//! Loading the golden inputs of `tests/data` (format in tests/data/README.md) and rendering them.

use std::collections::BTreeMap;
use std::path::Path as FsPath;

use serde_json::value::RawValue;
use wip_model::codec::{self, Limits};
use wip_model::{InterfaceDescriptor, InterfaceName, InterfaceReference, Object, Path};
use wip_textview::{InterfaceSignature, ObjectSignature, OperationSignature, TypeSignature};

/// One golden input: an Object with its optional path, or a descriptor with its reference.
pub(crate) enum Case {
    /// An Object signature.
    Object {
        /// The Object, decoded by the codec.
        object: Object,
        /// The path it was observed at, when the case states one.
        path: Option<Path>,
    },
    /// An Interface signature, or some of its declarations on their own.
    Interface {
        /// The reference the descriptor is shown under.
        reference: InterfaceReference,
        /// The descriptor, decoded and validated by the codec.
        descriptor: InterfaceDescriptor,
        /// Whether documentation details are shown.
        details: bool,
        /// When present, only these declarations are rendered, each on its own.
        show: Option<Vec<Fragment>>,
    },
}

/// A declaration to render on its own.
pub(crate) enum Fragment {
    /// The type declaration of this name.
    Type(String),
    /// The operation of this name.
    Operation(String),
}

type Members = BTreeMap<String, Box<RawValue>>;

impl Case {
    /// Reads and decodes the case in `file`.
    pub(crate) fn load(file: &FsPath) -> Result<Self, String> {
        let text = std::fs::read_to_string(file).map_err(|error| error.to_string())?;
        let members: Members = parse(&text)?;
        let limits = Limits::default();
        if let Some(object) = members.get("object") {
            let object = codec::decode_object(object.get().as_bytes(), &limits)
                .map_err(|error| format!("object: {error}"))?;
            let path = match members.get("path") {
                Some(path) => Some(path_of(&parse::<String>(path.get())?)?),
                None => None,
            };
            return Ok(Self::Object { object, path });
        }
        let descriptor = members
            .get("descriptor")
            .ok_or("no object or descriptor member")?;
        let descriptor = codec::decode_descriptor(descriptor.get().as_bytes(), &limits)
            .map_err(|error| format!("descriptor: {error}"))?;
        let reference = members.get("reference").ok_or("no reference member")?;
        let reference: BTreeMap<String, String> = parse(reference.get())?;
        let (Some(scope), Some(name)) = (reference.get("scope"), reference.get("name")) else {
            return Err("reference needs scope and name".to_owned());
        };
        let name = InterfaceName::new(name.as_str()).map_err(|error| error.to_string())?;
        let reference = InterfaceReference::new(path_of(scope)?, name);
        let details = match members.get("details") {
            Some(details) => parse::<bool>(details.get())?,
            None => false,
        };
        let show = match members.get("show") {
            Some(show) => Some(fragments(show.get())?),
            None => None,
        };
        Ok(Self::Interface {
            reference,
            descriptor: descriptor.into(),
            details,
            show,
        })
    }

    /// The Text View of the case, as the golden file holds it (without the final line break).
    pub(crate) fn render(&self) -> Result<String, String> {
        match self {
            Self::Object { object, path } => {
                Ok(ObjectSignature::new(object, path.as_ref()).to_string())
            }
            Self::Interface {
                reference,
                descriptor,
                details,
                show: None,
            } => Ok(InterfaceSignature::new(reference, descriptor)
                .with_details(*details)
                .to_string()),
            Self::Interface {
                descriptor,
                details,
                show: Some(show),
                ..
            } => {
                let mut parts = Vec::with_capacity(show.len());
                for fragment in show {
                    let part = match fragment {
                        Fragment::Type(name) => {
                            let declaration = descriptor
                                .type_declaration(name)
                                .ok_or_else(|| format!("no type {name:?}"))?;
                            TypeSignature::new(declaration)
                                .with_details(*details)
                                .to_string()
                        }
                        Fragment::Operation(name) => {
                            let operation = descriptor
                                .operation(name)
                                .ok_or_else(|| format!("no operation {name:?}"))?;
                            OperationSignature::new(operation)
                                .with_details(*details)
                                .to_string()
                        }
                    };
                    parts.push(part);
                }
                Ok(parts.join("\n\n"))
            }
        }
    }
}

fn parse<'a, T: serde::Deserialize<'a>>(text: &'a str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|error| error.to_string())
}

fn path_of(text: &str) -> Result<Path, String> {
    Path::new(text).map_err(|error| error.to_string())
}

fn fragments(text: &str) -> Result<Vec<Fragment>, String> {
    let entries: Vec<BTreeMap<String, String>> = parse(text)?;
    entries
        .into_iter()
        .map(|entry| match (entry.get("type"), entry.get("operation")) {
            (Some(name), None) => Ok(Fragment::Type(name.clone())),
            (None, Some(name)) => Ok(Fragment::Operation(name.clone())),
            _ => Err("a show entry names one type or one operation".to_owned()),
        })
        .collect()
}
