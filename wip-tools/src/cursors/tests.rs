use futures_util::FutureExt;

use super::*;

/// The answer of a call on the in-memory store, which never waits.
fn now<T>(future: impl Future<Output = T>) -> T {
    future
        .now_or_never()
        .expect("the in-memory store never waits")
}

/// A store of `max_bytes` whose clock the test moves by hand.
fn manual_clock(max_bytes: usize) -> (Arc<MemoryRests>, Arc<Mutex<Instant>>) {
    let at = Arc::new(Mutex::new(Instant::now()));
    let read = Arc::clone(&at);
    let store = MemoryRests::with_clock(max_bytes, Arc::new(move || *read.lock().unwrap()));
    (Arc::new(store), at)
}

fn config() -> ToolsConfig {
    ToolsConfig::default()
}

#[test]
fn a_cursor_is_random_url_safe_and_read_once() {
    let cursors = Cursors::new();
    let first = now(cursors.keep("invoke", "rest".into(), &config())).unwrap();
    let second = now(cursors.keep("invoke", "rest".into(), &config())).unwrap();
    assert_ne!(first, second);
    let body = first.strip_prefix(PREFIX).unwrap();
    assert_eq!(body.len(), 22, "{first}");
    assert!(
        body.bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
    );
    let ttl = config().cursor_ttl;
    assert_eq!(
        now(cursors.take(&first, "invoke", ttl)).as_deref(),
        Ok("rest")
    );
    assert_eq!(
        now(cursors.take(&first, "invoke", ttl)),
        Err(Refused::Unknown)
    );
    assert_eq!(
        now(cursors.take("rest-1", "invoke", ttl)),
        Err(Refused::Unknown)
    );
}

#[test]
fn a_cursor_expires_after_its_ttl() {
    let (store, at) = manual_clock(usize::MAX);
    let cursors = Cursors::in_store(store.clone(), "p");
    let ttl = config().cursor_ttl;
    let early = now(cursors.keep("inspect", "a".into(), &config())).unwrap();
    *at.lock().unwrap() += ttl / 2;
    let late = now(cursors.keep("inspect", "b".into(), &config())).unwrap();
    *at.lock().unwrap() += ttl / 2;
    assert_eq!(
        now(cursors.take(&early, "inspect", ttl)),
        Err(Refused::Unknown)
    );
    assert_eq!(now(cursors.take(&late, "inspect", ttl)).as_deref(), Ok("b"));
    let kept = store.lock();
    assert_eq!((kept.bytes, kept.queues.len()), (0, 0));
}

#[test]
fn a_principal_keeps_at_most_its_count_and_bytes_dropping_its_oldest() {
    let cursors = Cursors::new();
    let limits = ToolsConfig {
        kept_outputs: 3,
        kept_bytes: 1_000,
        ..config()
    };
    let ttl = limits.cursor_ttl;
    let given: Vec<String> = (0..5)
        .map(|index| now(cursors.keep("o", format!("{index}"), &limits)).unwrap())
        .collect();
    assert_eq!(
        now(cursors.take(&given[1], "o", ttl)),
        Err(Refused::Unknown)
    );
    assert_eq!(now(cursors.take(&given[2], "o", ttl)).as_deref(), Ok("2"));
    // A rest of 950 bytes pushes out the older ones until it fits.
    let big = now(cursors.keep("o", "x".repeat(950), &limits)).unwrap();
    assert_eq!(
        now(cursors.take(&given[3], "o", ttl)),
        Err(Refused::Unknown)
    );
    assert_eq!(
        now(cursors.take(&given[4], "o", ttl)),
        Err(Refused::Unknown)
    );
    assert_eq!(
        now(cursors.take(&big, "o", ttl)).map(|rest| rest.len()),
        Ok(950)
    );
    // One rest past the byte bound is not kept at all, and drops nothing.
    let kept = now(cursors.keep("o", "y".into(), &limits)).unwrap();
    assert_eq!(
        now(cursors.keep("o", "x".repeat(1_000), &limits)),
        Err(NotKept::TooLarge)
    );
    assert_eq!(now(cursors.take(&kept, "o", ttl)).as_deref(), Ok("y"));
}

#[test]
fn another_principals_cursor_is_unknown_and_another_owner_is_refused() {
    let store = Arc::new(MemoryRests::new(usize::MAX));
    let (one, other) = (
        Cursors::in_store(store.clone(), "one"),
        Cursors::in_store(store, "other"),
    );
    let ttl = config().cursor_ttl;
    let cursor = now(one.keep("invoke\0/a\0op", "rest".into(), &config())).unwrap();
    assert_eq!(
        now(other.take(&cursor, "invoke\0/a\0op", ttl)),
        Err(Refused::Unknown)
    );
    assert_eq!(
        now(Cursors::new().take(&cursor, "invoke\0/a\0op", ttl)),
        Err(Refused::Unknown)
    );
    assert_eq!(
        now(one.take(&cursor, "invoke\0/b\0op", ttl)),
        Err(Refused::Foreign)
    );
    assert_eq!(
        now(one.take(&cursor, "invoke\0/a\0op", ttl)).as_deref(),
        Ok("rest")
    );
    // A clone is the same principal in the same store.
    let handle = one.clone();
    let again = now(handle.keep("o", "r".into(), &config())).unwrap();
    assert_eq!(now(one.take(&again, "o", ttl)).as_deref(), Ok("r"));
}

#[test]
fn past_the_stores_limit_a_rest_is_not_kept_and_pushes_out_nobody_elses() {
    let (store, at) = manual_clock(100);
    let (alice, bob) = (
        Cursors::in_store(store.clone(), "alice"),
        Cursors::in_store(store.clone(), "bob"),
    );
    let ttl = config().cursor_ttl;
    // 27 + 1 + 40 bytes: cursor, owner, text.
    let first = now(alice.keep("o", "a".repeat(40), &config())).unwrap();
    assert_eq!(
        now(bob.keep("o", "b".repeat(40), &config())),
        Err(NotKept::StoreFull { bytes: 100 })
    );
    // Bob's own older rests make room for his new ones, never Alice's.
    let small = now(bob.keep("o", "b".into(), &config())).unwrap();
    assert_eq!(store.lock().bytes, 68 + 29);
    // Once Alice's rest expired, it no longer counts.
    *at.lock().unwrap() += ttl;
    assert_eq!(
        now(bob.take(&small, "o", ttl)),
        Err(Refused::Unknown),
        "expired too"
    );
    let later = now(bob.keep("o", "b".repeat(40), &config())).unwrap();
    assert_eq!(now(alice.take(&first, "o", ttl)), Err(Refused::Unknown));
    assert_eq!(
        now(bob.take(&later, "o", ttl)).map(|rest| rest.len()),
        Ok(40)
    );
    assert_eq!(store.lock().bytes, 0);
}
