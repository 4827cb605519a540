//! The crawl against a Host double that serves a tree and can leave chosen observes unanswered:
//! observes in flight stay within the budget's concurrency, the paths a budget reaches do not
//! depend on the order answers arrive in, and past the deadline nothing more is sent.

use std::collections::BTreeSet;
use std::num::{NonZeroU32, NonZeroUsize};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use wip_client::{
    Client, ClientError, ClientOptions, CrawlBudget, Reply, Session, Transport, TransportError,
};
use wip_model::{
    CallOperationRequest, CallOperationResponse, FetchInterfaceRequest, FetchInterfaceResponse,
    Object, ObjectObservation, ObserveRequest, ObserveResponse, Path, ValidDescriptor,
};

/// A Worldspace of `width` children under `/` and under each of them, `width` more; observes of
/// the paths in `silent` never answer. Answers wait a little, longer for paths that sort first,
/// so they arrive in another order than they were sent.
struct TreeHost {
    width: usize,
    silent: BTreeSet<String>,
    sent: Mutex<Vec<String>>,
    in_flight: AtomicUsize,
    most_in_flight: AtomicUsize,
}

impl TreeHost {
    fn new(width: usize, silent: &[&str]) -> Arc<Self> {
        Arc::new(Self {
            width,
            silent: silent.iter().map(|path| (*path).to_owned()).collect(),
            sent: Mutex::new(Vec::new()),
            in_flight: AtomicUsize::new(0),
            most_in_flight: AtomicUsize::new(0),
        })
    }

    fn sent(&self) -> Vec<String> {
        self.sent.lock().unwrap().clone()
    }

    fn node(&self, path: &Path, depth: u32) -> ObjectObservation {
        let level = path.segments().count();
        let children = (depth > 0).then(|| {
            if level >= 2 {
                return Box::default();
            }
            (0..self.width)
                .map(|index| {
                    let child = path.join(&format!("n{index}")).unwrap();
                    self.node(&child, depth - 1)
                })
                .collect()
        });
        ObjectObservation {
            object: Object {
                name: path.segments().last().unwrap_or("").into(),
                description: None,
                interfaces: vec![].into(),
                object_ref: None,
                validator: None,
            },
            children,
        }
    }
}

#[async_trait]
impl Transport for TreeHost {
    async fn observe(
        &self,
        request: &ObserveRequest,
    ) -> Result<Reply<ObserveResponse>, TransportError> {
        self.sent
            .lock()
            .unwrap()
            .push(request.path.as_str().to_owned());
        let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        self.most_in_flight.fetch_max(now, Ordering::SeqCst);
        if self.silent.contains(request.path.as_str()) {
            std::future::pending::<()>().await;
        }
        // Paths that sort first answer last.
        let rank = request.path.as_str().bytes().map(u64::from).sum::<u64>() % 7;
        tokio::time::sleep(Duration::from_millis(7 - rank)).await;
        self.in_flight.fetch_sub(1, Ordering::SeqCst);
        Ok(Reply::Success(self.node(&request.path, request.depth)))
    }

    async fn fetch_interface(
        &self,
        _: &FetchInterfaceRequest,
    ) -> Result<Reply<FetchInterfaceResponse>, TransportError> {
        unreachable!("a crawl fetches no interface")
    }

    async fn call_operation(
        &self,
        _: &CallOperationRequest,
        _: &ValidDescriptor,
    ) -> Result<Reply<CallOperationResponse>, TransportError> {
        unreachable!("a crawl calls nothing")
    }
}

fn client(host: &Arc<TreeHost>) -> Client {
    let session = Session {
        endpoint: "http://127.0.0.1:1/wip".into(),
        security_context: "anonymous".into(),
    };
    let transport: Arc<dyn Transport> = host.clone();
    Client::new(transport, session, ClientOptions::default())
}

fn budget(max_requests: usize, concurrency: usize) -> CrawlBudget {
    let mut budget = CrawlBudget::default();
    budget.max_requests = max_requests;
    budget.depth = NonZeroU32::MIN;
    budget.concurrency = NonZeroUsize::new(concurrency).expect("non-zero");
    budget
}

