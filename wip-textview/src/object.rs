//! The Object signature (spec 4.2 Object signature): name, description and interface references.

use std::fmt::{self, Write};

use wip_model::{Object, Path};
use wip_refs::{write_quoted, write_signature_ref};

use crate::out::{INDENT, MAX_COLUMNS, Out, Width};

const INTERFACES_OPEN: usize = "  interfaces: [".len();
const INTERFACES_CLOSE: usize = "];".len();
const SEPARATOR: usize = ", ".len();

/// The Object signature: `object at "<path>" { … }`, or `object { … }` when the path the Object
/// was observed at is unknown.
///
/// The block holds exactly the Object's public information, in this order: its `name`, its
/// `description` when it has one (an empty one is shown as `""`), and all of its `interfaces` in
/// the Host's order, each as the complete reference notation quoted as a whole (`[]` when there
/// are none). The Object's ref and validator are not shown; neither are its children, which are
/// not part of an Object.
///
/// The interface list stays on one line while that line fits in 100 columns, and otherwise puts
/// one reference on each line.
///
/// ```
/// use wip_model::{InterfaceName, InterfaceReference, Object, Path};
/// use wip_textview::ObjectSignature;
///
/// let path = Path::new("/issues/123")?;
/// let object = Object {
///     name: "123".into(),
///     description: None,
///     interfaces: vec![InterfaceReference::new(Path::root(), InterfaceName::new("issue.read")?)].into(),
///     object_ref: None,
///     validator: None,
/// };
/// assert_eq!(
///     ObjectSignature::new(&object, Some(&path)).to_string(),
///     "object at \"/issues/123\" {\n  name: \"123\";\n  interfaces: [\"/::issue.read\"];\n}",
/// );
/// assert!(ObjectSignature::new(&object, None).to_string().starts_with("object {\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct ObjectSignature<'a> {
    object: &'a Object,
    path: Option<&'a Path>,
}

impl<'a> ObjectSignature<'a> {
    /// The signature of `object`, observed at `path` when the caller knows it.
    ///
    /// The path is never guessed from the Object's name or ref: pass `None` when it is unknown.
    pub fn new(object: &'a Object, path: Option<&'a Path>) -> Self {
        Self { object, path }
    }

    /// Writes the signature to `out`, without a final line break.
    ///
    /// An error comes only from `out`.
    pub fn write_to<W: Write + ?Sized>(&self, out: &mut W) -> fmt::Result {
        let mut out = Out::new(out, false);
        out.write_str("object")?;
        if let Some(path) = self.path {
            out.write_str(" at ")?;
            write_quoted(&mut out, path.as_str())?;
        }
        out.write_str(" {")?;
        out.newline(INDENT)?;
        out.write_str("name: ")?;
        write_quoted(&mut out, &self.object.name)?;
        out.write_char(';')?;
        if let Some(description) = &self.object.description {
            out.newline(INDENT)?;
            out.write_str("description: ")?;
            write_quoted(&mut out, description)?;
            out.write_char(';')?;
        }
        out.newline(INDENT)?;
        out.write_str("interfaces: ")?;
        self.write_interfaces(&mut out)?;
        out.write_char(';')?;
        out.newline(0)?;
        out.write_char('}')
    }

    fn write_interfaces<W: Write + ?Sized>(&self, out: &mut Out<'_, W>) -> fmt::Result {
        let interfaces = &self.object.interfaces;
        if self.interfaces_fit_on_one_line() {
            out.write_char('[')?;
            for (index, reference) in interfaces.iter().enumerate() {
                if index > 0 {
                    out.write_str(", ")?;
                }
                write_signature_ref(out, reference)?;
            }
            return out.write_char(']');
        }
        out.write_char('[')?;
        for reference in interfaces {
            out.newline(2 * INDENT)?;
            write_signature_ref(out, reference)?;
            out.write_char(',')?;
        }
        out.newline(INDENT)?;
        out.write_char(']')
    }

    fn interfaces_fit_on_one_line(&self) -> bool {
        let interfaces = &self.object.interfaces;
        let mut width = Width(INTERFACES_OPEN + INTERFACES_CLOSE);
        width.0 += SEPARATOR * interfaces.len().saturating_sub(1);
        for reference in interfaces {
            // Counting cannot fail: `Width` never returns an error.
            let _ = write_signature_ref(&mut width, reference);
            if width.0 > MAX_COLUMNS {
                return false;
            }
        }
        true
    }
}

impl fmt::Display for ObjectSignature<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}
