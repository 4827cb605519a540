//! `cargo xtask package`: packs every crate of the workspace that may be published, as
//! `cargo publish` would, and builds each from its package; first it checks what a registry page
//! and docs.rs show of each.
//!
//! The crates packed are those whose manifest does not say `publish = false`: the library
//! crates. The workspace's default is `publish = false`, so the programs (`wip-cli`, `wip-load`,
//! `xtask`) stay out until their manifest says otherwise; `fuzz/` and `benches/discover/` are
//! workspaces of their own. Packing them together lets cargo resolve each crate's dependencies
//! on the others from the packages just made (a local overlay of the registry), so nothing is
//! published and nothing but the registry is reached; with `CARGO_NET_OFFLINE=true` and a
//! filled cache, not even that. The packages are built in `package-verify` under the target
//! directory, our crates from scratch each time.
//!
//! Before packing, each crate must have a description, license, repository, documentation URL,
//! README, one to five keywords and categories, a `[package.metadata.docs.rs]` table naming
//! only features the crate has, and a `# Features` section in its `lib.rs` docs that names each
//! of its features.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde_json::Value;

use crate::metadata::{self, cargo};

/// What crates.io takes at most of keywords, and of categories.
const MOST_KEYWORDS: usize = 5;
const MOST_CATEGORIES: usize = 5;

pub(crate) fn run(args: &[String]) -> Result<()> {
    if !args.is_empty() {
        bail!("usage: cargo xtask package");
    }
    let workspace = metadata::workspace(&[])?;
    let packages: Vec<&Value> = workspace["packages"]
        .as_array()
        .context("no packages in cargo metadata output")?
        .iter()
        .filter(|package| publishable(package))
        .collect();
    if packages.is_empty() {
        bail!("no crate of the workspace may be published");
    }
    let mut problems = Vec::new();
    for package in &packages {
        problems.extend(metadata_problems(package)?);
    }
    if !problems.is_empty() {
        bail!(
            "the crates are not ready to package:\n  {}",
            problems.join("\n  ")
        );
    }
    // Verified in a target directory of its own, without an earlier run's builds of our
    // crates: cargo takes a build of a registry crate as final once made, so a package of ours
    // built there by an earlier run (the same name and version, other code) would stand in for
    // this one's. The dependencies' builds stay.
    let verify = metadata::target_directory(&workspace)?.join("package-verify");
    let names: Vec<&str> = packages
        .iter()
        .filter_map(|package| package["name"].as_str())
        .collect();
    forget_earlier_builds(&verify, &names)?;
    let verify = verify
        .to_str()
        .context("the target directory's path is not UTF-8")?
        .to_owned();
    let mut args = vec![
        "package",
        "--locked",
        "--target-dir",
        &verify,
        // A check of the tree as it stands, committed or not; nothing is published.
        "--allow-dirty",
        // The build that verifies each package is thrown away: no debug info makes it quicker
        // and smaller on disk.
        "--config",
        "profile.dev.debug=false",
    ];
    for package in &packages {
        let name = package["name"]
            .as_str()
            .context("a package without a name")?;
        let version = package["version"].as_str().unwrap_or_default();
        forget_earlier_packages(name, version)?;
        args.push("-p");
        args.push(name);
    }
    cargo(&args, &[])
}

/// Removes what an earlier `cargo package` of `name` `version` left in cargo's home: the
/// verification reads the other crates' packages through a local registry, and cargo reuses a
/// package it unpacked there before when the version is the same, so a crate would be built
/// against an earlier state of its dependencies. A local registry's folders are named with an
/// empty host: `-` and a hash.
fn forget_earlier_packages(name: &str, version: &str) -> Result<()> {
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo")));
    let Some(home) = home else {
        return Ok(());
    };
    for (folder, entry) in [
        ("src", format!("{name}-{version}")),
        ("cache", format!("{name}-{version}.crate")),
    ] {
        let Ok(registries) = std::fs::read_dir(home.join("registry").join(folder)) else {
            continue;
        };
        for registry in registries.flatten() {
            if !registry.file_name().to_string_lossy().starts_with('-') {
                continue;
            }
            let stale = registry.path().join(&entry);
            let removed = if stale.is_dir() {
                std::fs::remove_dir_all(&stale)
            } else if stale.is_file() {
                std::fs::remove_file(&stale)
            } else {
                continue;
            };
            removed.with_context(|| format!("removing {}", stale.display()))?;
        }
    }
    Ok(())
}

