//! Writing the reference notation: components quoted exactly when spec 4.2 requires it.

use std::fmt;

use wip_model::{InterfaceReference, Path};

use crate::escape::{Escaping, write_quoted};

/// Which components of a notation are double-quoted.
///
/// Either choice reads back to the same components; quoting changes the display, never the value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Quoting {
    /// Quote a component only when it must be: a scope unless it wholly matches
    /// `[A-Za-z0-9_./-]+`, a name unless it wholly matches `[A-Za-z0-9_.-]+`.
    #[default]
    Minimal,
    /// Quote every component, including simple ones such as `"/github"`.
    All,
}

/// Writes the complete interface notation, such as `/github::issue.read`.
///
/// ```
/// use wip_model::{InterfaceName, InterfaceReference, Path};
/// use wip_refs::{Quoting, write_interface_ref};
///
/// let reference = InterfaceReference::new(Path::new("/開発")?, InterfaceName::new("issue.read")?);
/// let mut out = String::new();
/// write_interface_ref(&mut out, &reference, Quoting::Minimal)?;
/// assert_eq!(out, r#""/開発"::issue.read"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_interface_ref<W: fmt::Write + ?Sized>(
    out: &mut W,
    reference: &InterfaceReference,
    quoting: Quoting,
) -> fmt::Result {
    write_scope(out, reference.scope(), quoting)?;
    out.write_str("::")?;
    write_name(out, reference.name().as_str(), quoting)
}

/// Writes the complete operation notation, such as `/github::issue.read#read`.
///
/// ```
/// use wip_model::{InterfaceName, InterfaceReference, Path};
/// use wip_refs::{Quoting, write_operation_ref};
///
/// let reference = InterfaceReference::new(Path::root(), InterfaceName::new("issue.read")?);
/// let mut out = String::new();
/// write_operation_ref(&mut out, &reference, "read#raw", Quoting::Minimal)?;
/// assert_eq!(out, r#"/::issue.read#"read#raw""#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_operation_ref<W: fmt::Write + ?Sized>(
    out: &mut W,
    reference: &InterfaceReference,
    operation: &str,
    quoting: Quoting,
) -> fmt::Result {
    write_interface_ref(out, reference, quoting)?;
    out.write_char('#')?;
    write_name(out, operation, quoting)
}

/// Writes the interface notation for a reader who already knows the scope `context`.
///
/// The scope is left out (`issue.read`) exactly when it equals `context`; any other reference gets
/// the complete notation, so the output never depends on a guess. A reader must be told `context`
/// separately: the short form is not the root scope.
///
/// ```
/// use wip_model::{InterfaceName, InterfaceReference, Path};
/// use wip_refs::{Quoting, write_interface_ref_in_context};
///
/// let github = Path::new("/github")?;
/// let reference = InterfaceReference::new(github.clone(), InterfaceName::new("issue.read")?);
/// let mut short = String::new();
/// write_interface_ref_in_context(&mut short, &reference, &github, Quoting::Minimal)?;
/// assert_eq!(short, "issue.read");
///
/// let mut complete = String::new();
/// write_interface_ref_in_context(&mut complete, &reference, &Path::root(), Quoting::Minimal)?;
/// assert_eq!(complete, "/github::issue.read");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_interface_ref_in_context<W: fmt::Write + ?Sized>(
    out: &mut W,
    reference: &InterfaceReference,
    context: &Path,
    quoting: Quoting,
) -> fmt::Result {
    if reference.scope() != context {
        return write_interface_ref(out, reference, quoting);
    }
    write_name(out, reference.name().as_str(), quoting)
}

/// Writes the operation notation for a reader who already knows the scope `context`.
///
/// As [`write_interface_ref_in_context`]: `issue.read#read` when the scope equals `context`, the
/// complete notation otherwise.
pub fn write_operation_ref_in_context<W: fmt::Write + ?Sized>(
    out: &mut W,
    reference: &InterfaceReference,
    operation: &str,
    context: &Path,
    quoting: Quoting,
) -> fmt::Result {
    write_interface_ref_in_context(out, reference, context, quoting)?;
    out.write_char('#')?;
    write_name(out, operation, quoting)
}

/// Writes an interface reference as it appears inside an Object or Interface signature: the
/// complete minimal notation, quoted as a whole with the safe escape.
///
/// The component quoting and the outer quoting are separate layers (spec 4.2 Signature内の参照):
/// the quotes around a component are escaped like any other character.
///
/// ```
/// use wip_model::{InterfaceName, InterfaceReference, Path};
///
/// let reference = InterfaceReference::new(Path::new("/github")?, InterfaceName::new("issue#read")?);
/// let mut out = String::new();
/// wip_refs::write_signature_ref(&mut out, &reference)?;
/// assert_eq!(out, r#""/github::\"issue#read\"""#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_signature_ref<W: fmt::Write + ?Sized>(
    out: &mut W,
    reference: &InterfaceReference,
) -> fmt::Result {
    out.write_char('"')?;
    write_interface_ref(&mut Escaping(out), reference, Quoting::Minimal)?;
    out.write_char('"')
}

