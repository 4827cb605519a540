//! The decoders: one pass of the [`Reader`] straight into model types.
//!
//! Each piece of the wire format is a function that reads one JSON value from a [`Decoder`] and
//! returns its model value. Errors carry their location, built segment by segment on the way out,
//! so the success path never pays for it.

mod call;
mod carried;
mod descriptor;
mod envelope;
mod members;
mod object;
mod value;

use std::borrow::Cow;
use std::collections::HashMap;

pub(crate) use call::{
    CallResponseShape, arguments, call_metadata, call_request, call_response, call_response_members,
};
pub(crate) use descriptor::descriptor_member;
pub(crate) use envelope::{error_envelope, result};
#[cfg(feature = "serde")]
pub(crate) use object::reference;
pub(crate) use object::{
    FetchResponseParts, Level, fetch_request, fetch_response, fetch_response_members, object,
    observation, observation_members, observe_request,
};
pub(crate) use value::value;

use super::error::{DecodeError, Fault};
use super::limits::{Limits, Side};
use super::names::Names;
use super::reader::{Kind, Reader};
use crate::ids::{InterfaceName, Validator};
use crate::object::ObjectObservation;
use crate::path::Path;
use crate::small::SmallString;
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
        super::base64::base64_decode(&text)
            .ok_or_else(|| DecodeError::invalid(ValidationErrorKind::InvalidBase64))
    }

    /// A validator: a string holding canonical base64.
    pub(crate) fn validator(&mut self) -> Read<Validator> {
        let text = self.text()?;
        super::base64::base64_decode_small(&text)
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
    /// The vector grows as the array is read and is shrunk once at its end. The system
    /// allocator shrinks a large allocation in place (glibc remaps it), so the peak for a wide
    /// array is the grown vector alone, not that and a copy at once.
    pub(crate) fn observations(
        &mut self,
        mut item: impl FnMut(&mut Self) -> Read<ObjectObservation>,
    ) -> Read<Vec<ObjectObservation>> {
        let mut children = Vec::new();
        while self.json.next_item()? {
            let child = item(self).map_err(|error| error.within(Segment::Index(children.len())))?;
            children.push(child);
        }
        children.shrink_to_fit();
        Ok(children)
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

/// A few shared strings seen more than once, handed out again instead of being built anew:
/// bodies repeat a few scopes and interface names many times, and sharing them saves an
/// allocation each.
///
/// A string is kept only on its second sighting (or when its fingerprint matches one seen once,
/// which costs nothing but a slot), so that strings seen once, such as each Object's own path,
/// neither push the repeated ones out nor cost reference-count updates.
pub(crate) struct Recent<T> {
    /// Kept strings with their fingerprints, replaced round-robin.
    entries: Vec<(u64, T)>,
    next: usize,
    /// Fingerprints of strings seen once recently, replaced round-robin.
    seen_once: [u64; RECENT_CAPACITY],
    next_seen: usize,
}

const RECENT_CAPACITY: usize = 8;

impl<T: Clone + AsRef<str>> Recent<T> {
    fn new() -> Self {
        Self {
            entries: Vec::new(),
            next: 0,
            // No string has fingerprint 0: see `fingerprint`.
            seen_once: [0; RECENT_CAPACITY],
            next_seen: 0,
        }
    }

    fn get_or_insert<E>(
        &mut self,
        text: &str,
        make: impl FnOnce(&str) -> Result<T, E>,
    ) -> Result<T, E> {
        let key = fingerprint(text.as_bytes());
        if let Some((_, found)) = self
            .entries
            .iter()
            .find(|(entry_key, entry)| *entry_key == key && entry.as_ref() == text)
        {
            return Ok(found.clone());
        }
        let made = make(text)?;
        if !self.seen_once.contains(&key) {
            self.seen_once[self.next_seen] = key;
            self.next_seen = (self.next_seen + 1) % RECENT_CAPACITY;
        } else if self.entries.len() < RECENT_CAPACITY {
            self.entries.push((key, made.clone()));
        } else {
            self.entries[self.next] = (key, made.clone());
            self.next = (self.next + 1) % RECENT_CAPACITY;
        }
        Ok(made)
    }

    /// Forgets the kept strings longer than `maximum` bytes.
    fn forget_longer_than(&mut self, maximum: usize) {
        self.entries
            .retain(|(_, entry)| entry.as_ref().len() <= maximum);
        if self.next >= self.entries.len() {
            self.next = 0;
        }
    }
}

impl<T: Clone + AsRef<str>> Default for Recent<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// A cheap hash of `bytes` (FxHash's mixing over words), never 0.
fn fingerprint(bytes: &[u8]) -> u64 {
    const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;
    let mix = |hash: u64, word: u64| (hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    let (words, rest) = bytes.as_chunks::<8>();
    let mut hash = mix(0, bytes.len() as u64);
    for word in words {
        hash = mix(hash, u64::from_le_bytes(*word));
    }
    let mut tail = [0; 8];
    tail[..rest.len()].copy_from_slice(rest);
    hash = mix(hash, u64::from_le_bytes(tail));
    hash | 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(recent: &mut Recent<Path>, text: &str) -> Path {
        recent
            .get_or_insert(text, |text| Path::new(text))
            .expect("test paths are canonical")
    }

    fn shared(a: &Path, b: &Path) -> bool {
        std::ptr::eq(a.as_str().as_ptr(), b.as_str().as_ptr())
    }

    #[test]
    fn strings_are_shared_from_their_second_sighting() {
        let mut recent = Recent::new();
        let first = path(&mut recent, "/github");
        let second = path(&mut recent, "/github");
        let third = path(&mut recent, "/github");
        assert!(!shared(&first, &second), "kept only when seen again");
        assert!(shared(&second, &third));
        assert_eq!(first, third);
    }

    #[test]
    fn strings_seen_once_do_not_push_out_repeated_ones() {
        let mut recent = Recent::new();
        path(&mut recent, "/");
        let kept = path(&mut recent, "/");
        for index in 0..100 {
            path(&mut recent, &format!("/item-{index}"));
        }
        assert!(shared(&kept, &path(&mut recent, "/")));
    }

    #[test]
    fn fingerprints_tell_lengths_and_tails_apart() {
        let texts = ["", "/", "/a", "/a/", "/abcdefgh", "/abcdefgi", "/abcdefgh/"];
        for (index, a) in texts.iter().enumerate() {
            assert_ne!(fingerprint(a.as_bytes()), 0);
            for b in &texts[index + 1..] {
                assert_ne!(
                    fingerprint(a.as_bytes()),
                    fingerprint(b.as_bytes()),
                    "{a} {b}"
                );
            }
        }
    }
}
