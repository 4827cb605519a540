//! The `tracing` spans of each interaction, seen by a subscriber that records them: observe,
//! fetch_interface and call against wip-demo over loopback, each span with its endpoint, its
//! subject, the status and the duration; and the same interactions with no subscriber.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};
use wip_client::{Client, ClientOptions, Endpoint, HttpOptions, HttpTransport, Session};
use wip_demo::{DemoOptions, DemoServer};
use wip_model::{InterfaceName, InterfaceReference, Path};

/// A span as recorded: its name and its fields, as their debug text.
#[derive(Debug, Clone)]
struct Recorded {
    name: &'static str,
    fields: BTreeMap<&'static str, String>,
}

/// Records every span of the `wip_client` crate, and which were entered (an instrumented
/// future enters its span whenever it is polled).
#[derive(Default)]
struct Recorder {
    spans: Mutex<BTreeMap<u64, Recorded>>,
    entered: Mutex<BTreeSet<u64>>,
    next: AtomicU64,
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

impl Subscriber for Recorder {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        metadata.target().starts_with("wip_client")
    }

    fn new_span(&self, attributes: &Attributes<'_>) -> Id {
        let id = self.next.fetch_add(1, Ordering::SeqCst) + 1;
        let mut fields = BTreeMap::new();
        attributes.record(&mut Fields(&mut fields));
        let name = attributes.metadata().name();
        self.spans
            .lock()
            .unwrap()
            .insert(id, Recorded { name, fields });
        Id::from_u64(id)
    }

    fn record(&self, span: &Id, values: &Record<'_>) {
        if let Some(recorded) = self.spans.lock().unwrap().get_mut(&span.into_u64()) {
            values.record(&mut Fields(&mut recorded.fields));
        }
    }

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, _: &Event<'_>) {}

    fn enter(&self, span: &Id) {
        self.entered.lock().unwrap().insert(span.into_u64());
    }

    fn exit(&self, _: &Id) {}
}

/// Shares one recorder between the dispatcher and the test.
struct Shared(Arc<Recorder>);

impl Subscriber for Shared {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        self.0.enabled(metadata)
    }
    fn new_span(&self, attributes: &Attributes<'_>) -> Id {
        self.0.new_span(attributes)
    }
    fn record(&self, span: &Id, values: &Record<'_>) {
        self.0.record(span, values)
    }
    fn record_follows_from(&self, span: &Id, follows: &Id) {
        self.0.record_follows_from(span, follows)
    }
    fn event(&self, event: &Event<'_>) {
        self.0.event(event)
    }
    fn enter(&self, span: &Id) {
        self.0.enter(span)
    }
    fn exit(&self, span: &Id) {
        self.0.exit(span)
    }
}

async fn demo() -> (DemoServer, Client) {
    let addr: SocketAddr = "127.0.0.1:0".parse().unwrap();
    let server = wip_demo::serve(addr, DemoOptions::default()).await.unwrap();
    let endpoint = Endpoint::parse(&server.endpoint()).unwrap();
    let session = Session {
        endpoint: endpoint.to_string(),
        security_context: "anonymous".to_owned(),
    };
    let transport = HttpTransport::new(endpoint, HttpOptions::default()).unwrap();
    let client = Client::new(Arc::new(transport), session, ClientOptions::default()).unwrap();
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
// subscribers on parallel threads would see each other's.
#[tokio::test]
async fn each_interaction_has_a_span_with_its_status_and_duration() {
    // No subscriber: the spans are disabled, the futures go uninstrumented and read no clock.
    let (_unseen, client) = demo().await;
    interactions(&client).await;

    let (server, client) = demo().await;
    let recorder = Arc::new(Recorder::default());
    let _default = tracing::subscriber::set_default(Shared(Arc::clone(&recorder)));
    interactions(&client).await;

    // Each interaction ran inside its span.
    let ids: BTreeSet<u64> = recorder.spans.lock().unwrap().keys().copied().collect();
    assert_eq!(*recorder.entered.lock().unwrap(), ids);
    let spans: Vec<Recorded> = recorder.spans.lock().unwrap().values().cloned().collect();
    let names: Vec<&str> = spans.iter().map(|span| span.name).collect();
    assert_eq!(
        names,
        ["wip.observe", "wip.fetch_interface", "wip.call_operation"],
        "{spans:#?}"
    );
    let endpoint = Endpoint::parse(&server.endpoint()).unwrap().to_string();
    for span in &spans {
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
}