/// Removes the builds of the crates `names` from the target directory `verify`, in every
/// profile's folder: their fingerprints, libraries and build scripts' output.
fn forget_earlier_builds(verify: &Path, names: &[&str]) -> Result<()> {
    let Ok(profiles) = std::fs::read_dir(verify) else {
        return Ok(());
    };
    let prefixes: Vec<String> = names
        .iter()
        .flat_map(|name| {
            let underscored = name.replace('-', "_");
            [
                format!("{name}-"),
                format!("{underscored}-"),
                format!("lib{underscored}-"),
            ]
        })
        .collect();
    for profile in profiles.flatten() {
        for folder in [".fingerprint", "deps", "build"] {
            let Ok(entries) = std::fs::read_dir(profile.path().join(folder)) else {
                continue;
            };
            for entry in entries.flatten() {
                let file_name = entry.file_name();
                let file_name = file_name.to_string_lossy();
                if !prefixes
                    .iter()
                    .any(|prefix| file_name.starts_with(prefix.as_str()))
                {
                    continue;
                }
                let path = entry.path();
                let removed = if path.is_dir() {
                    std::fs::remove_dir_all(&path)
                } else {
                    std::fs::remove_file(&path)
                };
                removed.with_context(|| format!("removing {}", path.display()))?;
            }
        }
    }
    Ok(())
}

/// Whether `package` may be published: `publish` is absent (any registry) or names one;
/// `publish = false` is an empty list.
fn publishable(package: &Value) -> bool {
    package["publish"]
        .as_array()
        .is_none_or(|registries| !registries.is_empty())
}

/// What `package` lacks for a registry page, docs.rs and its crate docs, one line each.
fn metadata_problems(package: &Value) -> Result<Vec<String>> {
    let name = package["name"]
        .as_str()
        .context("a package without a name")?;
    let mut problems = Vec::new();
    for field in [
        "description",
        "license",
        "repository",
        "documentation",
        "readme",
    ] {
        if package[field].as_str().is_none_or(str::is_empty) {
            problems.push(format!("{name}: no {field}"));
        }
    }
    for (field, most) in [("keywords", MOST_KEYWORDS), ("categories", MOST_CATEGORIES)] {
        let count = package[field].as_array().map_or(0, Vec::len);
        if !(1..=most).contains(&count) {
            problems.push(format!(
                "{name}: {count} {field}; crates.io takes 1 to {most}"
            ));
        }
    }
    let features = package["features"].as_object();
    let has = |feature: &str| features.is_some_and(|features| features.contains_key(feature));
    // `[package.metadata.docs.rs]` is the table `rs` inside the table `docs`.
    match package["metadata"]["docs"]["rs"].as_object() {
        None => problems.push(format!("{name}: no [package.metadata.docs.rs]")),
        Some(docs_rs) => {
            for feature in docs_rs
                .get("features")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let feature = feature.as_str().unwrap_or_default();
                if !has(feature) {
                    problems.push(format!(
                        "{name}: docs.rs builds feature {feature:?}, which it lacks"
                    ));
                }
            }
        }
    }
    if let Some(lib) = library_source(package) {
        let source = std::fs::read_to_string(lib).with_context(|| format!("reading {lib}"))?;
        let mut wanted: Vec<&str> = features
            .into_iter()
            .flat_map(|features| features.keys())
            .map(String::as_str)
            .filter(|feature| *feature != "default")
            .collect();
        wanted.sort_unstable();
        match features_section(&source) {
            None => problems.push(format!("{name}: {lib} has no `# Features` section")),
            Some(section) => {
                for feature in wanted {
                    if !section.contains(&format!("`{feature}`")) {
                        problems.push(format!(
                            "{name}: {lib}'s Features section omits `{feature}`"
                        ));
                    }
                }
            }
        }
    }
    Ok(problems)
}

