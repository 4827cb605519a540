//! The error envelope `{"error": {"code", "message"}}`, and response bodies that may be either
//! a success body or an envelope.

use std::borrow::Cow;

use super::decoder::{Decoder, Read, required};
use crate::codec::error::DecodeError;
use crate::codec::names::names;
use crate::error_code::{ProtocolError, ProtocolErrorCode, ProtocolInteraction};
use crate::interaction::ProtocolResult;
use crate::validate::Segment;

/// `{ error: { code, message } }`, the code checked against the interaction.
pub(crate) fn error_envelope(
    d: &mut Decoder<'_>,
    interaction: ProtocolInteraction,
) -> Read<ProtocolError> {
    d.open_object("an error envelope object")?;
    let mut error = None;
    d.members(names!["error"], None, |d, _| {
        error = Some(error_body(d, interaction)?);
        Ok(())
    })?;
    required(error, "error")
}

/// `{ code, message }`.
fn error_body(d: &mut Decoder<'_>, interaction: ProtocolInteraction) -> Read<ProtocolError> {
    d.open_object("an error object")?;
    let (mut code, mut message) = (None, None);
    d.members(names!["code", "message"], None, |d, index| {
        match index {
            0 => code = Some(d.owned_text()?),
            _ => message = Some(d.owned_text()?),
        }
        Ok(())
    })?;
    let code = required(code, "code")?;
    let message = required(message, "message")?;
    let Some(code) = ProtocolErrorCode::from_wire(&code) else {
        return Err(DecodeError::UnknownErrorCode { code }.into());
    };
    if !code.is_allowed_for(interaction) {
        return Err(DecodeError::DisallowedErrorCode { code, interaction }.into());
    }
    Ok(ProtocolError { code, message })
}

/// A response body that is either a success body or an error envelope: an object whose only
/// member is `error`. `success` reads the members of a success body after its first member name;
/// `first_required` names the member an empty object is missing.
pub(crate) fn result<'a, T>(
    d: &mut Decoder<'a>,
    interaction: ProtocolInteraction,
    first_required: &'static str,
    success: impl FnOnce(&mut Decoder<'a>, Option<Cow<'a, str>>) -> Read<T>,
) -> Read<ProtocolResult<T>> {
    d.open_object("a response object")?;
    let first = d.json.next_key()?;
    match first.as_deref() {
        // `{}`: the object is closed already; its first required member is missing.
        None => required(None, first_required),
        Some("error") => {
            let error = error_body(d, interaction)
                .map_err(|error| error.within(Segment::member("error")))?;
            if d.json.next_key()?.is_some() {
                // Not an envelope after all, and a success body has no `error` member.
                return Err(DecodeError::unknown_member("error"));
            }
            Ok(ProtocolResult::Failure(error))
        }
        Some(_) => success(d, first).map(ProtocolResult::Success),
    }
}
