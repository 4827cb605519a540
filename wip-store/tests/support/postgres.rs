//! A real PostgreSQL for tests: a cluster of its own in a temporary directory, listening on a
//! free loopback port (and a Unix socket in that directory), stopped and removed on drop.
//!
//! Only the standard library and PostgreSQL's own programs, so any crate's tests can include
//! it: `#[path = "../../wip-store/tests/support/postgres.rs"] mod postgres;` from a file in
//! `tests/`, then `let server = postgres::TestPostgres::start();` and
//! `let url = server.create_database("name");`.
//!
//! The programs are looked for in `$WIP_POSTGRES_BIN`, then in Debian's
//! `/usr/lib/postgresql/VERSION/bin` (newest first), then on `PATH`; `cargo xtask ci` installs
//! Debian's `postgresql` package when they are missing. PostgreSQL refuses to run as root, so
//! as root the cluster belongs to the `postgres` user (which the package creates) and its
//! server programs run through `runuser`.
//!
//! A cluster starts in about a second; each test takes its own, so tests neither wait for one
//! another nor see one another's data.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// One running PostgreSQL cluster.
#[derive(Debug)]
pub(crate) struct TestPostgres {
    /// The temporary directory: the data directory, the log and the socket.
    directory: PathBuf,
    bin: PathBuf,
    port: u16,
    /// Whether the server programs run as the `postgres` user (when this process is root).
    as_postgres: bool,
}

impl TestPostgres {
    /// Makes and starts a cluster whose superuser is `postgres`, with trust authentication
    /// (it listens on loopback only); panics, saying why, when it cannot.
    pub(crate) fn start() -> Self {
        let bin = server_programs();
        let as_postgres = is_root();
        let directory = temporary_directory();
        let mut server = Self {
            directory,
            bin,
            port: 0,
            as_postgres,
        };
        if as_postgres {
            let id = Command::new("id").args(["-u", "postgres"]).output();
            if !id.is_ok_and(|output| output.status.success()) {
                panic!(
                    "there is no `postgres` user to run PostgreSQL as (it refuses root): run \
                     `cargo xtask ci`, which installs Debian's postgresql package"
                );
            }
            let chown = Command::new("chown")
                .arg("postgres:postgres")
                .arg(&server.directory)
                .output();
            check("chown", chown);
        }
        let data = server.data();
        let initdb = server
            .server_command("initdb")
            .arg("-D")
            .arg(&data)
            .args(["-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C"])
            .args(["--no-sync", "--no-instructions"])
            .output();
        check("initdb", initdb);
        // A free port can be taken by someone else before the server binds it: try another.
        for attempt in 1..=5 {
            server.port = free_port();
            if server.try_start() {
                return server;
            }
            if attempt == 5 {
                let log = std::fs::read_to_string(server.directory.join("log")).unwrap_or_default();
                panic!("PostgreSQL did not start; its log:\n{log}");
            }
        }
        unreachable!("the loop returns or panics")
    }

    /// The URL of `database` as the superuser, over TCP on loopback.
    pub(crate) fn url(&self, database: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{database}", self.port)
    }

    /// The port the server listens on.
    pub(crate) fn port(&self) -> u16 {
        self.port
    }

    /// Creates the database `name` and returns its URL.
    pub(crate) fn create_database(&self, name: &str) -> String {
        let created = Command::new(self.bin.join("createdb"))
            .args([
                "-h",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-U",
                "postgres",
            ])
            .arg(name)
            .output();
        check("createdb", created);
        self.url(name)
    }

    /// Runs `sql` in `database` through `psql` and returns what it printed, unaligned and
    /// without headers (one row per line, columns separated by `|`).
    pub(crate) fn psql(&self, database: &str, sql: &str) -> String {
        let output = Command::new(self.bin.join("psql"))
            .args([
                "-h",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-U",
                "postgres",
            ])
            .args([
                "-X",
                "-A",
                "-t",
                "-v",
                "ON_ERROR_STOP=1",
                "-d",
                database,
                "-c",
                sql,
            ])
            .output();
        let output = check("psql", output);
        String::from_utf8_lossy(&output.stdout)
            .trim_end()
            .to_owned()
    }

