//! What `wip mcp` replicas keep for their principals in PostgreSQL (a cluster of the test's
//! own, see `support/postgres.rs`): rests of cut results read once, through any handle, only
//! by their principal and owner, within each principal's quota and the store-wide one; and
//! cancelled calls' outcomes told once.

#[allow(dead_code, reason = "shared with other test crates, each using a part")]
#[path = "support/postgres.rs"]
mod postgres;

use std::time::Duration;

use postgres::TestPostgres;
use wip_store::{CallNote, PostgresStore, RestQuota, RestRow, StoreOptions, TakenRest};

async fn two_handles() -> (TestPostgres, PostgresStore, PostgresStore) {
    let server = TestPostgres::start();
    let url = server.create_database("wip");
    let mut options = StoreOptions::default();
    options.timeout = Duration::from_secs(20);
    let one = PostgresStore::connect(&url, options).await.unwrap();
    let other = PostgresStore::connect(&url, options).await.unwrap();
    (server, one, other)
}

fn row<'a>(cursor: &'a str, rest: &'a str) -> RestRow<'a> {
    RestRow {
        cursor,
        owner: "inspect\0/a",
        rest,
        bytes: cursor.len() + "inspect\0/a".len() + rest.len(),
    }
}

const QUOTA: RestQuota = RestQuota {
    count: 3,
    bytes: 1_000,
    all_bytes: 1_500,
    ttl: Duration::from_secs(600),
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rest_is_read_once_through_any_handle_by_its_principal_and_owner_only() {
    let (_server, one, other) = two_handles().await;
    assert!(
        one.keep_rest("alice", row("rest-1", "the rest\0 ユ"), QUOTA)
            .await
            .unwrap()
    );
    assert_eq!(
        other
            .take_rest("bob", "rest-1", "inspect\0/a")
            .await
            .unwrap(),
        TakenRest::Unknown
    );
    assert_eq!(
        other
            .take_rest("alice", "rest-1", "inspect\0/b")
            .await
            .unwrap(),
        TakenRest::Foreign
    );
    assert_eq!(
        other
            .take_rest("alice", "rest-1", "inspect\0/a")
            .await
            .unwrap(),
        TakenRest::Taken("the rest\0 ユ".to_owned())
    );
    assert_eq!(
        one.take_rest("alice", "rest-1", "inspect\0/a")
            .await
            .unwrap(),
        TakenRest::Unknown
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_principal_keeps_its_newest_within_its_quota_and_all_within_the_stores() {
    let (_server, one, other) = two_handles().await;
    for index in 0..5 {
        let cursor = format!("rest-{index}");
        assert!(
            one.keep_rest("alice", row(&cursor, "x"), QUOTA)
                .await
                .unwrap()
        );
    }
    // The count: the two oldest went.
    for (index, expected) in [(0, false), (1, false), (2, true), (3, true), (4, true)] {
        let taken = other
            .take_rest("alice", &format!("rest-{index}"), "inspect\0/a")
            .await
            .unwrap();
        assert_eq!(
            matches!(taken, TakenRest::Taken(_)),
            expected,
            "rest-{index}"
        );
    }
    // The bytes: a rest of 900 pushes out older ones until it fits.
    assert!(
        one.keep_rest("alice", row("rest-a", &"a".repeat(400)), QUOTA)
            .await
            .unwrap()
    );
    assert!(
        one.keep_rest("alice", row("rest-b", &"b".repeat(900)), QUOTA)
            .await
            .unwrap()
    );
    assert_eq!(
        one.take_rest("alice", "rest-a", "inspect\0/a")
            .await
            .unwrap(),
        TakenRest::Unknown
    );
    // The store's: Bob's rest would pass 1,500 bytes in all; Alice's is not pushed out.
    assert!(
        !other
            .keep_rest("bob", row("rest-c", &"c".repeat(700)), QUOTA)
            .await
            .unwrap()
    );
    assert!(matches!(
        one.take_rest("alice", "rest-b", "inspect\0/a").await.unwrap(),
        TakenRest::Taken(text) if text.len() == 900
    ));
    assert!(
        other
            .keep_rest("bob", row("rest-c", &"c".repeat(700)), QUOTA)
            .await
            .unwrap()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rest_expires() {
    let (_server, one, _other) = two_handles().await;
    let quota = RestQuota {
        ttl: Duration::from_millis(300),
        ..QUOTA
    };
    assert!(
        one.keep_rest("alice", row("rest-1", "x"), quota)
            .await
            .unwrap()
    );
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(
        one.take_rest("alice", "rest-1", "inspect\0/a")
            .await
            .unwrap(),
        TakenRest::Unknown
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_call_is_told_once_running_and_once_ended_to_its_principal_only() {
    let (_server, one, other) = two_handles().await;
    let day = Duration::from_secs(86_400);
    one.keep_call("alice", "id-1", "invoke (target \"/a\")", 32, day)
        .await
        .unwrap();
    assert_eq!(other.call_notes("bob").await.unwrap(), []);
    let running = CallNote {
        what: "invoke (target \"/a\")".to_owned(),
        outcome: None,
    };
    assert_eq!(other.call_notes("alice").await.unwrap(), [running]);
    assert_eq!(other.call_notes("alice").await.unwrap(), []);
    one.end_call("id-1", "result: done\n").await.unwrap();
    let ended = CallNote {
        what: "invoke (target \"/a\")".to_owned(),
        outcome: Some("result: done\n".to_owned()),
    };
    assert_eq!(other.call_notes("alice").await.unwrap(), [ended]);
    assert_eq!(one.call_notes("alice").await.unwrap(), []);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_principal_keeps_its_newest_cancelled_calls_only() {
    let (_server, one, _other) = two_handles().await;
    let day = Duration::from_secs(86_400);
    for index in 0..4 {
        let id = format!("id-{index}");
        one.keep_call("alice", &id, &id, 2, day).await.unwrap();
    }
    let told: Vec<String> = one
        .call_notes("alice")
        .await
        .unwrap()
        .into_iter()
        .map(|note| note.what)
        .collect();
    assert_eq!(told, ["id-2", "id-3"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_is_taken_over_through_another_handle_until_deleted_or_expired() {
    let (_server, one, other) = two_handles().await;
    let hour = Duration::from_secs(3_600);
    one.keep_session("s-1", b"{\"a\":1}", hour).await.unwrap();
    one.keep_session("s-1", b"{\"a\":2}", hour).await.unwrap();
    assert_eq!(
        other.load_session("s-1", hour).await.unwrap().as_deref(),
        Some(&b"{\"a\":2}"[..])
    );
    assert_eq!(other.load_session("s-2", hour).await.unwrap(), None);
    other.delete_session("s-1").await.unwrap();
    assert_eq!(one.load_session("s-1", hour).await.unwrap(), None);
    one.keep_session("s-3", b"{}", Duration::from_millis(300))
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(other.load_session("s-3", hour).await.unwrap(), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_handle_gets_the_secret_the_first_kept_and_an_answer_counts_once() {
    let (_server, one, other) = two_handles().await;
    let first = one.shared_secret("key", &[1; 32]).await.unwrap();
    let second = other.shared_secret("key", &[2; 32]).await.unwrap();
    assert_eq!(first, [1; 32]);
    assert_eq!(second, first);
    let expires = std::time::SystemTime::now() + Duration::from_secs(120);
    assert!(one.answer_once(&[7; 16], expires).await.unwrap());
    assert!(!other.answer_once(&[7; 16], expires).await.unwrap());
    assert!(other.answer_once(&[8; 16], expires).await.unwrap());
}
