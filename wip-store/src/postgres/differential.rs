//! The PostgreSQL store against the embedded store's model of a space ([`Snapshot`]): the
//! same batches, drawn at random over a few paths so that removals, rewrites and evidence
//! meet, must leave both with the same entries, interfaces and positions, and give every
//! follower the same changes.

#[allow(
    dead_code,
    reason = "the harness serves several test crates, each using a part"
)]
#[path = "../../tests/support/postgres.rs"]
mod harness;

use wip_client::discover::DiscoverOperation;
use wip_client::space::{ObservedAt, SavedEntry, SavedInterface, SavedListing, SpaceChanges};
use wip_client::{SpaceKey, SpaceStore, StorePosition};
use wip_model::{InterfaceName, InterfaceReference, Path, Str};

use super::PostgresStore;
use crate::StoreOptions;
use crate::snapshot::Snapshot;

/// A small deterministic generator (xorshift64*), so that a failure replays.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn path(&mut self) -> Path {
        let mut text = String::new();
        for _ in 0..self.below(4) {
            text.push('/');
            text.push(['a', 'b', 'c'][self.below(3)]);
        }
        if text.is_empty() {
            text.push('/');
        }
        Path::new(text).expect("a canonical path")
    }

    fn entry(&mut self) -> SavedEntry {
        let path = self.path();
        let listing = self.chance(60).then(|| SavedListing {
            children: ["a", "b", "c", "x"]
                .iter()
                .filter(|_| self.chance(50))
                .map(|&name| Str::from(name))
                .collect(),
            observed_at: ObservedAt::from_millis(self.next() % 1_000_000),
            marked: self.chance(20),
        });
        SavedEntry {
            name: Str::from(path.last_segment().unwrap_or("")),
            description: self
                .chance(50)
                .then(|| Str::from(format!("d{}", self.below(5)))),
            interfaces: (0..self.below(3)).map(|_| self.interface()).collect(),
            discoverable: self.chance(70),
            listing,
            path,
        }
    }

    fn interface(&mut self) -> InterfaceReference {
        let scope = self.path();
        let name = InterfaceName::new(["i", "j"][self.below(2)]).expect("a name");
        InterfaceReference::new(scope, name)
    }

    /// Up to `most` paths, each kept at `percent` chances in a hundred.
    fn paths(&mut self, most: usize, percent: u64) -> Vec<Path> {
        let mut paths = Vec::new();
        for _ in 0..self.below(most + 1) {
            if self.chance(percent) {
                paths.push(self.path());
            }
        }
        paths
    }

    fn batch(&mut self) -> SpaceChanges {
        SpaceChanges {
            removed: self.paths(2, 40),
            entries: (0..self.below(6)).map(|_| self.entry()).collect(),
            interfaces: (0..self.below(2))
                .map(|_| SavedInterface {
                    reference: self.interface(),
                    operations: vec![DiscoverOperation {
                        name: format!("op{}", self.below(3)),
                        summary: self.chance(50).then(|| "s".to_owned()),
                    }],
                })
                .collect(),
            returned: self.paths(3, 70),
            changed: self.paths(2, 50),
        }
    }
}

#[tokio::test]
async fn postgres_keeps_what_the_snapshot_keeps() {
    let server = harness::TestPostgres::start();
    let url = server.create_database("differential");
    let store = PostgresStore::connect(&url, StoreOptions::default())
        .await
        .expect("connect");
    let space = SpaceKey::new("differential").expect("a key");
    let mut model = Snapshot::default();
    let mut draw = Draw(0x5eed_0f5a_5eed);
    let mut positions = vec![StorePosition(0)];
    for round in 0..300 {
        let batch = draw.batch();
        model.apply(&batch);
        store.save(&space, &batch).await.expect("save");
        let loaded = store.load(&space).await.expect("load");
        assert_eq!(
            loaded,
            model.clone().into_whole(),
            "round {round}: load after {batch:?}"
        );
        positions.push(loaded.position);
        for _ in 0..3 {
            let from = positions[draw.below(positions.len())];
            let followed = store.changes_since(&space, from).await.expect("follow");
            assert_eq!(followed, model.since(from), "round {round}: since {from:?}");
        }
    }
    let past = StorePosition(model.last_seq + 1);
    assert_eq!(
        store.changes_since(&space, past).await.expect("follow"),
        None
    );
}