    /// Stops the server (connections are closed); [`start_again`](Self::start_again) brings
    /// it back on the same port with the same data.
    pub(crate) fn stop(&self) {
        let stopped = self
            .server_command("pg_ctl")
            .arg("-D")
            .arg(self.data())
            .args(["-m", "fast", "-w", "stop"])
            .output();
        check("pg_ctl stop", stopped);
    }

    /// Starts the server again after [`stop`](Self::stop).
    pub(crate) fn start_again(&self) {
        if !self.try_start() {
            let log = std::fs::read_to_string(self.directory.join("log")).unwrap_or_default();
            panic!("PostgreSQL did not start again; its log:\n{log}");
        }
    }

    fn try_start(&self) -> bool {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off",
            self.port,
            self.directory.display()
        );
        self.server_command("pg_ctl")
            .arg("-D")
            .arg(self.data())
            .arg("-l")
            .arg(self.directory.join("log"))
            .args(["-w", "-t", "60", "-o", &options, "start"])
            .output()
            .is_ok_and(|output| output.status.success())
    }

    fn data(&self) -> PathBuf {
        self.directory.join("data")
    }

    /// A server program, as the `postgres` user when this process is root.
    fn server_command(&self, program: &str) -> Command {
        let program = self.bin.join(program);
        let mut command = if self.as_postgres {
            let mut runuser = Command::new("runuser");
            runuser.args(["-u", "postgres", "--"]).arg(program);
            runuser
        } else {
            Command::new(program)
        };
        // The programs may not read root's working directory; the locale may not exist.
        command.current_dir(&self.directory).env("LC_ALL", "C");
        command
    }
}

impl Drop for TestPostgres {
    fn drop(&mut self) {
        if self.data().join("postmaster.pid").exists() {
            let _ = self
                .server_command("pg_ctl")
                .arg("-D")
                .arg(self.data())
                .args(["-m", "immediate", "-w", "stop"])
                .output();
        }
        let _ = std::fs::remove_dir_all(&self.directory);
    }
}

/// The directory of initdb, pg_ctl, createdb and psql.
fn server_programs() -> PathBuf {
    let has_all = |directory: &Path| {
        ["initdb", "pg_ctl", "createdb", "psql"]
            .iter()
            .all(|program| directory.join(program).is_file())
    };
    if let Some(directory) = std::env::var_os("WIP_POSTGRES_BIN").map(PathBuf::from) {
        if has_all(&directory) {
            return directory;
        }
        panic!(
            "WIP_POSTGRES_BIN={} does not hold initdb, pg_ctl, createdb and psql",
            directory.display()
        );
    }
    let mut debian: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|version| {
            let number = version.file_name().to_str()?.parse().ok()?;
            Some((number, version.path().join("bin")))
        })
        .filter(|(_, bin)| has_all(bin))
        .collect();
    debian.sort();
    if let Some((_, bin)) = debian.pop() {
        return bin;
    }
    let on_path = std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|directory| directory.join("initdb"))
        .find(|initdb| initdb.is_file())
        .and_then(|initdb| initdb.canonicalize().ok())
        .and_then(|initdb| initdb.parent().map(Path::to_path_buf))
        .filter(|bin| has_all(bin));
    on_path.unwrap_or_else(|| {
        panic!(
            "PostgreSQL's programs (initdb, pg_ctl, createdb, psql) are not installed: run \
             `cargo xtask ci`, which installs Debian's postgresql package, or set \
             WIP_POSTGRES_BIN to their directory"
        )
    })
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|output| output.stdout.trim_ascii() == b"0")
}

fn temporary_directory() -> PathBuf {
    static MADE: AtomicUsize = AtomicUsize::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.subsec_nanos());
    let directory = std::env::temp_dir().join(format!(
        "wip-pg-{}-{}-{nanos}",
        std::process::id(),
        MADE.fetch_add(1, Ordering::Relaxed)
    ));
    if let Err(error) = std::fs::create_dir(&directory) {
        panic!("cannot make {}: {error}", directory.display());
    }
    directory
}

/// A port nobody listens on now, on loopback.
fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("binding a loopback port");
    listener.local_addr().expect("a bound address").port()
}

/// The output of a program that must succeed; panics with its stderr otherwise.
fn check(what: &str, output: std::io::Result<Output>) -> Output {
    match output {
        Ok(output) if output.status.success() => output,
        Ok(output) => panic!(
            "{what} failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ),
        Err(error) => panic!("{what} could not run: {error}"),
    }
}
