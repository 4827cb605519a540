//! What `GET /metrics` of `wip mcp --listen` reports, in the Prometheus text format (version
//! 0.0.4), or OpenMetrics 1.0 for a scraper that asks for it in `Accept`, written by the
//! `prometheus-client` crate.
//!
//! Every label is a word of a fixed vocabulary: tool names are the fixed tools' or
//! `operation` for every per-operation tool, so nothing a Host or a client sends becomes a
//! label, and the number of series stays bounded. The counts come from seams that already see
//! them: the handler's tool calls ([`CallWatch`]), the connection's watch for Host requests and
//! store exchanges ([`Watcher`](crate::watch::Watcher)), and, at each scrape, the session
//! manager's count of open sessions.

use std::sync::Arc;
use std::time::Instant;

use prometheus_client::encoding::{prometheus_text, text};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::{Registry, Unit};
use serde_json::Value;
use wip_tools::{InvokeOutcome, ToolOutcome, ToolReport};

use crate::connect::CallScope;
use crate::watch::{HostEnd, HostRequest, StoreExchange};

/// One label.
type Label = (&'static str, &'static str);

/// The upper bounds of the tool calls' latency buckets, in seconds: from a cut result's rest
/// read from memory to a crawl that runs to the tool call's deadline (45 s by default).
const LATENCY_BUCKETS: [f64; 13] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
];

/// The content type of the Prometheus text format.
pub(crate) const PROMETHEUS_TEXT: &str = prometheus_text::CONTENT_TYPE;
/// The content type of the OpenMetrics text format.
pub(crate) const OPENMETRICS_TEXT: &str =
    "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// The metrics of one server.
pub(crate) struct Metrics {
    registry: Registry,
    tool_calls: Family<[Label; 2], Counter>,
    tool_latency: Family<[Label; 1], Histogram, fn() -> Histogram>,
    host_requests: Family<[Label; 2], Counter>,
    crawl_observes: Counter,
    cut_results: Family<[Label; 1], Counter>,
    cursor_reads: Family<[Label; 1], Counter>,
    store_errors: Family<[Label; 1], Counter>,
    sessions: Gauge,
    principals: Gauge,
}

impl Metrics {
    pub(crate) fn new() -> Self {
        let metrics = Self {
            registry: Registry::default(),
            tool_calls: Family::default(),
            tool_latency: Family::new_with_constructor(|| Histogram::new(LATENCY_BUCKETS)),
            host_requests: Family::default(),
            crawl_observes: Counter::default(),
            cut_results: Family::default(),
            cursor_reads: Family::default(),
            store_errors: Family::default(),
            sessions: Gauge::default(),
            principals: Gauge::default(),
        };
        metrics.registered()
    }

    fn registered(mut self) -> Self {
        let registry = &mut self.registry;
        registry.register(
            "wip_mcp_tool_calls",
            "Tool calls ended, by tool (discover, inspect, invoke, read, or operation for a \
             per-operation tool) and outcome (ok, error, outcome_unknown, cancelled)",
            self.tool_calls.clone(),
        );
        registry.register_with_unit(
            "wip_mcp_tool_call_duration",
            "How long tool calls took, from their start to their result or cancellation, by tool",
            Unit::Seconds,
            self.tool_latency.clone(),
        );
        registry.register(
            "wip_host_requests",
            "Requests to the Host ended, by kind (observe, fetch_interface, call_operation, \
             probe) and outcome (success, protocol_error, not_sent, timeout, failed)",
            self.host_requests.clone(),
        );
        registry.register(
            "wip_crawl_observes",
            "Observes sent by the crawls of discover calls",
            self.crawl_observes.clone(),
        );
        registry.register(
            "wip_mcp_cut_results",
            "Tool results cut at the output budget, with a cursor to their rest, by tool",
            self.cut_results.clone(),
        );
        registry.register(
            "wip_mcp_cursor_reads",
            "Tool calls with the cursor of a cut result, by outcome (read: the rest was \
             returned; refused: unknown, expired, another call's, or the call's arguments \
             were wrong)",
            self.cursor_reads.clone(),
        );
        registry.register(
            "wip_store_errors",
            "Exchanges with the store that failed, by exchange (load, save, changes_since, \
             lease)",
            self.store_errors.clone(),
        );
        registry.register(
            "wip_mcp_sessions_open",
            "MCP sessions (protocol 2025-11-25) open now",
            self.sessions.clone(),
        );
        registry.register(
            "wip_mcp_principals_open",
            "Principals (token holders, the listener) that sent a tool call to this server within \
             the last 10 minutes, as long as a cursor is kept",
            self.principals.clone(),
        );
        self
    }

    /// The metrics as text: OpenMetrics when `openmetrics`, else the Prometheus text format.
    pub(crate) fn encode(&self, openmetrics: bool) -> String {
        let mut text = String::new();
        let encoded = if openmetrics {
            text::encode(&mut text, &self.registry)
        } else {
            prometheus_text::encode(&mut text, &self.registry)
        };
        // Writing into a String fails only if a metric's own encoding does, which the fixed
        // metrics above never do; an empty body then tells the scraper something is wrong.
        if encoded.is_err() {
            text.clear();
        }
        text
    }

    /// Sets how many MCP sessions are open.
    pub(crate) fn set_sessions(&self, open: usize) {
        self.sessions.set(i64::try_from(open).unwrap_or(i64::MAX));
    }

