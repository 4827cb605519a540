//! The `SpaceStore` contract, as checks over any backend (`&dyn SpaceStore`): what a save
//! keeps, what a load and a follower see, the evidence rule, compaction, leases, and handles
//! working at once. Each check uses space keys of its own, so all of them can share a store.
//!
//! Positions are checked exactly: every change (a removed subtree, an entry written, an
//! interface written, a listing marked) takes the next number of its space, numbers start at
//! 1, and a position is the number of the last change, in every backend.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use wip_client::discover::DiscoverOperation;
use wip_client::space::{ObservedAt, SavedEntry, SavedInterface, SavedListing, SpaceChanges};
use wip_client::{Kept, SpaceKey, SpaceStore, StorePosition};
use wip_model::{InterfaceName, InterfaceReference, Path, Str};

/// How many removed subtrees a store remembers for followers.
pub(crate) const MAX_TOMBSTONES: usize = 10_000;

pub(crate) fn key(name: &str) -> SpaceKey {
    SpaceKey::new(name).expect("a valid key")
}

pub(crate) fn path(text: &str) -> Path {
    Path::new(text).expect("a canonical path")
}

pub(crate) fn reference(scope: &str, name: &str) -> InterfaceReference {
    InterfaceReference::new(path(scope), InterfaceName::new(name).expect("a name"))
}

/// A discoverable entry named by its last segment, without a listing.
pub(crate) fn entry(at: &str) -> SavedEntry {
    let path = path(at);
    SavedEntry {
        name: Str::from(path.last_segment().unwrap_or("")),
        path,
        description: None,
        interfaces: vec![reference("/", "issue.read")],
        discoverable: true,
        listing: None,
    }
}

/// An entry with a listing of `children`, observed at `millis`.
pub(crate) fn listed(at: &str, children: &[&str], millis: u64) -> SavedEntry {
    SavedEntry {
        listing: Some(SavedListing {
            children: children.iter().map(|&child| Str::from(child)).collect(),
            observed_at: ObservedAt::from_millis(millis),
            marked: false,
        }),
        ..entry(at)
    }
}

pub(crate) fn writes(entries: Vec<SavedEntry>) -> SpaceChanges {
    SpaceChanges {
        entries,
        ..SpaceChanges::default()
    }
}

fn paths(kept: &Kept) -> Vec<&str> {
    kept.changes
        .entries
        .iter()
        .map(|e| e.path.as_str())
        .collect()
}

fn marked(kept: &Kept, at: &str) -> Option<bool> {
    let entry = kept.changes.entries.iter().find(|e| e.path == at)?;
    entry.listing.as_ref().map(|listing| listing.marked)
}

/// A save keeps entries as they were given (any Host text, with or without a listing) and
/// interfaces' operations; a load returns them in path order, with the last position.
pub(crate) async fn save_and_load(store: &dyn SpaceStore) {
    let space = key("save-and-load");
    let empty = store.load(&space).await.expect("load");
    assert_eq!(empty, Kept::default());
    let odd = SavedEntry {
        name: Str::from("not the segment \0 \u{202e}"),
        description: Some(Str::from("línea\nnueva \u{0}")),
        interfaces: vec![reference("/", "a"), reference("/x\0y", "::b#c")],
        discoverable: false,
        ..listed("/x\0y/世界", &["", "\0", "é"], 1_700_000_000_123)
    };
    let entries = vec![
        entry("/b"),
        listed("/", &["a", "b"], 1),
        odd.clone(),
        listed("/a", &[], 42),
    ];
    let interface = SavedInterface {
        reference: reference("/", "issue.read"),
        operations: vec![
            DiscoverOperation {
                name: "read".into(),
                summary: Some("Reads \0 an issue".into()),
            },
            DiscoverOperation {
                name: "list".into(),
                summary: None,
            },
        ],
    };
    let changes = SpaceChanges {
        entries: entries.clone(),
        interfaces: vec![interface.clone()],
        ..SpaceChanges::default()
    };
    store.save(&space, &changes).await.expect("save");
    let kept = store.load(&space).await.expect("load");
    let mut sorted = entries;
    sorted.sort_by(|a, b| a.path.cmp(&b.path));
    assert_eq!(kept.changes.entries, sorted);
    assert_eq!(kept.changes.interfaces, vec![interface]);
    assert!(kept.changes.removed.is_empty());
    assert_eq!(kept.position, StorePosition(5));
    // An entry written again replaces the first; an empty batch changes nothing.
    let renamed = SavedEntry {
        description: Some(Str::from("renamed")),
        ..entry("/b")
    };
    store
        .save(&space, &writes(vec![renamed.clone()]))
        .await
        .expect("save");
    store
        .save(&space, &SpaceChanges::default())
        .await
        .expect("empty save");
    let kept = store.load(&space).await.expect("load");
    assert_eq!(kept.position, StorePosition(6));
    assert!(kept.changes.entries.contains(&renamed));
    assert!(kept.changes.entries.contains(&odd));
    // Another space is another space.
    assert_eq!(
        store.load(&key("save-and-load-other")).await.expect("load"),
        Kept::default()
    );
}

