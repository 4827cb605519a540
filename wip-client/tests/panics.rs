//! A transport that panics inside a retrieval: the request is not polled again after the
//! panic, and every caller, the first and those who joined, is answered as abandoned.
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use async_trait::async_trait;
use wip_client::{Client, ClientError, ClientOptions, Reply, Session, Transport, TransportError};
use wip_model::{
    CallOperationRequest, CallOperationResponse, FetchInterfaceRequest, FetchInterfaceResponse,
    ObjectObservation, ObserveRequest, Path, ValidDescriptor,
};

struct Panicky;

#[async_trait]
impl Transport for Panicky {
    async fn observe(
        &self,
        _: &ObserveRequest,
    ) -> Result<Reply<ObjectObservation>, TransportError> {
        tokio::task::yield_now().await;
        panic!("transport bug");
    }
    async fn fetch_interface(
        &self,
        _: &FetchInterfaceRequest,
    ) -> Result<Reply<FetchInterfaceResponse>, TransportError> {
        unimplemented!()
    }
    async fn call_operation(
        &self,
        _: &CallOperationRequest,
        _: &ValidDescriptor,
    ) -> Result<Reply<CallOperationResponse>, TransportError> {
        unimplemented!()
    }
}

static PANICS: AtomicUsize = AtomicUsize::new(0);

#[tokio::test(flavor = "current_thread")]
async fn a_flight_that_panicked_is_not_polled_again() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        default(info);
    }));
    let session = Session {
        endpoint: "mem:/".into(),
        security_context: "test".into(),
    };
    let client = Client::new(Arc::new(Panicky), session, ClientOptions::default());
    // Alone: the panic ends the flight's own task; its caller is answered.
    let alone = client.observe(&Path::root(), 0).await;
    assert_eq!(alone.unwrap_err(), ClientError::Abandoned);
    for _ in 0..10 {
        tokio::task::yield_now().await;
    }
    assert_eq!(client.with_space(|space| space.in_flight()), 0);
    assert_eq!(
        PANICS.load(Ordering::SeqCst),
        1,
        "the flight was polled again after its panic"
    );
    // With a second caller, who joins the same flight.
    let leader = {
        let client = client.clone();
        tokio::spawn(async move { client.observe(&Path::root(), 0).await })
    };
    let follower = {
        let client = client.clone();
        tokio::spawn(async move { client.observe(&Path::root(), 0).await })
    };
    assert_eq!(leader.await.unwrap().unwrap_err(), ClientError::Abandoned);
    let follower = follower.await.unwrap();
    assert_eq!(follower.unwrap_err(), ClientError::Abandoned);
    for _ in 0..10 {
        tokio::task::yield_now().await;
    }
    assert_eq!(client.with_space(|space| space.in_flight()), 0);
    assert_eq!(
        PANICS.load(Ordering::SeqCst),
        2,
        "the flight that panicked was polled again"
    );
}
