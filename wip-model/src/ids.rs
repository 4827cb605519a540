//! Interface identity and the opaque strings and bytes a Host hands out: refs and validators.

use std::fmt;
use std::sync::Arc;

use crate::path::Path;
use crate::small::{SmallBytes, SmallText};

/// The local name of an interface: any non-empty Unicode string.
///
/// Delimiters such as `/`, `::`, `#` and `.` are allowed; names are compared code point by code
/// point, never normalised. Cloning is cheap (a reference count). A name is Host data, so it has
/// no `Display`: [`as_str`](Self::as_str) is the raw name, [`Quoted`](crate::escape::Quoted)
/// shows it safely.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct InterfaceName(Arc<str>);

/// Returned when an interface name is empty.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("interface name is empty")]
pub struct EmptyInterfaceName;

impl InterfaceName {
    /// Wraps a non-empty name.
    pub fn new(name: impl AsRef<str>) -> Result<Self, EmptyInterfaceName> {
        let name = name.as_ref();
        if name.is_empty() {
            return Err(EmptyInterfaceName);
        }
        Ok(Self(Arc::from(name)))
    }

    /// The name as it travels on the wire.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for InterfaceName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl AsRef<str> for InterfaceName {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl TryFrom<&str> for InterfaceName {
    type Error = EmptyInterfaceName;

    fn try_from(name: &str) -> Result<Self, Self::Error> {
        Self::new(name)
    }
}

impl TryFrom<String> for InterfaceName {
    type Error = EmptyInterfaceName;

    fn try_from(name: String) -> Result<Self, Self::Error> {
        Self::new(name)
    }
}

impl PartialEq<str> for InterfaceName {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for InterfaceName {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

/// The exact identity of an interface: the canonical path of its scope Object plus its name.
///
/// Two references are the same interface exactly when both parts are equal, so the same name
/// under two scopes is two interfaces. The type orders and hashes, so it keys maps directly.
///
/// ```
/// use wip_model::{InterfaceName, InterfaceReference, Path};
///
/// let read = InterfaceReference::new(Path::new("/github")?, InterfaceName::new("issue.read")?);
/// assert_eq!(read.scope(), "/github");
/// assert_eq!(read.name(), "issue.read");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct InterfaceReference {
    scope: Path,
    name: InterfaceName,
}

impl InterfaceReference {
    /// Pairs a scope path with a name.
    pub fn new(scope: Path, name: InterfaceName) -> Self {
        Self { scope, name }
    }

    /// The path of the scope Object.
    pub fn scope(&self) -> &Path {
        &self.scope
    }

    /// The local name.
    pub fn name(&self) -> &InterfaceName {
        &self.name
    }

    /// Whether an object at `path` may expose this interface: the scope is `path` or an ancestor.
    pub fn is_in_scope_for(&self, path: &Path) -> bool {
        self.scope.is_ancestor_or_self_of(path)
    }

    /// Splits the reference into its parts.
    pub fn into_parts(self) -> (Path, InterfaceName) {
        (self.scope, self.name)
    }
}

impl fmt::Debug for InterfaceReference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InterfaceReference")
            .field("scope", &self.scope)
            .field("name", &self.name)
            .finish()
    }
}

macro_rules! opaque_string {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        ///
        /// Strings of up to 15 bytes are kept inline without an allocation of their own, and
        /// the type, with or without an `Option` around it, is 16 bytes.
        #[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(SmallText);

        impl $name {
            /// Wraps the opaque string; any string, including `""`, is valid.
            pub fn new(value: impl Into<String>) -> Self {
                Self(SmallText::from_string(value.into()))
            }

            pub(crate) fn from_small(value: SmallText) -> Self {
                Self(value)
            }

            /// The string as it travels on the wire.
            pub fn as_str(&self) -> &str {
                self.0.as_str()
            }

            /// The owned string.
            pub fn into_string(self) -> String {
                self.0.into_string()
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({:?})", stringify!($name), self.as_str())
            }
        }
    };
}

opaque_string!(
    /// The opaque `ref` of an Object: an identity valid within one client-facing Worldspace.
    ///
    /// It is never a path and no interaction fetches an object by it.
    ObjectRef
);

opaque_string!(
    /// The opaque `scope_ref` of a fetch response: a copy of the scope Object's `ref`, sent back
    /// with calls so the Host can check that the scope Object is still the same one.
    ///
    /// It is not part of interface identity.
    ScopeRef
);

/// Opaque validator bytes: a precondition on the state a client observed (zero bytes allowed).
///
/// On the wire a validator is canonical padded base64. Validators of up to 15 bytes are kept
/// inline without an allocation of their own, and the type, with or without an `Option` around
/// it, is 16 bytes.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Validator(SmallBytes);

impl Validator {
    /// Wraps the bytes.
    pub fn new(bytes: impl Into<Vec<u8>>) -> Self {
        Self(SmallBytes::from_vec(bytes.into()))
    }

    pub(crate) fn from_small(bytes: SmallBytes) -> Self {
        Self(bytes)
    }

    /// The raw bytes.
    pub fn as_bytes(&self) -> &[u8] {
        self.0.as_slice()
    }

    /// The owned bytes.
    pub fn into_bytes(self) -> Vec<u8> {
        self.0.into_vec()
    }
}

impl fmt::Debug for Validator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Validator({})",
            crate::codec::base64_encode(self.as_bytes())
        )
    }
}