/// A removal takes the path and everything below it (by segments: `/a` is not above `/ab`),
/// before the entries of the same batch are written.
pub(crate) async fn removals(store: &dyn SpaceStore) {
    let space = key("removals");
    let all = ["/a", "/a/b", "/a/b/c", "/a!", "/a-b", "/ab", "/b"];
    store
        .save(&space, &writes(all.iter().map(|at| entry(at)).collect()))
        .await
        .expect("save");
    let changes = SpaceChanges {
        removed: vec![path("/a")],
        entries: vec![entry("/a/new")],
        ..SpaceChanges::default()
    };
    store.save(&space, &changes).await.expect("save");
    let kept = store.load(&space).await.expect("load");
    assert_eq!(paths(&kept), ["/a!", "/a-b", "/a/new", "/ab", "/b"]);
    let root = SpaceChanges {
        removed: vec![path("/")],
        ..SpaceChanges::default()
    };
    store.save(&space, &root).await.expect("save");
    let kept = store.load(&space).await.expect("load");
    assert!(kept.changes.entries.is_empty());
    assert_eq!(kept.position, StorePosition(7 + 2 + 1));
}

/// Evidence marks listings by the rule `SpaceChanges` states; an entry written with an
/// unmarked listing clears the mark; followers see marks as changed entries.
pub(crate) async fn evidence(store: &dyn SpaceStore) {
    let space = key("evidence");
    store
        .save(
            &space,
            &writes(vec![
                listed("/p", &["x"], 10),
                entry("/p/x"),
                listed("/q", &["r"], 10),
                listed("/q/r", &[], 10),
                entry("/u"),
            ]),
        )
        .await
        .expect("save");
    let before = store.load(&space).await.expect("load").position;
    // Listed by its parent, under no listing, or with no parent at all: nothing to mark.
    let quiet = SpaceChanges {
        returned: vec![path("/p/x"), path("/u/v"), path("/nowhere/w"), path("/")],
        ..SpaceChanges::default()
    };
    store.save(&space, &quiet).await.expect("save");
    let kept = store.load(&space).await.expect("load");
    assert_eq!(kept.position, before);
    assert_eq!(marked(&kept, "/p"), Some(false));
    // A path the listing does not name marks it, once.
    let unknown = SpaceChanges {
        returned: vec![path("/p/y"), path("/p/z")],
        ..SpaceChanges::default()
    };
    store.save(&space, &unknown).await.expect("save");
    let kept = store.load(&space).await.expect("load");
    assert_eq!(marked(&kept, "/p"), Some(true));
    assert_eq!(kept.position, StorePosition(before.0 + 1));
    let since = store
        .changes_since(&space, before)
        .await
        .expect("follow")
        .expect("known");
    assert_eq!(paths(&since), ["/p"]);
    // A changed Object marks its parent's listing and its own.
    let changed = SpaceChanges {
        changed: vec![path("/q/r")],
        ..SpaceChanges::default()
    };
    store.save(&space, &changed).await.expect("save");
    let kept = store.load(&space).await.expect("load");
    assert_eq!(marked(&kept, "/q"), Some(true));
    assert_eq!(marked(&kept, "/q/r"), Some(true));
    assert_eq!(kept.position, StorePosition(before.0 + 3));
    // Evidence applies after the batch's entries: a listing written in it is marked.
    let both = SpaceChanges {
        entries: vec![listed("/p", &["x"], 20)],
        returned: vec![path("/p/new")],
        ..SpaceChanges::default()
    };
    store.save(&space, &both).await.expect("save");
    assert_eq!(
        marked(&store.load(&space).await.expect("load"), "/p"),
        Some(true)
    );
    // Written again with an unmarked listing, the mark is gone.
    store
        .save(&space, &writes(vec![listed("/p", &["x", "new"], 30)]))
        .await
        .expect("save");
    assert_eq!(
        marked(&store.load(&space).await.expect("load"), "/p"),
        Some(false)
    );
}