fn with_depth(mut budget: CrawlBudget, depth: u32) -> CrawlBudget {
    budget.depth = NonZeroU32::new(depth).expect("non-zero");
    budget
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crawl_keeps_its_concurrency_and_covers_the_tree() {
    let host = TreeHost::new(6, &[]);
    let report = client(&host).crawl(&Path::root(), budget(100, 3)).await;
    assert!(report.is_complete(), "{report:?}");
    // The root, its 6 children, and their 6 children each.
    assert_eq!(report.objects, 1 + 6 + 36);
    assert_eq!(report.requests, 1 + 6 + 36);
    assert_eq!(host.most_in_flight.load(Ordering::SeqCst), 3);
    assert!(!report.deadline_passed);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_a_budget_reaches_does_not_depend_on_the_order_of_answers() {
    let mut reached = Vec::new();
    for concurrency in [1, 4, 16] {
        let host = TreeHost::new(5, &[]);
        let report = client(&host)
            .crawl(&Path::root(), budget(9, concurrency))
            .await;
        assert_eq!(report.requests, 9);
        let mut sent = host.sent();
        sent.sort();
        reached.push((sent, report.frontier));
    }
    assert_eq!(reached[0], reached[1]);
    assert_eq!(reached[0], reached[2]);
    // The root, its 5 children, then the first 3 of theirs in breadth-first order.
    let (sent, frontier) = &reached[0];
    assert!(sent.contains(&"/n0/n2".to_owned()), "{sent:?}");
    assert_eq!(frontier.first().map(Path::as_str), Some("/n0/n3"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_deadline_nothing_more_is_sent_and_the_report_says_what_failed() {
    // 40 children of the root never answer.
    let silent: Vec<String> = (0..40).map(|index| format!("/n{index}")).collect();
    let silent: Vec<&str> = silent.iter().map(String::as_str).collect();
    let host = TreeHost::new(40, &silent);
    let deadline = Instant::now() + Duration::from_secs(2);
    let started = Instant::now();
    let report = client(&host)
        .crawl(&Path::root(), {
            let mut budget = budget(100, 4);
            budget.deadline = Some(deadline);
            budget
        })
        .await;
    // A generous bound: what it catches is a crawl that waits on each silent observe in turn.
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert!(report.deadline_passed, "{report:?}");
    // The root and the first four children were sent; nothing after the deadline.
    assert_eq!(report.requests, 5, "{:?}", host.sent());
    assert_eq!(host.sent().len(), 5);
    let failed: Vec<&str> = report
        .failures
        .iter()
        .map(|(path, _)| path.as_str())
        .collect();
    assert_eq!(failed, ["/n0", "/n1", "/n10", "/n11"]);
    assert!(
        report
            .failures
            .iter()
            .all(|(_, error)| *error == ClientError::DeadlinePassed)
    );
    // The other 36 children were never sent and are still to explore.
    assert_eq!(report.frontier.len(), 36);
    assert!(!report.is_complete());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_start_below_another_is_not_observed_twice() {
    let host = TreeHost::new(3, &[]);
    let starts = vec![Path::new("/n1").unwrap(), Path::root()];
    let report = client(&host)
        .crawl_from(starts, with_depth(budget(100, 2), 2))
        .await;
    assert!(report.is_complete(), "{report:?}");
    // The root at depth 2 expands /n1 on the way, so /n1 is not sent on its own; the nine
    // grandchildren at the depth boundary are.
    let sent = host.sent();
    assert_eq!(sent.len(), 10, "{sent:?}");
    assert_eq!(sent[0], "/");
    assert!(!sent.contains(&"/n1".to_owned()), "{sent:?}");
    // Each Object once: the root, its 3 children, their 9 children (each of which answered
    // its own observe as well).
    assert_eq!(report.objects, 13);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_start_the_rounds_reach_unexplored_is_counted_and_observed_once() {
    let host = TreeHost::new(3, &[]);
    let starts = vec![Path::new("/n1/n0").unwrap(), Path::new("/n1").unwrap()];
    let report = client(&host).crawl_from(starts, budget(100, 2)).await;
    assert!(report.is_complete(), "{report:?}");
    // /n1 at depth 1 shows /n1/n0 without its children; the next round observes it with the
    // other two, and the start is not observed a second time.
    let mut sent = host.sent();
    sent.sort();
    assert_eq!(sent, ["/n1", "/n1/n0", "/n1/n1", "/n1/n2"]);
    assert_eq!(report.objects, 4);
    assert_eq!(report.requests, 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wide_answer_keeps_only_the_unexplored_paths_the_report_lists() {
    // 1,200 children of the root and of each of them, observed at depth 1: the root and the
    // first two children leave 1,198 + 2 × 1,200 paths unexplored, past the 1,024 a report
    // lists at least (the budget of 3 has no room left).
    let host = TreeHost::new(1200, &[]);
    let report = client(&host).crawl(&Path::root(), budget(3, 1)).await;
    assert_eq!(report.requests, 3);
    assert_eq!(report.frontier.len(), 1024);
    assert_eq!(report.frontier.len() + report.unlisted, 1198 + 2 * 1200);
    // The first round kept the first 1,024 of the root's children in breadth-first order; the
    // second observed two of them and kept the rest, then the first of their children.
    let mut children: Vec<Path> = (0..1200)
        .map(|index| Path::new(format!("/n{index}")).unwrap())
        .collect();
    children.sort();
    assert_eq!(report.frontier[..1022], children[2..1024]);
    assert_eq!(report.frontier[1022].as_str(), "/n0/n0");
    assert!(!report.is_complete());
}
