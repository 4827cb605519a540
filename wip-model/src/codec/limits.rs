//! Byte and nesting limits of the codec.

/// The largest nesting a JSON body can have here: serde_json refuses 128 levels on its own.
pub const MAX_NESTING_CAP: usize = 127;

/// Bounds on bodies, checked by every encoder and decoder.
///
/// The byte limit is checked on the raw body before any parsing; nesting counts arrays and
/// objects, the top-level container being 1. Exceeding a limit is a local codec error, never the
/// protocol's `resource_limit_exceeded`.
///
/// The defaults are 1 MiB for request bodies, 64 MiB for response bodies (an observe of a large
/// tree) and 64 levels of nesting. The fields are private so that every `Limits` is usable: one
/// comes from [`Limits::new`], which refuses zeros and nesting above [`MAX_NESTING_CAP`], or
/// from [`Limits::default`].
///
/// ```
/// use wip_model::codec::{Limits, LimitsError};
///
/// let limits = Limits::new(64 * 1024, 1 << 20, 32)?;
/// assert_eq!(limits.max_nesting(), 32);
/// assert_eq!(Limits::new(64 * 1024, 1 << 20, 0), Err(LimitsError::ZeroNesting));
/// # Ok::<(), LimitsError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    max_request_bytes: usize,
    max_response_bytes: usize,
    max_nesting: usize,
}

/// Why a set of limits cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LimitsError {
    /// `max_request_bytes` is zero.
    #[error("max_request_bytes must be non-zero")]
    ZeroRequestBytes,
    /// `max_response_bytes` is zero.
    #[error("max_response_bytes must be non-zero")]
    ZeroResponseBytes,
    /// `max_nesting` is zero.
    #[error("max_nesting must be non-zero")]
    ZeroNesting,
    /// `max_nesting` is above [`MAX_NESTING_CAP`].
    #[error("max_nesting {0} is above the cap of {MAX_NESTING_CAP}")]
    NestingAboveCap(usize),
}

impl Limits {
    /// Limits of `max_request_bytes` for request bodies, `max_response_bytes` for response
    /// bodies and `max_nesting` levels of arrays and objects: all non-zero, the nesting at most
    /// [`MAX_NESTING_CAP`].
    pub fn new(
        max_request_bytes: usize,
        max_response_bytes: usize,
        max_nesting: usize,
    ) -> Result<Self, LimitsError> {
        if max_request_bytes == 0 {
            return Err(LimitsError::ZeroRequestBytes);
        }
        if max_response_bytes == 0 {
            return Err(LimitsError::ZeroResponseBytes);
        }
        if max_nesting == 0 {
            return Err(LimitsError::ZeroNesting);
        }
        if max_nesting > MAX_NESTING_CAP {
            return Err(LimitsError::NestingAboveCap(max_nesting));
        }
        Ok(Self {
            max_request_bytes,
            max_response_bytes,
            max_nesting,
        })
    }

    /// The most bytes a request body may have.
    pub fn max_request_bytes(&self) -> usize {
        self.max_request_bytes
    }

    /// The most bytes a response body may have.
    pub fn max_response_bytes(&self) -> usize {
        self.max_response_bytes
    }

    /// The deepest nesting of arrays and objects a body may have, the top-level container
    /// counting as 1.
    pub fn max_nesting(&self) -> usize {
        self.max_nesting
    }

    /// The nesting limit in force.
    pub(crate) fn nesting(&self) -> usize {
        self.max_nesting
    }
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_request_bytes: 1 << 20,
            max_response_bytes: 64 << 20,
            max_nesting: 64,
        }
    }
}

/// Which side of an interaction a body belongs to, for the byte limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    Request,
    Response,
}

impl Side {
    pub(crate) fn max_bytes(self, limits: &Limits) -> usize {
        match self {
            Self::Request => limits.max_request_bytes,
            Self::Response => limits.max_response_bytes,
        }
    }
}
