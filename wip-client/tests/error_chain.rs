//! The client's errors say their own layer and leave the cause to `source()`, so that
//! `ErrorChain` shows every layer once.

use std::error::Error;

use wip_client::{CallError, ClientError, HttpTransportError, TransportError};
use wip_model::ErrorChain;
use wip_model::codec::EncodeError;
use wip_model::validate::{ValidationError, ValidationErrorKind};

fn encode_error() -> EncodeError {
    EncodeError::Invalid(ValidationError::new(ValidationErrorKind::TypeMismatch {
        expected: "a number",
        found: "an integer",
    }))
}

/// `error` says `own` alone; its source's chain follows it once in the error's chain.
fn check_layered(error: &(dyn Error + 'static), own: &str) {
    let source = ErrorChain(error.source().expect("a source")).to_string();
    assert_eq!(error.to_string(), own);
    assert!(!own.contains(&source), "{own:?} repeats {source:?}");
    let chain = ErrorChain(error).to_string();
    assert_eq!(chain, format!("{own}: {source}"));
    assert_eq!(chain.matches(&source).count(), 1, "{chain}");
}

#[test]
fn a_request_that_could_not_be_encoded_names_the_encoder_s_fault_once() {
    let error = TransportError::Encode(encode_error());
    check_layered(&error, "request could not be encoded");
    assert_eq!(
        ErrorChain(&error).to_string(),
        "request could not be encoded: invalid value: expected a number, found an integer"
    );
}

#[test]
fn a_tls_configuration_error_leaves_rustls_text_to_its_source() {
    let error = HttpTransportError::Tls(rustls::Error::General("no usable cipher".into()));
    check_layered(&error, "tls configuration");
}

#[test]
fn a_call_not_sent_or_not_prepared_says_so_and_chains_its_cause() {
    check_layered(
        &CallError::NotSent(TransportError::Encode(encode_error())),
        "call not sent",
    );
    check_layered(
        &CallError::Prepare(ClientError::Abandoned),
        "could not prepare the call",
    );
    // A retrieval's transport failure is shown as that failure, its own cause after it.
    let error = CallError::Prepare(ClientError::Transport(TransportError::Encode(
        encode_error(),
    )));
    assert_eq!(
        ErrorChain(&error).to_string(),
        "could not prepare the call: request could not be encoded: invalid value: expected a \
         number, found an integer"
    );
}
