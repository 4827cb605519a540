//! Interface references, Objects and observed trees.

use wip_model::{
    InterfaceName, InterfaceReference, Object, ObjectObservation, ObjectRef, Validator,
};
use wip_protocol as up;

use crate::convert::{Result, Upstream, UpstreamError, from_all, path, to_all};

impl Upstream for InterfaceReference {
    type Theirs = up::InterfaceReference;

    fn to_upstream(&self) -> Self::Theirs {
        up::InterfaceReference {
            scope: self.scope().as_str().to_owned(),
            name: self.name().as_str().to_owned(),
        }
    }

    fn from_upstream(theirs: Self::Theirs) -> Result<Self> {
        let scope = path("scope", theirs.scope)?;
        let name = InterfaceName::new(theirs.name)
            .map_err(|_| UpstreamError::EmptyInterfaceName { field: "name" })?;
        Ok(Self::new(scope, name))
    }
}

impl Upstream for Object {
    type Theirs = up::Object;

    fn to_upstream(&self) -> Self::Theirs {
        up::Object {
            name: self.name.to_string(),
            description: self.description.as_deref().map(str::to_owned),
            interfaces: to_all(&self.interfaces),
            r#ref: self.object_ref.as_ref().map(|r| r.as_str().to_owned()),
            validator: self.validator.as_ref().map(|v| v.as_bytes().to_vec()),
        }
    }

    fn from_upstream(theirs: Self::Theirs) -> Result<Self> {
        Ok(Self {
            name: theirs.name.into(),
            description: theirs.description.map(Into::into),
            interfaces: from_all(theirs.interfaces)?.into(),
            object_ref: theirs.r#ref.map(ObjectRef::new),
            validator: theirs.validator.map(Validator::new),
        })
    }
}

impl Upstream for ObjectObservation {
    type Theirs = up::ObjectObservation;

    fn to_upstream(&self) -> Self::Theirs {
        up::ObjectObservation {
            object: self.object.to_upstream(),
            children: self.children.as_deref().map(to_all),
        }
    }

    fn from_upstream(theirs: Self::Theirs) -> Result<Self> {
        Ok(Self {
            object: Object::from_upstream(theirs.object)?,
            children: theirs.children.map(from_all).transpose()?.map(Into::into),
        })
    }
}
