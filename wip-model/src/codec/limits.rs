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
/// tree) and 64 levels of nesting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The most bytes a request body may have.
    pub max_request_bytes: usize,
    /// The most bytes a response body may have.
    pub max_response_bytes: usize,
    /// The deepest nesting of arrays and objects, at most [`MAX_NESTING_CAP`].
    pub max_nesting: usize,
}

/// Why a set of limits cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
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
    /// Checked limits.
    pub fn new(
        max_request_bytes: usize,
        max_response_bytes: usize,
        max_nesting: usize,
    ) -> Result<Self, LimitsError> {
        let limits = Self {
            max_request_bytes,
            max_response_bytes,
            max_nesting,
        };
        limits.check()?;
        Ok(limits)
    }

    /// Checks limits built with a struct literal.
    pub fn check(&self) -> Result<(), LimitsError> {
        if self.max_request_bytes == 0 {
            return Err(LimitsError::ZeroRequestBytes);
        }
        if self.max_response_bytes == 0 {
            return Err(LimitsError::ZeroResponseBytes);
        }
        if self.max_nesting == 0 {
            return Err(LimitsError::ZeroNesting);
        }
        if self.max_nesting > MAX_NESTING_CAP {
            return Err(LimitsError::NestingAboveCap(self.max_nesting));
        }
        Ok(())
    }

    /// The nesting limit in force: `max_nesting`, capped at [`MAX_NESTING_CAP`].
    pub(crate) fn nesting(&self) -> usize {
        self.max_nesting.min(MAX_NESTING_CAP)
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
