//! The embedded store: the shared `SpaceStore` suite on two handles of one directory, and what
//! only files can do to it (a damaged, cut or foreign file; the size cap; the modes).

#[allow(dead_code, reason = "shared with other test crates, each using a part")]
#[path = "support/contract.rs"]
#[macro_use]
mod contract;

use std::path::PathBuf;

use wip_client::space::SavedEntry;
use wip_client::{SpaceKey, SpaceStore};
use wip_store::{EmbeddedStore, StoreOptions};

/// A fresh directory under the system's temporary one, removed when dropped.
struct Folder(PathBuf);

impl Folder {
    fn new(name: &str) -> Self {
        let path = std::env::temp_dir().join(format!(
            "wip-store-{name}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&path);
        Self(path)
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn key(n: u32) -> SpaceKey {
    SpaceKey::new(format!("space{n}")).expect("a key")
}

fn store(folder: &Folder) -> EmbeddedStore {
    EmbeddedStore::open(&folder.0, StoreOptions::default()).expect("opens")
}

/// A way to damage a store file's bytes.
type Damage = fn(&mut Vec<u8>);

/// A fresh directory and `N` handles on it, as `N` processes would open it.
async fn handles<const N: usize>() -> (Folder, [EmbeddedStore; N]) {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let folder = Folder::new(&format!("contract-{n}"));
    let stores = std::array::from_fn(|_| store(&folder));
    (folder, stores)
}

contract_tests!(handles);

fn entry(at: &str) -> SavedEntry {
    contract::entry(at)
}

fn written(entries: Vec<SavedEntry>) -> wip_client::space::SpaceChanges {
    contract::writes(entries)
}

#[tokio::test]
async fn an_unreadable_file_is_set_aside_and_the_space_starts_again() {
    let folder = Folder::new("unreadable");
    let store = store(&folder);
    let space = key(1);
    let file = folder.0.join("space1.space");
    let damage: [(&str, Damage); 4] = [
        ("cut short", |bytes| bytes.truncate(bytes.len() / 2)),
        ("a flipped byte", |bytes| {
            let last = bytes.len() - 1;
            bytes[last] ^= 1;
        }),
        ("another version", |bytes| bytes[8] = 99),
        ("not a store file", |bytes| *bytes = b"hello".to_vec()),
    ];
    for (case, damage) in damage {
        store
            .save(&space, &written(vec![entry("/a")]))
            .await
            .expect("save");
        let mut bytes = std::fs::read(&file).expect("the space file");
        damage(&mut bytes);
        std::fs::write(&file, bytes).expect("write");
        let kept = store
            .load(&space)
            .await
            .expect("an unreadable file is no error");
        assert!(kept.changes.is_empty(), "{case}: nothing wrong is read");
        assert!(!file.exists(), "{case}: the file was set aside");
        // The next save starts the space again.
        store
            .save(&space, &written(vec![entry("/b")]))
            .await
            .expect("save");
        let kept = store.load(&space).await.expect("load");
        assert_eq!(kept.changes.entries.len(), 1, "{case}");
        std::fs::remove_file(&file).expect("start the next case empty");
    }
    let set_aside = std::fs::read_dir(&folder.0)
        .expect("list")
        .filter_map(Result::ok)
        .filter(|entry| entry.file_name().to_string_lossy().contains(".set-aside-"))
        .count();
    assert!(
        set_aside >= 1,
        "set-aside files are kept for a person to look at"
    );
}

#[tokio::test]
async fn a_write_cut_off_before_its_rename_leaves_the_kept_space_whole() {
    let folder = Folder::new("cut-write");
    let store = store(&folder);
    let space = key(1);
    store
        .save(&space, &written(vec![entry("/a")]))
        .await
        .expect("save");
    // A writer killed mid-write leaves its temporary file, never a half-written space.
    std::fs::write(folder.0.join("space1.space.tmp"), b"WIPSPACE half").expect("write");
    let kept = store.load(&space).await.expect("load");
    assert_eq!(kept.changes.entries.len(), 1);
    store
        .save(&space, &written(vec![entry("/b")]))
        .await
        .expect("the next writer replaces the temporary file");
    assert_eq!(
        store
            .load(&space)
            .await
            .expect("load")
            .changes
            .entries
            .len(),
        2
    );
}

#[tokio::test]
async fn past_the_size_cap_the_spaces_used_least_recently_go() {
    let folder = Folder::new("cap");
    let size_of = |n: u32| {
        std::fs::metadata(folder.0.join(format!("space{n}.space")))
            .map(|m| m.len())
            .ok()
    };
    let batch = written((0..50).map(|n| entry(&format!("/e/{n}"))).collect());
    let mut options = StoreOptions::default();
    {
        let probe = store(&folder);
        probe.save(&key(0), &batch).await.expect("save");
    }
    let one = size_of(0).expect("a space file");
    std::fs::remove_dir_all(&folder.0).expect("start again");
    // Room for two spaces, not three.
    options.max_bytes = one * 2 + one / 2;
    let store = EmbeddedStore::open(&folder.0, options).expect("opens");
    for n in 1..=2 {
        store.save(&key(n), &batch).await.expect("save");
    }
    // Space 1 is used again, so space 2 is the least recently used when space 3 comes.
    store.load(&key(1)).await.expect("load");
    store.save(&key(3), &batch).await.expect("save");
    assert!(size_of(1).is_some(), "used recently: kept");
    assert_eq!(size_of(2), None, "least recently used: dropped");
    assert!(size_of(3).is_some(), "just saved: kept");
}

#[cfg(unix)]
#[tokio::test]
async fn files_are_private_to_their_user() {
    use std::os::unix::fs::PermissionsExt;

    let folder = Folder::new("modes");
    let store = store(&folder);
    store
        .save(&key(1), &written(vec![entry("/a")]))
        .await
        .expect("save");
    store
        .lease(
            &key(1),
            &contract::path("/a"),
            std::time::Duration::from_secs(1),
        )
        .await
        .expect("lease");
    let mode = |path: PathBuf| {
        std::fs::metadata(path)
            .expect("exists")
            .permissions()
            .mode()
            & 0o777
    };
    assert_eq!(mode(folder.0.clone()), 0o700);
    for file in ["space1.space", "space1.lock", "space1.leases"] {
        assert_eq!(mode(folder.0.join(file)), 0o600, "{file}");
    }
}