/// A follower gets what saves after its position changed: entries as they are now, removed
/// subtrees, interfaces; nothing when it is up to date; `None` for a position the store
/// never gave.
pub(crate) async fn follow(store: &dyn SpaceStore) {
    let space = key("follow");
    let start = store
        .changes_since(&space, StorePosition(0))
        .await
        .expect("follow");
    assert_eq!(start, Some(Kept::default()));
    assert_eq!(
        store
            .changes_since(&space, StorePosition(3))
            .await
            .expect("follow"),
        None
    );
    store
        .save(&space, &writes(vec![entry("/a"), entry("/b"), entry("/c")]))
        .await
        .expect("save");
    let first = store.load(&space).await.expect("load").position;
    assert_eq!(first, StorePosition(3));
    let interface = SavedInterface {
        reference: reference("/", "x"),
        operations: Vec::new(),
    };
    let later = SpaceChanges {
        removed: vec![path("/a")],
        entries: vec![SavedEntry {
            discoverable: false,
            ..entry("/c")
        }],
        interfaces: vec![interface.clone()],
        ..SpaceChanges::default()
    };
    store.save(&space, &later).await.expect("save");
    let since = store
        .changes_since(&space, first)
        .await
        .expect("follow")
        .expect("known");
    assert_eq!(since.changes.removed, vec![path("/a")]);
    assert_eq!(paths(&since), ["/c"]);
    assert!(!since.changes.entries[0].discoverable);
    assert_eq!(since.changes.interfaces, vec![interface]);
    assert_eq!(since.position, StorePosition(6));
    let nothing = store
        .changes_since(&space, since.position)
        .await
        .expect("follow");
    assert_eq!(
        nothing,
        Some(Kept {
            changes: SpaceChanges::default(),
            position: since.position
        })
    );
    assert_eq!(
        store
            .changes_since(&space, StorePosition(7))
            .await
            .expect("follow"),
        None
    );
    let whole = store
        .changes_since(&space, StorePosition(0))
        .await
        .expect("follow")
        .expect("known");
    assert_eq!(paths(&whole), ["/b", "/c"]);
}

/// Past the tombstones a store keeps, a follower from before them is told to load again;
/// one from after them follows on.
pub(crate) async fn compaction(store: &dyn SpaceStore) {
    let space = key("compaction");
    store
        .save(&space, &writes(vec![entry("/keep")]))
        .await
        .expect("save");
    let old = store.load(&space).await.expect("load").position;
    let removed: Vec<Path> = (0..MAX_TOMBSTONES)
        .map(|n| path(&format!("/gone/{n}")))
        .collect();
    let changes = SpaceChanges {
        removed,
        ..SpaceChanges::default()
    };
    store.save(&space, &changes).await.expect("save");
    // Exactly as many as it keeps: the oldest position still follows.
    assert!(
        store
            .changes_since(&space, old)
            .await
            .expect("follow")
            .is_some()
    );
    let recent = store.load(&space).await.expect("load").position;
    let one_more = SpaceChanges {
        removed: vec![path("/gone/last")],
        ..SpaceChanges::default()
    };
    store.save(&space, &one_more).await.expect("save");
    assert_eq!(
        store.changes_since(&space, old).await.expect("follow"),
        None
    );
    let since = store
        .changes_since(&space, recent)
        .await
        .expect("follow")
        .expect("known");
    assert_eq!(since.changes.removed, vec![path("/gone/last")]);
    assert_eq!(paths(&store.load(&space).await.expect("load")), ["/keep"]);
}

