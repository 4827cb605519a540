//! Who may reach `wip mcp --listen`, one of three ways: anyone who reaches a loopback port
//! (no token), the holder of a token of `--auth-token-file` ([`tokens`](super::tokens)), or
//! the subject of an access token of `--oauth-issuer` ([`oauth`](super::oauth)).

use std::sync::Arc;

use hyper::header::HeaderValue;
use hyper::{Request, Response};

use crate::mcp::oauth::{Grant, Resource};
use crate::mcp::principal::Principal;
use crate::mcp::response::{Body, unauthorized};
use crate::mcp::tokens::Tokens;

/// How requests are let in.
pub(crate) enum Guard {
    /// No token: the listener is everyone's principal (loopback only).
    Open,
    /// One of the tokens of `--auth-token-file`.
    Tokens(Tokens),
    /// An access token of `--oauth-issuer` for `--resource`.
    OAuth(Arc<Resource>),
}

/// A request let in: whom it acts for, and, with OAuth, what its token grants.
pub(crate) struct Admitted {
    pub(crate) principal: Principal,
    pub(crate) grant: Option<Grant>,
}

impl Guard {
    /// Whether requests carry a token.
    pub(crate) fn asks_for_a_token(&self) -> bool {
        !matches!(self, Self::Open)
    }

    /// Lets in a request with `authorization` (its `Authorization` header), or answers why not.
    pub(crate) async fn admit(
        &self,
        authorization: Option<&HeaderValue>,
    ) -> Result<Admitted, Response<Body>> {
        match self {
            Self::Open => Ok(Admitted {
                principal: Principal::listener(),
                grant: None,
            }),
            Self::Tokens(tokens) => match tokens.principal(authorization) {
                Some(principal) => Ok(Admitted {
                    principal,
                    grant: None,
                }),
                None => Err(unauthorized()),
            },
            Self::OAuth(resource) => {
                let grant = resource.admit(authorization).await?;
                Ok(Admitted {
                    principal: grant.principal.clone(),
                    grant: Some(grant),
                })
            }
        }
    }

    /// The answer to a request for the resource's metadata, served without a token.
    pub(crate) fn metadata<B>(&self, request: &Request<B>) -> Option<Response<Body>> {
        match self {
            Self::OAuth(resource) => resource.metadata(request),
            _ => None,
        }
    }

    /// The answer to a request of `admitted` whose body `body` its token does not cover.
    pub(crate) fn beyond_scope(&self, admitted: &Admitted, body: &[u8]) -> Option<Response<Body>> {
        match (self, &admitted.grant) {
            (Self::OAuth(resource), Some(grant)) => resource.beyond_scope(grant, body),
            _ => None,
        }
    }
}
