//! What the wip-client examples share: the Host they talk to, and how they end.

use std::process::ExitCode;

use wip_client::ConnectOptions;
use wip_demo::{DemoOptions, DemoServer};
use wip_model::ErrorChain;
use wip_model::escape::Message;

/// Any error an example stops on; [`finish`] prints it with its causes.
pub(crate) type Error = Box<dyn std::error::Error>;

/// The Host an example talks to: the one `--endpoint URL` or `WIP_ENDPOINT` names (with
/// `WIP_TOKEN` as its bearer token, if set), or else the demo, served in this process on a free
/// loopback port until [`Host::stop`].
pub(crate) struct Host {
    demo: Option<DemoServer>,
    endpoint: String,
    token: Option<String>,
}

impl Host {
    /// The Host the command line names, or the demo started now. `example` is the example's
    /// name, for the usage line.
    pub(crate) async fn from_args(example: &str) -> Result<Self, Error> {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let named = match args.as_slice() {
            [] => std::env::var("WIP_ENDPOINT")
                .ok()
                .filter(|url| !url.is_empty()),
            [flag, url] if flag == "--endpoint" => Some(url.clone()),
            _ => {
                return Err(format!(
                    "usage: cargo run -p wip-client --example {example} [-- --endpoint URL]"
                )
                .into());
            }
        };
        if let Some(endpoint) = named {
            // The token is for the Host the caller named; the in-process demo never sees it.
            let token = std::env::var("WIP_TOKEN")
                .ok()
                .filter(|token| !token.is_empty());
            return Ok(Self {
                demo: None,
                endpoint,
                token,
            });
        }
        let demo = wip_demo::serve("127.0.0.1:0".parse()?, DemoOptions::default()).await?;
        println!("serving the demo at {}", demo.endpoint());
        Ok(Self {
            endpoint: demo.endpoint(),
            demo: Some(demo),
            token: None,
        })
    }

    /// The Host's WIP endpoint URL.
    pub(crate) fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// The default options with the Host's token, if it has one.
    pub(crate) fn connect_options(&self) -> ConnectOptions {
        let mut options = ConnectOptions::default();
        options.http.bearer_token = self.token.clone();
        options
    }

    /// Shuts the demo down, if this process serves it.
    pub(crate) async fn stop(self) {
        if let Some(demo) = self.demo {
            demo.shutdown().await;
        }
    }
}

/// Runs an example: `run` against the Host the command line names (see [`Host::from_args`]),
/// then stops the demo if one was served, and gives the exit status [`finish`] gives.
pub(crate) async fn main(
    example: &str,
    run: impl AsyncFnOnce(&Host) -> Result<(), Error>,
) -> ExitCode {
    let host = match Host::from_args(example).await {
        Ok(host) => host,
        Err(error) => return finish(Err(error)),
    };
    let outcome = run(&host).await;
    host.stop().await;
    finish(outcome)
}

/// The exit status of an example that ended with `outcome`, after printing its error (and each
/// cause) on stderr.
fn finish(outcome: Result<(), Error>) -> ExitCode {
    let Err(error) = outcome else {
        return ExitCode::SUCCESS;
    };
    // Our errors escape the Host text they quote; Message escapes anything that slipped through.
    eprintln!("error: {}", Message(&ErrorChain(&*error).to_string()));
    ExitCode::FAILURE
}