/// A lease goes to one handle at a time; its holder may take it again; it is per space and
/// path; once it expires another handle takes it.
pub(crate) async fn leases(a: &dyn SpaceStore, b: &dyn SpaceStore) {
    let space = key("leases");
    let listing = path("/projects");
    let minute = Duration::from_secs(60);
    assert!(a.lease(&space, &listing, minute).await.expect("lease"));
    assert!(!b.lease(&space, &listing, minute).await.expect("lease"));
    assert!(a.lease(&space, &listing, minute).await.expect("again"));
    assert!(!b.lease(&space, &listing, minute).await.expect("lease"));
    assert!(
        b.lease(&space, &path("/people"), minute)
            .await
            .expect("lease")
    );
    assert!(
        b.lease(&key("leases-other"), &listing, minute)
            .await
            .expect("lease")
    );
    // Taken again with no time left, it is free at once.
    assert!(
        a.lease(&space, &listing, Duration::ZERO)
            .await
            .expect("lease")
    );
    assert!(b.lease(&space, &listing, minute).await.expect("expired"));
    assert!(!a.lease(&space, &listing, minute).await.expect("lease"));
    // A short lease runs out by itself.
    let short = path("/short");
    assert!(
        a.lease(&space, &short, Duration::from_secs(2))
            .await
            .expect("lease")
    );
    assert!(!b.lease(&space, &short, minute).await.expect("lease"));
    let waited = Instant::now();
    while !b.lease(&space, &short, minute).await.expect("lease") {
        assert!(
            waited.elapsed() < Duration::from_secs(20),
            "the lease never expired"
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// What one handle saves, another loads and follows.
pub(crate) async fn two_handles(a: &dyn SpaceStore, b: &dyn SpaceStore) {
    let space = key("two-handles");
    a.save(&space, &writes(vec![listed("/", &["x"], 5), entry("/x")]))
        .await
        .expect("save");
    let seen = b.load(&space).await.expect("load");
    assert_eq!(paths(&seen), ["/", "/x"]);
    a.save(&space, &writes(vec![entry("/y")]))
        .await
        .expect("save");
    let since = b
        .changes_since(&space, seen.position)
        .await
        .expect("follow")
        .expect("known");
    assert_eq!(paths(&since), ["/y"]);
    assert_eq!(since.position, a.load(&space).await.expect("load").position);
}

/// Two handles saving at once lose nothing, and a follower polling meanwhile misses nothing:
/// following from 0 to the end gives exactly what a load gives.
pub(crate) async fn concurrent_saves(
    a: &dyn SpaceStore,
    b: &dyn SpaceStore,
    follower: &dyn SpaceStore,
) {
    const BATCHES: usize = 60;
    let space = key("concurrent");
    let done = std::sync::atomic::AtomicBool::new(false);
    let follow = async {
        let mut view: BTreeMap<String, SavedEntry> = BTreeMap::new();
        let mut position = StorePosition(0);
        loop {
            let finished = done.load(std::sync::atomic::Ordering::SeqCst);
            let kept = follower
                .changes_since(&space, position)
                .await
                .expect("follow")
                .expect("nothing compacted");
            for removed in &kept.changes.removed {
                view.retain(|at, _| !removed.is_ancestor_or_self_of(&path(at)));
            }
            for entry in kept.changes.entries {
                view.insert(entry.path.as_str().to_owned(), entry);
            }
            position = kept.position;
            if finished {
                return (view, position);
            }
            tokio::task::yield_now().await;
        }
    };
    let writers = async {
        tokio::join!(
            write_batches(a, &space, "a", BATCHES),
            write_batches(b, &space, "b", BATCHES)
        );
        done.store(true, std::sync::atomic::Ordering::SeqCst);
    };
    let ((view, position), ()) = tokio::join!(follow, writers);
    let kept = a.load(&space).await.expect("load");
    assert_eq!(kept.position, position);
    let loaded: Vec<&SavedEntry> = kept.changes.entries.iter().collect();
    let followed: Vec<&SavedEntry> = view.values().collect();
    assert_eq!(followed, loaded);
    for store in ["a", "b"] {
        for batch in 0..BATCHES {
            let removed = (batch + 3) % 7 == 6 && batch + 3 < BATCHES;
            let present = loaded
                .iter()
                .any(|e| e.path.as_str() == format!("/{store}/{batch}/0"));
            assert_eq!(present, !removed, "/{store}/{batch}");
        }
    }
}

/// Saves `batches` batches of entries under `/{name}`, each also rewriting `/shared` and every
/// seventh removing a subtree an earlier one wrote.
async fn write_batches(store: &dyn SpaceStore, space: &SpaceKey, name: &str, batches: usize) {
    for batch in 0..batches {
        let entries = (0..5)
            .map(|n| entry(&format!("/{name}/{batch}/{n}")))
            .chain([SavedEntry {
                description: Some(Str::from(format!("{name} {batch}"))),
                ..entry("/shared")
            }])
            .collect();
        let mut changes = writes(entries);
        if batch % 7 == 6 {
            changes
                .removed
                .push(path(&format!("/{name}/{}", batch - 3)));
        }
        store.save(space, &changes).await.expect("save");
    }
}

/// Each check of the contract as a test of its own, over the handles `$handles::<N>()` makes:
/// `(guard, [store; N])`, the guard keeping their backend alive for the test.
macro_rules! contract_tests {
    ($handles:ident) => {
        #[tokio::test]
        async fn save_and_load() {
            let (_backend, [store]) = $handles().await;
            contract::save_and_load(&store).await;
        }

        #[tokio::test]
        async fn removals() {
            let (_backend, [store]) = $handles().await;
            contract::removals(&store).await;
        }

        #[tokio::test]
        async fn evidence() {
            let (_backend, [store]) = $handles().await;
            contract::evidence(&store).await;
        }

        #[tokio::test]
        async fn follow() {
            let (_backend, [store]) = $handles().await;
            contract::follow(&store).await;
        }

        #[tokio::test]
        async fn compaction() {
            let (_backend, [store]) = $handles().await;
            contract::compaction(&store).await;
        }

        #[tokio::test]
        async fn leases() {
            let (_backend, [a, b]) = $handles().await;
            contract::leases(&a, &b).await;
        }

        #[tokio::test]
        async fn two_handles() {
            let (_backend, [a, b]) = $handles().await;
            contract::two_handles(&a, &b).await;
        }

        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn concurrent_saves() {
            let (_backend, [a, b, follower]) = $handles().await;
            contract::concurrent_saves(&a, &b, &follower).await;
        }
    };
}
