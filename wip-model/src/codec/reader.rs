//! A strict pull reader over JSON bytes (RFC 8259), the one pass of every decoder.
//!
//! It accepts exactly what serde_json accepts, and reads numbers the way serde_json does (a
//! non-negative integer as `u64`, a negative one as `i64`, anything else, `-0` and integers too
//! large for 64 bits included, as a correctly rounded `f64`), so our decoders agree with the
//! reference codec on every body. It refuses a leading BOM, leading zeros, control characters
//! and lone surrogates in strings, numbers that overflow `f64`, and anything after the value but
//! whitespace. Strings come back borrowed unless they hold escapes.

use std::borrow::Cow;
use std::collections::HashMap;

use super::error::{DecodeError, Fault};
use super::names::{Found, Names, WINDOW};
use super::scan::plain_run;
use crate::small::SmallString;

type Read<T> = Result<T, Fault>;

/// The type of the next JSON value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Null,
    Boolean,
    Number,
    String,
    Array,
    Object,
}

impl Kind {
    /// How error messages name a value of this type.
    pub(crate) fn described(self) -> &'static str {
        match self {
            Self::Null => "null",
            Self::Boolean => "a boolean",
            Self::Number => "a number",
            Self::String => "a string",
            Self::Array => "an array",
            Self::Object => "an object",
        }
    }
}

/// A JSON number as serde_json classifies it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Number {
    /// A non-negative integer that fits `u64`.
    Unsigned(u64),
    /// A negative integer that fits `i64`.
    Signed(i64),
    /// Anything else: a fraction, an exponent, `-0`, or an integer beyond 64 bits.
    Float(f64),
}

pub(crate) struct Reader<'a> {
    /// The body, checked to be UTF-8 once, so strings are slices of it.
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    depth: usize,
    max_nesting: usize,
    /// Whether the innermost container was just opened, so no `,` comes before its first item.
    fresh: bool,
}

impl<'a> Reader<'a> {
    /// A reader of `body`; a body that is not UTF-8 is refused where it breaks.
    pub(crate) fn new(body: &'a [u8], max_nesting: usize) -> Read<Self> {
        // The SIMD check is several times faster than std's on non-ASCII text; a failure is
        // checked again by the slower variant that knows where the text breaks.
        let text = match simdutf8::basic::from_utf8(body) {
            Ok(text) => text,
            Err(_) => simdutf8::compat::from_utf8(body).map_err(|error| {
                Fault::from(DecodeError::InvalidJson {
                    offset: error.valid_up_to(),
                    reason: "invalid UTF-8",
                })
            })?,
        };
        Ok(Self::from_text(text, max_nesting))
    }

    pub(crate) fn from_text(text: &'a str, max_nesting: usize) -> Self {
        Self {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            depth: 0,
            max_nesting,
            fresh: false,
        }
    }

    /// Where the reader is: its position and nesting, to come back to with [`Self::seek`].
    pub(crate) fn mark(&mut self) -> (usize, usize) {
        self.skip_whitespace();
        (self.pos, self.depth)
    }

    /// Goes back (or forward) to a mark, to read a value kept for later.
    pub(crate) fn seek(&mut self, (pos, depth): (usize, usize)) {
        self.pos = pos;
        self.depth = depth;
        self.fresh = false;
    }

    pub(crate) fn syntax<T>(&self, reason: &'static str) -> Read<T> {
        Err(Fault::from(DecodeError::InvalidJson {
            offset: self.pos,
            reason,
        }))
    }

    #[inline]
    fn skip_whitespace(&mut self) {
        while let Some(&byte) = self.bytes.get(self.pos) {
            if !matches!(byte, b' ' | b'\n' | b'\r' | b'\t') {
                return;
            }
            self.pos += 1;
        }
    }

    /// The next byte past whitespace, not consumed.
    #[inline]
    pub(crate) fn peek_byte(&mut self) -> Option<u8> {
        self.skip_whitespace();
        self.bytes.get(self.pos).copied()
    }