    /// Sets how many principals sent a tool call within the last 10 minutes.
    pub(crate) fn set_principals(&self, open: usize) {
        self.principals.set(i64::try_from(open).unwrap_or(i64::MAX));
    }

    pub(crate) fn host_request(&self, request: HostRequest, end: HostEnd) {
        let kind = match request {
            HostRequest::Observe => "observe",
            HostRequest::FetchInterface => "fetch_interface",
            HostRequest::CallOperation => "call_operation",
            HostRequest::Probe => "probe",
        };
        let outcome = match end {
            HostEnd::Success => "success",
            HostEnd::ProtocolError => "protocol_error",
            HostEnd::NotSent => "not_sent",
            HostEnd::Timeout => "timeout",
            HostEnd::Failed => "failed",
        };
        self.host_requests
            .get_or_create(&[("kind", kind), ("outcome", outcome)])
            .inc();
    }

    pub(crate) fn store_exchange(&self, exchange: StoreExchange, failed: bool) {
        if !failed {
            return;
        }
        let exchange = match exchange {
            StoreExchange::Load => "load",
            StoreExchange::Save => "save",
            StoreExchange::ChangesSince => "changes_since",
            StoreExchange::Lease => "lease",
        };
        self.store_errors
            .get_or_create(&[("exchange", exchange)])
            .inc();
    }
}

/// One tool call as the metrics see it, from its start: [`Self::ended`] counts its result; a
/// call dropped before that (cancelled, or its task gone) is counted as cancelled.
pub(crate) struct CallWatch<'a> {
    metrics: Option<&'a Metrics>,
    tool: &'static str,
    scope: Arc<CallScope>,
    started: Instant,
    counted: bool,
}

impl<'a> CallWatch<'a> {
    /// The call of the tool `name`, its requests in `scope`; counted nowhere without metrics.
    pub(crate) fn start(metrics: Option<&'a Metrics>, name: &str, scope: &Arc<CallScope>) -> Self {
        let tool = match name {
            "discover" => "discover",
            "inspect" => "inspect",
            "invoke" => "invoke",
            "read" => "read",
            _ => "operation",
        };
        Self {
            metrics,
            tool,
            scope: Arc::clone(scope),
            started: Instant::now(),
            counted: false,
        }
    }

    /// The call ended with `report`, given `arguments`.
    pub(crate) fn ended(mut self, report: &ToolReport, arguments: &Value) {
        let Some(metrics) = self.metrics else {
            return;
        };
        let unknown = matches!(
            report.outcome,
            Some(ToolOutcome::Call(InvokeOutcome::OutcomeUnknown { .. }))
        );
        let outcome = match (unknown, report.output.is_error) {
            (true, _) => "outcome_unknown",
            (false, true) => "error",
            (false, false) => "ok",
        };
        self.count(metrics, outcome);
        if report.output.cursor.is_some() {
            metrics
                .cut_results
                .get_or_create(&[("tool", self.tool)])
                .inc();
        }
        // A tool ran nothing when it read a rest: a cursor given, and no outcome.
        if report.outcome.is_none() && arguments.get("cursor").is_some_and(Value::is_string) {
            let read = if report.output.is_error {
                "refused"
            } else {
                "read"
            };
            metrics
                .cursor_reads
                .get_or_create(&[("outcome", read)])
                .inc();
        }
    }

    fn count(&mut self, metrics: &Metrics, outcome: &'static str) {
        if self.counted {
            return;
        }
        self.counted = true;
        metrics
            .tool_calls
            .get_or_create(&[("tool", self.tool), ("outcome", outcome)])
            .inc();
        metrics
            .tool_latency
            .get_or_create(&[("tool", self.tool)])
            .observe(self.started.elapsed().as_secs_f64());
        if self.tool == "discover" {
            metrics.crawl_observes.inc_by(self.scope.observes());
        }
    }
}

impl Drop for CallWatch<'_> {
    fn drop(&mut self) {
        if let Some(metrics) = self.metrics {
            self.count(metrics, "cancelled");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_metric_is_described_in_both_formats() {
        let metrics = Metrics::new();
        metrics.host_request(HostRequest::Observe, HostEnd::Success);
        metrics.store_exchange(StoreExchange::Save, true);
        metrics.store_exchange(StoreExchange::Load, false);
        metrics.set_sessions(3);
        let text = metrics.encode(false);
        assert!(
            text.contains("wip_host_requests_total{kind=\"observe\",outcome=\"success\"} 1\n"),
            "{text}"
        );
        assert!(
            text.contains("wip_store_errors_total{exchange=\"save\"} 1\n"),
            "{text}"
        );
        assert!(!text.contains("exchange=\"load\""), "{text}");
        assert!(text.contains("wip_mcp_sessions_open 3\n"), "{text}");
        let open = metrics.encode(true);
        assert!(open.ends_with("# EOF\n"), "{open}");
        assert!(
            open.contains("# TYPE wip_mcp_sessions_open gauge"),
            "{open}"
        );
    }

    #[test]
    fn a_call_dropped_before_its_end_is_counted_as_cancelled_once() {
        let metrics = Metrics::new();
        let scope = CallScope::new();
        drop(CallWatch::start(Some(&metrics), "discover", &scope));
        let text = metrics.encode(false);
        assert!(
            text.contains("wip_mcp_tool_calls_total{tool=\"discover\",outcome=\"cancelled\"} 1\n"),
            "{text}"
        );
        assert!(
            text.contains("wip_mcp_tool_call_duration_seconds_count{tool=\"discover\"} 1\n"),
            "{text}"
        );
    }
}