/// Displays an interface reference in the notation, complete unless a context scope is stated.
///
/// ```
/// use wip_model::{InterfaceName, InterfaceReference, Path};
/// use wip_refs::{InterfaceNotation, Quoting};
///
/// let reference = InterfaceReference::new(Path::new("/github")?, InterfaceName::new("issue.read")?);
/// let notation = InterfaceNotation::new(&reference);
/// assert_eq!(notation.to_string(), "/github::issue.read");
/// assert_eq!(notation.quoting(Quoting::All).to_string(), r#""/github"::"issue.read""#);
/// assert_eq!(notation.in_context(reference.scope()).to_string(), "issue.read");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct InterfaceNotation<'a> {
    reference: &'a InterfaceReference,
    quoting: Quoting,
    context: Option<&'a Path>,
}

impl<'a> InterfaceNotation<'a> {
    /// The complete notation of `reference` with [`Quoting::Minimal`].
    pub fn new(reference: &'a InterfaceReference) -> Self {
        Self {
            reference,
            quoting: Quoting::Minimal,
            context: None,
        }
    }

    /// The same notation with `quoting`.
    #[must_use]
    pub fn quoting(self, quoting: Quoting) -> Self {
        Self { quoting, ..self }
    }

    /// The same notation for a reader who knows the scope `context`: the scope is left out when
    /// it equals `context` (see [`write_interface_ref_in_context`]).
    #[must_use]
    pub fn in_context(self, context: &'a Path) -> Self {
        Self {
            context: Some(context),
            ..self
        }
    }
}

impl fmt::Display for InterfaceNotation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.context {
            Some(context) => {
                write_interface_ref_in_context(f, self.reference, context, self.quoting)
            }
            None => write_interface_ref(f, self.reference, self.quoting),
        }
    }
}

/// Displays an operation of an interface in the notation, complete unless a context scope is
/// stated.
///
/// ```
/// use wip_model::{InterfaceName, InterfaceReference, Path};
/// use wip_refs::OperationNotation;
///
/// let reference = InterfaceReference::new(Path::new("/github")?, InterfaceName::new("issue.read")?);
/// let notation = OperationNotation::new(&reference, "read");
/// assert_eq!(notation.to_string(), "/github::issue.read#read");
/// assert_eq!(notation.in_context(reference.scope()).to_string(), "issue.read#read");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct OperationNotation<'a> {
    reference: &'a InterfaceReference,
    operation: &'a str,
    quoting: Quoting,
    context: Option<&'a Path>,
}

impl<'a> OperationNotation<'a> {
    /// The complete notation of `operation` of `reference` with [`Quoting::Minimal`].
    pub fn new(reference: &'a InterfaceReference, operation: &'a str) -> Self {
        Self {
            reference,
            operation,
            quoting: Quoting::Minimal,
            context: None,
        }
    }

    /// The same notation with `quoting`.
    #[must_use]
    pub fn quoting(self, quoting: Quoting) -> Self {
        Self { quoting, ..self }
    }

    /// The same notation for a reader who knows the scope `context`: the scope is left out when
    /// it equals `context` (see [`write_operation_ref_in_context`]).
    #[must_use]
    pub fn in_context(self, context: &'a Path) -> Self {
        Self {
            context: Some(context),
            ..self
        }
    }
}

impl fmt::Display for OperationNotation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.context {
            Some(context) => write_operation_ref_in_context(
                f,
                self.reference,
                self.operation,
                context,
                self.quoting,
            ),
            None => write_operation_ref(f, self.reference, self.operation, self.quoting),
        }
    }
}

/// Displays an interface reference as inside a signature, like [`write_signature_ref`].
///
/// ```
/// use wip_model::{InterfaceName, InterfaceReference, Path};
/// use wip_refs::SignatureRef;
///
/// let reference = InterfaceReference::new(Path::root(), InterfaceName::new("issue.read")?);
/// assert_eq!(SignatureRef(&reference).to_string(), r#""/::issue.read""#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct SignatureRef<'a>(pub &'a InterfaceReference);

impl fmt::Display for SignatureRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_signature_ref(f, self.0)
    }
}

/// Whether a scope may be written without quotes: it wholly matches `[A-Za-z0-9_./-]+`.
pub(crate) fn is_bare_scope(scope: &str) -> bool {
    !scope.is_empty() && scope.bytes().all(is_bare_scope_byte)
}

/// Whether an interface or operation name may be written without quotes: it wholly matches
/// `[A-Za-z0-9_.-]+`.
pub(crate) fn is_bare_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(is_bare_name_byte)
}

pub(crate) fn is_bare_scope_byte(byte: u8) -> bool {
    byte == b'/' || is_bare_name_byte(byte)
}

pub(crate) fn is_bare_name_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'.' | b'-')
}

pub(crate) fn write_scope<W: fmt::Write + ?Sized>(
    out: &mut W,
    scope: &Path,
    quoting: Quoting,
) -> fmt::Result {
    let scope = scope.as_str();
    if quoting == Quoting::Minimal && is_bare_scope(scope) {
        return out.write_str(scope);
    }
    write_quoted(out, scope)
}

pub(crate) fn write_name<W: fmt::Write + ?Sized>(
    out: &mut W,
    name: &str,
    quoting: Quoting,
) -> fmt::Result {
    if quoting == Quoting::Minimal && is_bare_name(name) {
        return out.write_str(name);
    }
    write_quoted(out, name)
}
