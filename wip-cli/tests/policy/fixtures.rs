//! What the policy tests share: the sample Host, and the policy files they give `wip`, written
//! in a folder of the test process under cargo's temporary directory for tests (`target/tmp`).

use std::path::PathBuf;

use wip_demo::{DemoOptions, DemoServer};

use crate::common::Error;

/// The sample Worldspace on a loopback port.
pub(crate) async fn demo() -> Result<DemoServer, Error> {
    Ok(wip_demo::serve("127.0.0.1:0".parse()?, DemoOptions::default()).await?)
}

/// A policy for the sample tracker: its issues' reads, and no lifecycle change in /projects/wip.
pub(crate) const POLICY: &str = r##"# The sample tracker, read freely; no issue of /projects/wip changes state.
reads = ["/::issue.read#*", '/::"issue comments"#read']
deny = ['/projects/wip::"issue::lifecycle"#*']
"##;

/// Writes `text` to a file of this test process named `name`, and returns its path.
pub(crate) fn policy_file(name: &str, text: &str) -> Result<PathBuf, Error> {
    let directory = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("wip-policy-{}", std::process::id()));
    std::fs::create_dir_all(&directory)?;
    let file = directory.join(name);
    std::fs::write(&file, text)?;
    Ok(file)
}
