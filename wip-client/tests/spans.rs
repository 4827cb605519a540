//! The `tracing` spans of each interaction, seen by a layer over tracing-subscriber's registry
//! that records them: observe, fetch_interface and call against wip-demo over loopback, each
//! span entered, with its endpoint, its subject, the status and the duration, also when the
//! flight ran in a task of its own on another thread; and the same interactions with no
//! subscriber.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use tracing::Subscriber;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};
use wip_client::{Client, ClientOptions, Endpoint, HttpOptions, HttpTransport, Session};
use wip_demo::{DemoOptions, DemoServer};
use wip_model::{InterfaceName, InterfaceReference, Path};

/// A span as recorded: its name and its fields, as their debug text.
#[derive(Debug, Clone)]
struct Recorded {
    name: &'static str,
    fields: BTreeMap<&'static str, String>,
    /// Whether it was entered: an instrumented future enters its span whenever it is polled.
    entered: bool,
}

/// Records every span of the `wip_client` crate, in the order they were made, as a layer over
/// tracing-subscriber's registry (which tracks the current span as real subscribers do).
#[derive(Clone, Default)]
struct Recorder {
    spans: Arc<Mutex<Vec<Recorded>>>,
    /// Where each live span's record is in `spans` (the registry reuses the ids of closed ones).
    at: Arc<Mutex<BTreeMap<u64, usize>>>,
}

impl Recorder {
    fn spans(&self) -> Vec<Recorded> {
        self.spans.lock().unwrap().clone()
    }

    fn with<T>(&self, id: &Id, f: impl FnOnce(&mut Recorded) -> T) -> Option<T> {
        let at = *self.at.lock().unwrap().get(&id.into_u64())?;
        self.spans.lock().unwrap().get_mut(at).map(f)
    }
}

struct Fields<'a>(&'a mut BTreeMap<&'static str, String>);

impl Visit for Fields<'_> {
    fn record_debug(&mut self, field: &Field, value: &dyn Debug) {
        self.0.insert(field.name(), format!("{value:?}"));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name(), value.to_owned());
    }
}

impl<S: Subscriber> Layer<S> for Recorder {
    fn on_new_span(&self, attributes: &Attributes<'_>, id: &Id, _: Context<'_, S>) {
        if !attributes.metadata().target().starts_with("wip_client") {
            return;
        }
        let mut fields = BTreeMap::new();
        attributes.record(&mut Fields(&mut fields));
        let mut spans = self.spans.lock().unwrap();
        spans.push(Recorded {
            name: attributes.metadata().name(),
            fields,
            entered: false,
        });
        self.at
            .lock()
            .unwrap()
            .insert(id.into_u64(), spans.len() - 1);
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, _: Context<'_, S>) {
        self.with(id, |recorded| {
            values.record(&mut Fields(&mut recorded.fields))
        });
    }

    fn on_enter(&self, id: &Id, _: Context<'_, S>) {
        self.with(id, |recorded| recorded.entered = true);
    }

    fn on_close(&self, id: Id, _: Context<'_, S>) {
        self.at.lock().unwrap().remove(&id.into_u64());
    }
}

async fn demo() -> (DemoServer, Client) {
    let addr: SocketAddr = "127.0.0.1:0".parse().unwrap();
    let server = wip_demo::serve(addr, DemoOptions::default()).await.unwrap();
    let endpoint = Endpoint::parse(&server.endpoint()).unwrap();
    let session = Session::new(&endpoint, "anonymous");
    let transport = HttpTransport::new(endpoint, HttpOptions::default()).unwrap();
    let client = Client::new(Arc::new(transport), session, ClientOptions::default());
    (server, client)
}

/// An observe, a fetch and a call of the demo's first issue.
async fn interactions(client: &Client) {
    let issue = Path::new("/projects/wip/1").unwrap();
    let read = InterfaceReference::new(Path::root(), InterfaceName::new("issue.read").unwrap());
    client.observe(&issue, 0).await.unwrap();
    client.interface(&read).await.unwrap();
    client
        .call(&issue, &read, "read", BTreeMap::new())
        .await
        .unwrap();
}

// One test: a callsite's interest is cached process-wide, so tests that set and leave out
// subscribers on parallel threads would see each other's. Multi-threaded, so that a flight
// handed over to a task of its own runs on a worker, where no subscriber is the default.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_interaction_has_a_span_with_its_status_and_duration() {
    // No subscriber: the interactions work as well. (That their futures then go uninstrumented
    // and read no clock is not observed here.)
    let (_unseen, client) = demo().await;
    interactions(&client).await;

    let (server, client) = demo().await;
    let recorder = Recorder::default();
    let _default =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(recorder.clone()));
    interactions(&client).await;

    let spans = recorder.spans();
    let names: Vec<&str> = spans.iter().map(|span| span.name).collect();
    assert_eq!(
        names,
        ["wip.observe", "wip.fetch_interface", "wip.call_operation"],
        "{spans:#?}"
    );
    let endpoint = Endpoint::parse(&server.endpoint()).unwrap().to_string();
    for span in &spans {
        // Each interaction ran inside its span.
        assert!(span.entered, "{span:?}");
        let fields = &span.fields;
        assert_eq!(fields["endpoint"], endpoint, "{span:?}");
        assert_eq!(fields["status"], "success", "{span:?}");
        let duration: f64 = fields["duration_ms"].parse().expect("a duration");
        assert!(duration > 0.0, "{span:?}");
    }
    assert_eq!(spans[0].fields["path"], "/projects/wip/1");
    assert_eq!(spans[0].fields["depth"], "0");
    assert_eq!(spans[1].fields["scope"], "/");
    assert_eq!(spans[1].fields["interface"], "issue.read");
    assert_eq!(spans[2].fields["path"], "/projects/wip/1");
    assert_eq!(spans[2].fields["operation"], "read");

    // Two identical observes: the second joins the first, whose flight then runs in a task of
    // its own on a worker thread; its span still gets the status and the duration.
    recorder.spans.lock().unwrap().clear();
    recorder.at.lock().unwrap().clear();
    let issue = Path::new("/projects/wip/2").unwrap();
    let (first, second) = tokio::join!(client.observe(&issue, 0), client.observe(&issue, 0));
    assert_eq!(first.unwrap().object, second.unwrap().object);
    let spans = recorder.spans();
    assert_eq!(spans.len(), 1, "{spans:#?}");
    assert!(spans[0].entered, "{spans:#?}");
    assert_eq!(spans[0].name, "wip.observe");
    assert_eq!(spans[0].fields["path"], "/projects/wip/2");
    assert_eq!(
        spans[0].fields.get("status").map(String::as_str),
        Some("success"),
        "{spans:#?}"
    );
    assert!(spans[0].fields.contains_key("duration_ms"), "{spans:#?}");
}