    /// The type of the next value, judged by its first byte.
    #[inline]
    pub(crate) fn peek(&mut self) -> Read<Kind> {
        match self.peek_byte() {
            Some(b'n') => Ok(Kind::Null),
            Some(b't' | b'f') => Ok(Kind::Boolean),
            Some(b'-' | b'0'..=b'9') => Ok(Kind::Number),
            Some(b'"') => Ok(Kind::String),
            Some(b'[') => Ok(Kind::Array),
            Some(b'{') => Ok(Kind::Object),
            Some(_) => self.syntax("expected a JSON value"),
            None => self.syntax("unexpected end of input, expected a JSON value"),
        }
    }

    /// After the value: nothing but whitespace may follow.
    pub(crate) fn finish(&mut self) -> Read<()> {
        match self.peek_byte() {
            None => Ok(()),
            Some(_) => self.syntax("trailing characters after the JSON value"),
        }
    }

    fn literal(&mut self, word: &'static [u8]) -> Read<()> {
        if self.bytes[self.pos..].starts_with(word) {
            self.pos += word.len();
            return self.token_end("invalid literal");
        }
        self.syntax("invalid literal")
    }

    /// A number or literal must be followed by whitespace, a separator or the end, so that
    /// `1.2.3` or `truex` is one bad token rather than a good one and junk.
    #[inline]
    fn token_end(&self, reason: &'static str) -> Read<()> {
        match self.bytes.get(self.pos) {
            None | Some(b' ' | b'\n' | b'\r' | b'\t' | b',' | b']' | b'}') => Ok(()),
            Some(_) => self.syntax(reason),
        }
    }

    pub(crate) fn null(&mut self) -> Read<()> {
        self.peek_byte();
        self.literal(b"null")
    }

    pub(crate) fn boolean(&mut self) -> Read<bool> {
        match self.peek_byte() {
            Some(b't') => self.literal(b"true").map(|()| true),
            Some(b'f') => self.literal(b"false").map(|()| false),
            _ => self.syntax("expected a boolean"),
        }
    }

    #[inline]
    fn open(&mut self, bracket: u8) -> Read<()> {
        if self.peek_byte() != Some(bracket) {
            return self.syntax("expected an object or array");
        }
        self.depth += 1;
        if self.depth > self.max_nesting {
            return Err(Fault::from(DecodeError::NestingTooDeep {
                maximum: self.max_nesting,
            }));
        }
        self.pos += 1;
        self.fresh = true;
        Ok(())
    }

    #[inline]
    fn close(&mut self) {
        self.pos += 1;
        self.depth -= 1;
        self.fresh = false;
    }

    #[inline]
    pub(crate) fn begin_object(&mut self) -> Read<()> {
        self.open(b'{')
    }

    #[inline]
    pub(crate) fn begin_array(&mut self) -> Read<()> {
        self.open(b'[')
    }

    /// Moves to the next member name of the object being read, past a `,` when one is due;
    /// `false` after consuming the object's `}`.
    #[inline]
    fn at_member_name(&mut self) -> Read<bool> {
        let fresh = std::mem::replace(&mut self.fresh, false);
        match self.peek_byte() {
            Some(b'}') => {
                self.close();
                Ok(false)
            }
            Some(b',') if !fresh => {
                self.pos += 1;
                match self.peek_byte() {
                    Some(b'"') => Ok(true),
                    _ => self.syntax("expected a member name after ','"),
                }
            }
            Some(b'"') if fresh => Ok(true),
            None => self.syntax("unexpected end of input inside an object"),
            _ => self.syntax("expected ',' or '}' in an object"),
        }
    }