/// The path of `package`'s library root, if it has a library.
fn library_source(package: &Value) -> Option<&str> {
    package["targets"].as_array()?.iter().find(|target| {
        target["kind"]
            .as_array()
            .is_some_and(|kinds| kinds.iter().any(|kind| kind == "lib"))
    })?["src_path"]
        .as_str()
}

/// The `# Features` section of the crate docs (`//!` lines) in `source`: the lines after its
/// heading, up to the next heading of the same level or the end of the crate docs.
fn features_section(source: &str) -> Option<String> {
    let mut docs = source
        .lines()
        .map_while(|line| line.strip_prefix("//!"))
        .map(|line| line.strip_prefix(' ').unwrap_or(line));
    docs.find(|line| *line == "# Features")?;
    let section: Vec<&str> = docs.take_while(|line| !line.starts_with("# ")).collect();
    Some(section.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package(lib: &str) -> Value {
        serde_json::json!({
            "name": "wip-x", "publish": null,
            "description": "d", "license": "MIT", "repository": "https://r",
            "documentation": "https://docs.rs/wip-x", "readme": "README.md",
            "keywords": ["wip"], "categories": ["encoding"],
            "features": {"default": [], "serde": []},
            "metadata": {"docs": {"rs": {"features": ["serde"]}}},
            "targets": [{"kind": ["lib"], "src_path": lib}],
        })
    }

    #[test]
    fn only_crates_without_publish_false_are_packed() {
        assert!(publishable(&serde_json::json!({"publish": null})));
        assert!(publishable(&serde_json::json!({"publish": ["crates-io"]})));
        assert!(!publishable(&serde_json::json!({"publish": []})));
    }

    #[test]
    fn the_features_section_is_read_from_the_crate_docs() {
        let source = "//! A crate.\n//!\n//! # Features\n//!\n//! - `serde`: conversions.\n//!\n//! # Limits\n//! - `fuzzing`\n\nmod x;\n";
        let section = features_section(source).expect("a section");
        assert!(section.contains("`serde`"));
        assert!(!section.contains("fuzzing"), "{section}");
        assert_eq!(features_section("//! A crate.\n//! ## Features\n"), None);
        assert_eq!(features_section("/// # Features\n"), None);
    }

    #[test]
    fn missing_metadata_and_undocumented_features_are_named() {
        let dir = std::env::temp_dir().join(format!("xtask-package-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let lib = dir.join("lib.rs");
        let lib = lib.to_str().expect("a UTF-8 path");

        std::fs::write(lib, "//! # Features\n//!\n//! - `serde`: conversions.\n").unwrap();
        assert_eq!(
            metadata_problems(&package(lib)).unwrap(),
            Vec::<String>::new()
        );

        let mut bare = package(lib);
        bare["keywords"] = serde_json::json!(["a", "b", "c", "d", "e", "f"]);
        bare["documentation"] = Value::Null;
        bare["metadata"]["docs"]["rs"]["features"] = serde_json::json!(["fake"]);
        bare["features"]["fuzzing"] = serde_json::json!([]);
        let problems = metadata_problems(&bare).unwrap();
        let expected = [
            "wip-x: no documentation",
            "wip-x: 6 keywords; crates.io takes 1 to 5",
            "wip-x: docs.rs builds feature \"fake\", which it lacks",
        ];
        for expected in expected {
            assert!(problems.iter().any(|p| p == expected), "{problems:?}");
        }
        assert!(
            problems
                .iter()
                .any(|p| p.ends_with("Features section omits `fuzzing`"))
        );

        std::fs::write(lib, "//! No features here.\n").unwrap();
        let problems = metadata_problems(&package(lib)).unwrap();
        assert!(
            problems[0].ends_with("has no `# Features` section"),
            "{problems:?}"
        );
        std::fs::remove_dir_all(&dir).expect("removing the temporary directory");
    }
}
