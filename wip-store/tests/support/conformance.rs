//! The `SpaceStore` contract, as one suite that every backend runs: each check takes two
//! handles on one store (two processes, or two replicas) and a fresh space key.

use std::time::Duration;

use wip_client::discover::DiscoverOperation;
use wip_client::space::{ObservedAt, SavedEntry, SavedInterface, SavedListing, SpaceChanges};
use wip_client::{SpaceKey, SpaceStore, StorePosition};
use wip_model::{InterfaceName, InterfaceReference, Path};

pub(crate) fn path(text: &str) -> Path {
    Path::new(text).expect("canonical")
}

/// An entry at `at` listing `children` (or no listing when `None`).
pub(crate) fn entry(at: &str, children: Option<&[&str]>) -> SavedEntry {
    let at = path(at);
    SavedEntry {
        name: at.last_segment().unwrap_or("").into(),
        description: Some(format!("the Object at {}", at.as_str()).into()),
        interfaces: vec![reference("issue.read")],
        discoverable: !at.is_root(),
        listing: children.map(|children| SavedListing {
            children: children.iter().map(|&c| c.into()).collect(),
            observed_at: ObservedAt::from_millis(1_700_000_000_000),
            marked: false,
        }),
        path: at,
    }
}

pub(crate) fn reference(name: &str) -> InterfaceReference {
    InterfaceReference::new(Path::root(), InterfaceName::new(name).expect("a name"))
}

pub(crate) fn written(entries: Vec<SavedEntry>) -> SpaceChanges {
    SpaceChanges {
        entries,
        ..SpaceChanges::default()
    }
}

fn paths(changes: &SpaceChanges) -> Vec<&str> {
    let mut paths: Vec<&str> = changes.entries.iter().map(|e| e.path.as_str()).collect();
    paths.sort_unstable();
    paths
}

async fn marked(store: &dyn SpaceStore, space: &SpaceKey, at: &str) -> bool {
    let kept = store.load(space).await.expect("load");
    let entry = kept.changes.entries.iter().find(|e| e.path.as_str() == at);
    entry
        .and_then(|e| e.listing.as_ref())
        .expect("a listing")
        .marked
}

/// Runs every check; `space(n)` gives the n-th fresh key.
pub(crate) async fn run(a: &dyn SpaceStore, b: &dyn SpaceStore, space: impl Fn(u32) -> SpaceKey) {
    loads_what_was_saved(a, b, &space(1)).await;
    follows_changes_and_removals(a, b, &space(2)).await;
    applies_evidence(a, &space(3)).await;
    leases_are_exclusive_until_they_expire(a, b, &space(4)).await;
    concurrent_saves_lose_nothing(a, b, &space(5)).await;
    forgets_what_it_can_no_longer_follow(a, &space(6)).await;
    keeps_spaces_apart(a, &space(7), &space(8)).await;
}

async fn loads_what_was_saved(a: &dyn SpaceStore, b: &dyn SpaceStore, space: &SpaceKey) {
    let empty = a.load(space).await.expect("load");
    assert!(empty.changes.is_empty(), "a new space is empty");
    let interface = SavedInterface {
        reference: reference("issue.read"),
        operations: vec![DiscoverOperation {
            name: "read".into(),
            summary: Some("課題を読む".into()),
        }],
    };
    let changes = SpaceChanges {
        entries: vec![
            entry("/", Some(&["projects"])),
            entry("/projects", Some(&["wip"])),
            entry("/projects/wip", None),
        ],
        interfaces: vec![interface.clone()],
        ..SpaceChanges::default()
    };
    a.save(space, &changes).await.expect("save");
    let kept = b.load(space).await.expect("another handle loads");
    assert_eq!(paths(&kept.changes), ["/", "/projects", "/projects/wip"]);
    assert_eq!(kept.changes.interfaces, [interface]);
    let wip = kept
        .changes
        .entries
        .iter()
        .find(|e| e.path.as_str() == "/projects/wip")
        .expect("kept");
    assert_eq!(*wip, changes.entries[2], "an entry reads back as saved");
    assert!(kept.position > empty.position);
    assert!(kept.changes.removed.is_empty() && kept.changes.returned.is_empty());
}

async fn follows_changes_and_removals(a: &dyn SpaceStore, b: &dyn SpaceStore, space: &SpaceKey) {
    a.save(
        space,
        &written(vec![
            entry("/p", Some(&["1", "2"])),
            entry("/p/1", Some(&["x"])),
            entry("/p/1/x", None),
            entry("/p/2", None),
            entry("/p-sibling", None),
        ]),
    )
    .await
    .expect("save");
    let start = b.load(space).await.expect("load").position;
    let nothing = b.changes_since(space, start).await.expect("follow");
    let nothing = nothing.expect("the position is known");
    assert!(nothing.changes.is_empty(), "nothing changed since the load");
    assert_eq!(nothing.position, start);
    // The listing of /p loses 1; /p/3 appears.
    let changes = SpaceChanges {
        removed: vec![path("/p/1")],
        entries: vec![entry("/p", Some(&["2", "3"])), entry("/p/3", None)],
        ..SpaceChanges::default()
    };
    a.save(space, &changes).await.expect("save");
    let followed = b
        .changes_since(space, start)
        .await
        .expect("follow")
        .expect("known");
    assert_eq!(paths(&followed.changes), ["/p", "/p/3"]);
    assert_eq!(followed.changes.removed, [path("/p/1")]);
    assert!(followed.position > start);
    let kept = b.load(space).await.expect("load");
    assert_eq!(
        paths(&kept.changes),
        ["/p", "/p-sibling", "/p/2", "/p/3"],
        "the removed subtree went whole, and only it"
    );
    assert_eq!(kept.position, followed.position);
}