    /// The next member name of the object being read, or `None` after its `}`.
    pub(crate) fn next_key(&mut self) -> Read<Option<Cow<'a, str>>> {
        if !self.at_member_name()? {
            return Ok(None);
        }
        let key = self.string()?;
        self.member_colon()?;
        Ok(Some(key))
    }

    /// The next member name of the object being read as an index into `names`, or `None` after
    /// its `}`; `guess` is the name expected. A name not in `names` is an unknown-member error
    /// located at that name.
    ///
    /// In compact bodies, plain short names, nearly all of them, are matched in place (see
    /// [`super::names`]) without building a string.
    #[inline(always)]
    pub(crate) fn next_member(&mut self, names: &Names, guess: usize) -> Read<Option<Found>> {
        let quote = match (self.bytes.get(self.pos), self.fresh) {
            (Some(b','), false) => self.pos + 1,
            (Some(b'"'), true) => self.pos,
            (Some(b'}'), _) => {
                self.close();
                return Ok(None);
            }
            _ => return self.next_member_slowly(names),
        };
        let found = match self.bytes.get(quote) {
            Some(b'"') => self.name_at(quote + 1, names, guess),
            _ => None,
        };
        let Some(found) = found else {
            return self.next_member_slowly(names);
        };
        self.fresh = false;
        self.pos = quote + found.len + 2;
        if self.bytes.get(self.pos) == Some(&b':') {
            self.pos += 1;
            return Ok(Some(found));
        }
        self.member_colon().map(|()| Some(found))
    }

    /// A string that is expected to be one of `names`: its number when it is, else the string.
    #[inline]
    pub(crate) fn keyword(&mut self, names: &Names) -> Read<Result<usize, Cow<'a, str>>> {
        if self.peek_byte() == Some(b'"') {
            let start = self.pos + 1;
            if let Some(found) = self.name_at(start, names, 0) {
                self.pos = start + found.len + 1;
                return Ok(Ok(found.index));
            }
        }
        let text = self.string()?;
        Ok(names.position(&text).ok_or(text))
    }

    /// The name of `names` the body spells from `start`, just after an opening quote, closing
    /// quote included, when the packed comparison can tell (see [`Names::find`]).
    #[inline]
    fn name_at(&self, start: usize, names: &Names, guess: usize) -> Option<Found> {
        let window = self.bytes.get(start..start + WINDOW)?;
        names.find(window.try_into().ok()?, guess)
    }

    /// [`Self::next_member`] for any name and any layout.
    #[inline(never)]
    fn next_member_slowly(&mut self, names: &Names) -> Read<Option<Found>> {
        if !self.at_member_name()? {
            return Ok(None);
        }
        let name = self.string()?;
        let Some(index) = names.position(&name) else {
            return Err(DecodeError::unknown_member(&name));
        };
        self.member_colon()?;
        Ok(Some(names.found(index)))
    }

    #[inline]
    fn member_colon(&mut self) -> Read<()> {
        if self.peek_byte() != Some(b':') {
            return self.syntax("expected ':' after a member name");
        }
        self.pos += 1;
        Ok(())
    }

    /// Whether the array being read has another item; consumes its `]` when not.
    #[inline]
    pub(crate) fn next_item(&mut self) -> Read<bool> {
        let fresh = std::mem::replace(&mut self.fresh, false);
        match self.peek_byte() {
            Some(b']') => {
                self.close();
                Ok(false)
            }
            Some(b',') if !fresh => {
                self.pos += 1;
                Ok(true)
            }
            None => self.syntax("unexpected end of input inside an array"),
            Some(_) if fresh => Ok(true),
            Some(_) => self.syntax("expected ',' or ']' in an array"),
        }
    }

    /// A string, borrowed from the body when it has no escapes.
    #[inline]
    pub(crate) fn string(&mut self) -> Read<Cow<'a, str>> {
        match self.scan_string()? {
            Scanned::Plain { start, end } => self.utf8(start, end).map(Cow::Borrowed),
            Scanned::Escaped { start, end } => self.string_with_escapes(start, end).map(Cow::Owned),
        }
    }

    /// A string, kept inline when short: [`Self::string`] without the intermediate borrow.
    #[inline]
    pub(crate) fn small_string(&mut self) -> Read<SmallString> {
        match self.scan_string()? {
            Scanned::Plain { start, end } => SmallString::from_range(self.text, start, end)
                .ok_or_else(|| cut_inside_character(start)),
            Scanned::Escaped { start, end } => self
                .string_with_escapes(start, end)
                .map(SmallString::from_string),
        }
    }

    /// Reads a string up to its closing quote when it has no escapes, or up to the first byte
    /// needing attention when it has.
    #[inline(always)]
    fn scan_string(&mut self) -> Read<Scanned> {
        if self.peek_byte() != Some(b'"') {
            return self.syntax("expected a string");
        }
        let start = self.pos + 1;
        let end = self.scan_plain(start);
        if self.bytes.get(end) == Some(&b'"') {
            self.pos = end + 1;
            return Ok(Scanned::Plain { start, end });
        }
        Ok(Scanned::Escaped { start, end })
    }

    /// The rest of a string from `end`, the first byte of it needing attention, owned.
    #[inline(never)]
    fn string_with_escapes(&mut self, start: usize, end: usize) -> Read<String> {
        let mut owned = String::with_capacity(end - start + 16);
        owned.push_str(self.utf8(start, end)?);
        self.pos = end;
        self.string_tail(&mut owned)?;
        Ok(owned)
    }

    /// The text between two positions next to ASCII bytes, hence on character boundaries.
    #[inline]
    fn utf8(&self, start: usize, end: usize) -> Read<&'a str> {
        self.text
            .get(start..end)
            .ok_or_else(|| cut_inside_character(start))
    }

    /// The end of the run of bytes from `start` that need no attention.
    #[inline]
    fn scan_plain(&self, start: usize) -> usize {
        start + plain_run(&self.bytes[start..])
    }

    /// The rest of a string that holds escapes, from the first byte needing attention.
    fn string_tail(&mut self, out: &mut String) -> Read<()> {
        loop {
            match self.bytes.get(self.pos) {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(());
                }
                Some(b'\\') => {
                    self.pos += 1;
                    self.escape(out)?;
                }
                Some(_) => return self.syntax("control character in a string"),
                None => return self.syntax("unexpected end of input inside a string"),
            }
            let start = self.pos;
            let end = self.scan_plain(start);
            out.push_str(self.utf8(start, end)?);
            self.pos = end;
        }
    }

    fn escape(&mut self, out: &mut String) -> Read<()> {
        let Some(&letter) = self.bytes.get(self.pos) else {
            return self.syntax("unexpected end of input in an escape");
        };
        self.pos += 1;
        let decoded = match letter {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => self.unicode_escape()?,
            _ => return self.syntax("invalid escape"),
        };
        out.push(decoded);
        Ok(())
    }

    fn hex4(&mut self) -> Read<u16> {
        let Some(digits) = self.bytes.get(self.pos..self.pos + 4) else {
            return self.syntax("unexpected end of input in a \\u escape");
        };
        let mut value = 0u16;
        for &digit in digits {
            let nibble = match digit {
                b'0'..=b'9' => digit - b'0',
                b'a'..=b'f' => digit - b'a' + 10,
                b'A'..=b'F' => digit - b'A' + 10,
                _ => return self.syntax("invalid \\u escape"),
            };
            value = value << 4 | u16::from(nibble);
        }
        self.pos += 4;
        Ok(value)
    }

    fn unicode_escape(&mut self) -> Read<char> {
        let first = self.hex4()?;
        let code = match first {
            0xD800..=0xDBFF => {
                if !self.bytes[self.pos..].starts_with(b"\\u") {
                    return self.syntax("lone leading surrogate in a \\u escape");
                }
                self.pos += 2;
                let second = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return self.syntax("lone leading surrogate in a \\u escape");
                }
                0x10000 + ((u32::from(first) - 0xD800) << 10) + (u32::from(second) - 0xDC00)
            }
            0xDC00..=0xDFFF => return self.syntax("lone trailing surrogate in a \\u escape"),
            other => u32::from(other),
        };
        match char::from_u32(code) {
            Some(decoded) => Ok(decoded),
            None => self.syntax("invalid \\u escape"),
        }
    }

    /// A number, classified as serde_json classifies it.
    pub(crate) fn number(&mut self) -> Read<Number> {
        self.peek_byte();
        let start = self.pos;
        let negative = self.bytes.get(self.pos) == Some(&b'-');
        if negative {
            self.pos += 1;
        }
        let mut magnitude: Option<u64> = Some(0);
        match self.bytes.get(self.pos) {
            Some(b'0') => {
                self.pos += 1;
                if matches!(self.bytes.get(self.pos), Some(b'0'..=b'9')) {
                    return self.syntax("leading zero in a number");
                }
            }
            Some(b'1'..=b'9') => {
                while let Some(&digit @ b'0'..=b'9') = self.bytes.get(self.pos) {
                    magnitude = magnitude
                        .and_then(|value| value.checked_mul(10))
                        .and_then(|value| value.checked_add(u64::from(digit - b'0')));
                    self.pos += 1;
                }
            }
            _ => return self.syntax("invalid number"),
        }
        let mut integral = true;
        if self.bytes.get(self.pos) == Some(&b'.') {
            integral = false;
            self.pos += 1;
            self.digits()?;
        }
        if matches!(self.bytes.get(self.pos), Some(b'e' | b'E')) {
            integral = false;
            self.pos += 1;
            if matches!(self.bytes.get(self.pos), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            self.digits()?;
        }
        self.token_end("invalid number")?;
        if integral {
            match (negative, magnitude) {
                (false, Some(value)) => return Ok(Number::Unsigned(value)),
                // serde_json keeps the sign of `-0` by reading it as a float.
                (true, Some(0)) => return Ok(Number::Float(-0.0)),
                (true, Some(value)) if value <= i64::MAX as u64 + 1 => {
                    return Ok(Number::Signed((value as i64).wrapping_neg()));
                }
                _ => {}
            }
        }
        match self.text.get(start..self.pos).unwrap_or("").parse::<f64>() {
            Ok(value) if value.is_finite() => Ok(Number::Float(value)),
            _ => Err(Fault::from(DecodeError::InvalidJson {
                offset: start,
                reason: "number out of range",
            })),
        }
    }

    fn digits(&mut self) -> Read<()> {
        if !matches!(self.bytes.get(self.pos), Some(b'0'..=b'9')) {
            return self.syntax("expected a digit in a number");
        }
        while matches!(self.bytes.get(self.pos), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        Ok(())
    }

    /// Reads past one value of any type, checking its syntax and nesting. With
    /// `refuse_duplicates`, objects inside it must not repeat a member name either.
    pub(crate) fn skip(&mut self, refuse_duplicates: bool) -> Read<()> {
        self.skip_noting(refuse_duplicates, None)
    }

    /// [`Self::skip`], noting for every object inside the value that has a `$case` member where
    /// that member's value starts, keyed by the object's [`Self::position`] after its `{`: a
    /// union read later from these bytes then finds its case without reading ahead again.
    pub(crate) fn skip_noting_cases(&mut self, cases: &mut HashMap<usize, usize>) -> Read<()> {
        #[cfg(test)]
        let start = self.pos;
        let skipped = self.skip_noting(false, Some(cases));
        #[cfg(test)]
        DEFERRED_BYTES.with(|count| count.set(count.get() + (self.pos - start) as u64));
        skipped
    }

    fn skip_noting(
        &mut self,
        refuse_duplicates: bool,
        mut cases: Option<&mut HashMap<usize, usize>>,
    ) -> Read<()> {
        match self.peek()? {
            Kind::Null => self.null(),
            Kind::Boolean => self.boolean().map(drop),
            Kind::Number => self.number().map(drop),
            Kind::String => self.string().map(drop),
            Kind::Array => {
                self.begin_array()?;
                let mut index = 0;
                while self.next_item()? {
                    self.skip_noting(refuse_duplicates, cases.as_deref_mut())
                        .map_err(|error| error.within(crate::validate::Segment::Index(index)))?;
                    index += 1;
                }
                Ok(())
            }
            Kind::Object => {
                self.begin_object()?;
                let start = self.pos;
                let mut seen = std::collections::HashSet::new();
                while let Some(name) = self.next_key()? {
                    if refuse_duplicates && !seen.insert(name.clone()) {
                        return Err(DecodeError::duplicate(&name));
                    }
                    if let Some(cases) = cases.as_deref_mut()
                        && name == crate::value::UNION_CASE_FIELD
                    {
                        let (value_start, _) = self.mark();
                        cases.entry(start).or_insert(value_start);
                    }
                    self.skip_noting(refuse_duplicates, cases.as_deref_mut())
                        .map_err(|error| error.within(crate::validate::Segment::key(&name)))?;
                }
                Ok(())
            }
        }
    }

    /// The byte offset the reader is at, whitespace not skipped: right after `{` when an object
    /// was just opened.
    pub(crate) fn position(&self) -> usize {
        self.pos
    }
}

#[cfg(test)]
thread_local! {
    /// How many bytes values read later were skipped over on this thread, for the complexity
    /// tests.
    pub(crate) static DEFERRED_BYTES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Where a string lies in the body, as [`Reader::scan_string`] found it.
enum Scanned {
    /// A string without escapes: the bytes between its quotes, the closing quote read.
    Plain { start: usize, end: usize },
    /// A string with escapes: from after its opening quote to the first byte needing attention.
    Escaped { start: usize, end: usize },
}

/// A string whose ends do not fall between characters; cannot happen in a body checked to be
/// UTF-8, where strings end next to ASCII quotes, but is reported rather than assumed.
#[cold]
fn cut_inside_character(offset: usize) -> Fault {
    Fault::from(DecodeError::InvalidJson {
        offset,
        reason: "string cut inside a character",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(text: &str) -> Option<Number> {
        let mut reader = Reader::from_text(text, 64);
        let number = reader.number().ok()?;
        reader.finish().ok()?;
        Some(number)
    }

    #[test]
    fn numbers_read_as_serde_json_reads_them() {
        for text in [
            "0",
            "1",
            "-1",
            "-0",
            "1.0",
            "1e2",
            "1E+2",
            "2.5e-3",
            "9007199254740993",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "1e308",
            "123456789012345678901234567890",
        ] {
            let expected: serde_json::Number = serde_json::from_str(text).unwrap();
            let ours = number(text).unwrap();
            let matches = match ours {
                Number::Unsigned(value) => expected.as_u64() == Some(value),
                Number::Signed(value) => expected.as_i64() == Some(value) && !expected.is_u64(),
                Number::Float(value) => {
                    expected.is_f64()
                        && expected.as_f64().map(f64::to_bits) == Some(value.to_bits())
                }
            };
            assert!(matches, "{text}: ours {ours:?}, serde_json {expected:?}");
        }
        for text in [
            "01", "-", "1.", ".5", "1e", "+1", "1e309", "-1e309", "NaN", "0x1",
        ] {
            assert_eq!(number(text), None, "{text}");
        }
    }

    fn string(text: &str) -> Option<String> {
        let mut reader = Reader::from_text(text, 64);
        let value = reader.string().ok()?.into_owned();
        reader.finish().ok()?;
        Some(value)
    }

    #[test]
    fn strings_read_as_serde_json_reads_them() {
        for text in [
            r#""""#,
            r#""plain""#,
            r#""é世界""#,
            r#""a\"b\\c\/d\b\f\n\r\t""#,
            r#""\u00e9\ud83d\ude00""#,
            r#""0123456789abcdef0123456789""#,
            r#""long string with an escape at the end\n""#,
        ] {
            let expected: String = serde_json::from_str(text).unwrap();
            assert_eq!(string(text), Some(expected), "{text}");
        }
        for text in [
            "\"\u{1}\"",
            r#""\ud800""#,
            r#""\udc00""#,
            r#""\ud800\u0041""#,
            r#""\x""#,
            r#""abc"#,
            r#""\u12""#,
        ] {
            assert_eq!(string(text), None, "{text}");
            assert!(serde_json::from_str::<String>(text).is_err(), "{text}");
        }
    }

    #[test]
    fn structure_is_strict() {
        let accepts = |text: &str| {
            let Ok(mut reader) = Reader::new(text.as_bytes(), 127) else {
                return false;
            };
            reader.skip(true).and_then(|()| reader.finish()).is_ok()
        };
        for text in [
            "{}",
            "[]",
            " [1, {\"a\": [true, false, null]}] ",
            "{\"a\":{},\"b\":[]}",
        ] {
            assert!(accepts(text), "{text}");
        }
        for text in [
            "",
            "{",
            "[1,]",
            "{\"a\":1,}",
            "[,1]",
            "{,}",
            "\u{feff}{}",
            "{} x",
            "{\"a\" 1}",
            "[1 2]",
            "{\"a\":1 \"b\":2}",
            "{\"a\":1,\"a\":2}",
            "tru",
            "nul",
        ] {
            assert!(!accepts(text), "{text:?}");
        }
        assert!(Reader::new(b"\"\xff\"", 8).is_err());
    }
}
