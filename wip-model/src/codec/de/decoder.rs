//! The decoder core every reader of the wire format shares: [`Decoder`] over one body, its
//! typed reads (strings, paths, names, base64, members, arrays), and [`decode_body`], which runs
//! one reader over a whole body within the limits.

use std::borrow::Cow;
use std::collections::HashMap;

use super::carried;
use crate::codec::base64::{base64_decode, base64_decode_small};
use crate::codec::error::{DecodeError, Fault};
use crate::codec::limits::{Limits, Side};
use crate::codec::names::Names;
use crate::codec::reader::{Kind, Reader};
use crate::ids::{InterfaceName, Validator};
use crate::object::ObjectObservation;
use crate::path::Path;
use crate::small::{SmallString, SmallText};
use crate::text::Str;
use crate::validate::{Segment, ValidationErrorKind};

pub(crate) type Read<T> = Result<T, Fault>;

/// The reader of one body, with the shared strings it has handed out recently.
pub(crate) struct Decoder<'a> {
    pub(crate) json: Reader<'a>,
    /// Recent scope paths and interface names, carried over from the last body decoded on
    /// this thread; `None` only while being dropped.
    shared: Option<Box<carried::Shared>>,
    /// Where skipped union objects keep their `$case` value, by the position after their `{`
    /// (see `value::union`).
    pub(crate) union_cases: HashMap<usize, usize>,
}

impl<'a> Decoder<'a> {
    /// A decoder of `body`, starting with the shared strings the last decoder on this thread
    /// left ([`carried`]).
    pub(crate) fn new(body: &'a [u8], limits: &Limits) -> Read<Self> {
        let json = Reader::new(body, limits.nesting())?;
        Ok(Self {
            json,
            shared: Some(carried::take()),
            union_cases: HashMap::new(),
        })
    }

    /// A shape error for a value of the wrong type, naming the type found. The value is read
    /// through first, so that a malformed one is reported as the syntax error it is.
    pub(crate) fn wrong<T>(&mut self, expected: &'static str) -> Read<T> {
        let found = self.json.peek()?.described();
        self.json.skip(true)?;
        Err(DecodeError::mismatch(expected, found))
    }

    /// The type of the next value.
    pub(crate) fn peek(&mut self) -> Read<Kind> {
        self.json.peek()
    }

    /// Opens the next value as an object, or reports that it is something else.
    pub(crate) fn open_object(&mut self, expected: &'static str) -> Read<()> {
        if self.json.peek_byte() != Some(b'{') {
            return self.wrong(expected);
        }
        self.json.begin_object()
    }

    /// Opens the next value as an array, or reports that it is something else.
    pub(crate) fn open_array(&mut self, expected: &'static str) -> Read<()> {
        if self.json.peek_byte() != Some(b'[') {
            return self.wrong(expected);
        }
        self.json.begin_array()
    }