async fn applies_evidence(a: &dyn SpaceStore, space: &SpaceKey) {
    a.save(
        space,
        &written(vec![
            entry("/p", Some(&["1"])),
            entry("/p/1", Some(&[])),
            entry("/q", Some(&["9"])),
        ]),
    )
    .await
    .expect("save");
    // /p/1 is listed: no mark. /q/10 is not: /q is marked.
    let evidence = SpaceChanges {
        returned: vec![path("/p/1"), path("/q/10")],
        ..SpaceChanges::default()
    };
    a.save(space, &evidence).await.expect("save");
    assert!(!marked(a, space, "/p").await);
    assert!(marked(a, space, "/q").await);
    // A call changed /p/1: its own listing and its parent's are marked.
    let evidence = SpaceChanges {
        changed: vec![path("/p/1")],
        ..SpaceChanges::default()
    };
    let before = a.load(space).await.expect("load").position;
    a.save(space, &evidence).await.expect("save");
    assert!(marked(a, space, "/p").await);
    assert!(marked(a, space, "/p/1").await);
    let followed = a
        .changes_since(space, before)
        .await
        .expect("follow")
        .expect("known");
    assert_eq!(
        paths(&followed.changes),
        ["/p", "/p/1"],
        "a mark is a change"
    );
    // Listing /q again clears its mark.
    a.save(space, &written(vec![entry("/q", Some(&["9", "10"]))]))
        .await
        .expect("save");
    assert!(!marked(a, space, "/q").await);
}

async fn leases_are_exclusive_until_they_expire(
    a: &dyn SpaceStore,
    b: &dyn SpaceStore,
    space: &SpaceKey,
) {
    let listing = path("/projects");
    let short = Duration::from_millis(300);
    assert!(a.lease(space, &listing, short).await.expect("lease"));
    assert!(
        !b.lease(space, &listing, short).await.expect("lease"),
        "held by a"
    );
    assert!(
        a.lease(space, &listing, short).await.expect("lease"),
        "a extends its own"
    );
    assert!(
        b.lease(space, &path("/people"), short)
            .await
            .expect("lease"),
        "another listing is free"
    );
    // The only wait in the suite: a lease's expiry is a time, and nothing else ends it.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        if b.lease(space, &listing, short).await.expect("lease") {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "a's lease never expired"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        !a.lease(space, &listing, short).await.expect("lease"),
        "now b's"
    );
}

async fn concurrent_saves_lose_nothing(a: &dyn SpaceStore, b: &dyn SpaceStore, space: &SpaceKey) {
    let batch = |who: &str, round: u32| {
        written(
            (0..20)
                .map(|n| entry(&format!("/{who}/{round}-{n}"), None))
                .collect(),
        )
    };
    for round in 0..5 {
        let (mine, theirs) = (batch("a", round), batch("b", round));
        let (left, right) = tokio::join!(a.save(space, &mine), b.save(space, &theirs));
        left.expect("a saves");
        right.expect("b saves");
    }
    let kept = a.load(space).await.expect("load");
    assert_eq!(
        kept.changes.entries.len(),
        200,
        "every entry of both writers"
    );
}

async fn forgets_what_it_can_no_longer_follow(a: &dyn SpaceStore, space: &SpaceKey) {
    let start = a.load(space).await.expect("load").position;
    assert_eq!(start, StorePosition(0));
    let removed = SpaceChanges {
        removed: (0..10_050).map(|n| path(&format!("/gone/{n}"))).collect(),
        ..SpaceChanges::default()
    };
    a.save(space, &removed).await.expect("save");
    assert_eq!(
        a.changes_since(space, start).await.expect("follow"),
        None,
        "the oldest removals were forgotten, so following from before them cannot be told"
    );
    let now = a.load(space).await.expect("load").position;
    let followed = a.changes_since(space, now).await.expect("follow");
    assert!(followed.is_some_and(|kept| kept.changes.is_empty()));
}

async fn keeps_spaces_apart(a: &dyn SpaceStore, one: &SpaceKey, other: &SpaceKey) {
    a.save(one, &written(vec![entry("/only-here", None)]))
        .await
        .expect("save");
    assert!(a.load(other).await.expect("load").changes.is_empty());
}
