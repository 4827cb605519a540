//! Errors shown with their causes.

use std::error::Error;
use std::fmt;

/// An error and each of its sources in one line, outermost first, separated by `: `.
///
/// The errors of these crates say only their own layer in their message and keep the cause in
/// [`Error::source`], so `{error}` alone leaves the cause out and a chain printer shows each
/// layer once. Wherever an error is shown to a person or a model, show it through this.
///
/// ```
/// use wip_model::{ErrorChain, TypeExpr, Value, json};
/// use wip_model::codec::decode_descriptor;
///
/// let descriptor =
///     decode_descriptor(br#"{"format":"wip-interface/1","types":[],"operations":[]}"#, &Default::default())?;
/// let error = json::value_to_json(&descriptor, &TypeExpr::Number, &Value::Integer(2))
///     .expect_err("an integer is not a number");
/// assert_eq!(error.to_string(), "invalid value");
/// assert_eq!(
///     ErrorChain(&error).to_string(),
///     "invalid value: expected a number, found an integer"
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct ErrorChain<'a>(pub &'a (dyn Error + 'static));

impl fmt::Display for ErrorChain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.0, f)?;
        let mut source = self.0.source();
        while let Some(cause) = source {
            write!(f, ": {cause}")?;
            source = cause.source();
        }
        Ok(())
    }
}