    /// A string value.
    pub(crate) fn text(&mut self) -> Read<Cow<'a, str>> {
        if self.json.peek()? != Kind::String {
            return self.wrong("a string");
        }
        self.json.string()
    }

    /// A string value, owned.
    pub(crate) fn owned_text(&mut self) -> Read<String> {
        self.text().map(Cow::into_owned)
    }

    /// A string value as a [`Str`].
    pub(crate) fn str_text(&mut self) -> Read<Str> {
        self.small_text().map(Str::from_small)
    }

    /// A string value, kept inline when short.
    pub(crate) fn small_text(&mut self) -> Read<SmallString> {
        if self.json.peek()? != Kind::String {
            return self.wrong("a string");
        }
        self.json.small_string()
    }

    /// A string value as the opaque refs keep it.
    pub(crate) fn ref_text(&mut self) -> Read<SmallText> {
        Ok(match self.text()? {
            Cow::Borrowed(text) => SmallText::from_str(text),
            Cow::Owned(text) => SmallText::from_string(text),
        })
    }

    /// A boolean value.
    pub(crate) fn flag(&mut self) -> Read<bool> {
        if self.json.peek()? != Kind::Boolean {
            return self.wrong("a boolean");
        }
        self.json.boolean()
    }

    fn shared(&mut self) -> &mut carried::Shared {
        self.shared.get_or_insert_with(Box::default)
    }

    /// A string holding a canonical absolute path.
    pub(crate) fn path(&mut self) -> Read<Path> {
        let text = self.text()?;
        self.shared()
            .paths
            .get_or_insert(&text, |text| Path::new(text))
            .map_err(|error| DecodeError::invalid(ValidationErrorKind::InvalidPath(error)))
    }

    /// A string holding a non-empty interface name.
    pub(crate) fn interface_name(&mut self) -> Read<InterfaceName> {
        let text = self.text()?;
        self.shared()
            .names
            .get_or_insert(&text, |text| InterfaceName::new(text))
            .map_err(|_| DecodeError::invalid(ValidationErrorKind::EmptyInterfaceName))
    }

    /// A string holding canonical base64.
    pub(crate) fn base64(&mut self) -> Read<Vec<u8>> {
        let text = self.text()?;
        base64_decode(&text).ok_or_else(|| DecodeError::invalid(ValidationErrorKind::InvalidBase64))
    }

    /// A validator: a string holding canonical base64.
    pub(crate) fn validator(&mut self) -> Read<Validator> {
        let text = self.text()?;
        base64_decode_small(&text)
            .map(Validator::from_small)
            .ok_or_else(|| DecodeError::invalid(ValidationErrorKind::InvalidBase64))
    }

    /// An optional member's value: present means a value, `null` is refused.
    pub(crate) fn optional<T>(
        &mut self,
        read: impl FnOnce(&mut Self) -> Read<T>,
    ) -> Read<Option<T>> {
        if self.json.peek()? == Kind::Null {
            return Err(DecodeError::invalid(
                ValidationErrorKind::NullOptionalMember,
            ));
        }
        read(self).map(Some)
    }

    /// Reads the members of a fixed-shape object, already opened: only the names in `names`,
    /// each at most once. `on_member` gets the member's index in `names` and reads its value.
    /// `first` is a member name the caller has already read, if any.
    pub(crate) fn members(
        &mut self,
        names: &'static Names,
        first: Option<Cow<'a, str>>,
        mut on_member: impl FnMut(&mut Self, usize) -> Read<()>,
    ) -> Read<()> {
        let mut seen = 0u64;
        let mut next = match first {
            Some(name) => match names.position(&name) {
                Some(index) => Some(names.found(index)),
                None => {
                    return Err(DecodeError::unknown_member(&name));
                }
            },
            None => None,
        };
        let mut guess = names.first_guess();
        loop {
            let found = match next.take() {
                Some(found) => found,
                None => match self.json.next_member(names, guess)? {
                    Some(found) => found,
                    None => return Ok(()),
                },
            };
            let index = found.index;
            guess = found.next;
            let bit = 1u64 << index;
            if seen & bit != 0 {
                return Err(DecodeError::duplicate(names.name(index)));
            }
            seen |= bit;
            on_member(self, index)
                .map_err(|error| error.within(Segment::member(names.name(index))))?;
        }
    }

    /// Reads an array of observations, already opened, item by item, into a vector of exactly
    /// its length.
    ///
    /// The vector grows as the array is read and is shrunk once at its end into a boxed slice.
    /// The system allocator shrinks a large allocation in place (glibc remaps it), so the peak
    /// for a wide array is the grown vector alone, not that and a copy at once.
    pub(crate) fn observations(
        &mut self,
        mut item: impl FnMut(&mut Self) -> Read<ObjectObservation>,
    ) -> Read<Box<[ObjectObservation]>> {
        let mut children = Vec::new();
        while self.json.next_item()? {
            let child = item(self).map_err(|error| error.within(Segment::Index(children.len())))?;
            children.push(child);
        }
        Ok(children.into_boxed_slice())
    }

    /// Reads an array, already opened, item by item.
    pub(crate) fn items<T>(&mut self, mut item: impl FnMut(&mut Self) -> Read<T>) -> Read<Vec<T>> {
        let mut out = Vec::new();
        while self.json.next_item()? {
            let index = out.len();
            out.push(item(self).map_err(|error| error.within(Segment::Index(index)))?);
        }
        Ok(out)
    }
}

/// Unwraps a required member or reports it missing.
#[inline(always)]
pub(crate) fn required<T>(value: Option<T>, name: &'static str) -> Read<T> {
    match value {
        Some(value) => Ok(value),
        None => Err(missing(name)),
    }
}

#[cold]
fn missing(name: &'static str) -> Fault {
    DecodeError::invalid(ValidationErrorKind::MissingMember {
        name: name.to_owned(),
    })
}

/// Decodes a whole body with `read`: the byte limit first, then one pass of the reader, then
/// nothing but whitespace after the value.
pub(crate) fn decode_body<'a, T>(
    body: &'a [u8],
    side: Side,
    limits: &Limits,
    read: impl FnOnce(&mut Decoder<'a>) -> Read<T>,
) -> Result<T, DecodeError> {
    decode_boxed(body, side, limits, read).map_err(|fault| *fault.0)
}

fn decode_boxed<'a, T>(
    body: &'a [u8],
    side: Side,
    limits: &Limits,
    read: impl FnOnce(&mut Decoder<'a>) -> Read<T>,
) -> Read<T> {
    let maximum = side.max_bytes(limits);
    if body.len() > maximum {
        return Err(Fault::from(DecodeError::BodyTooLarge {
            actual: body.len(),
            maximum,
        }));
    }
    let mut decoder = Decoder::new(body, limits)?;
    let value = read(&mut decoder)?;
    decoder.json.finish()?;
    Ok(value)
}

impl Drop for Decoder<'_> {
    /// Leaves the shared strings to the next decoder on this thread, whatever the outcome: they
    /// were all made from valid text.
    fn drop(&mut self) {
        if let Some(shared) = self.shared.take() {
            carried::keep(shared);
        }
    }
}
