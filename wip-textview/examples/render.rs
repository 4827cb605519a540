//! Renders a descriptor file with the Text View: the JSON of a `wip-interface/1` descriptor, as
//! a fetch response carries it, decoded and validated strictly, then shown as an Interface
//! signature.
//!
//! ```text
//! cargo run -p wip-textview --example render
//! cargo run -p wip-textview --example render -- FILE [--interface REF] [--details]
//! ```
//!
//! With no file it renders the sample shipped beside it (`examples/data/issue.read.json`). The
//! interface reference shown is `--interface REF` in the notation (`/github::issue.read`), or
//! else the root scope and the file's name without `.json`. `--details` adds the documentation
//! details. A file larger than a response may be (64 MiB by default) is refused before it is
//! read whole. Exits non-zero with a message naming the problem on any failure.

use std::io::Read;
use std::path::Path as FilePath;
use std::process::ExitCode;

use wip_model::codec::{self, Limits};
use wip_model::escape::{Message, Quoted};
use wip_model::{ErrorChain, InterfaceName, InterfaceReference, Path};
use wip_textview::InterfaceSignature;

type Error = Box<dyn std::error::Error>;

const USAGE: &str =
    "usage: cargo run -p wip-textview --example render [-- FILE [--interface REF] [--details]]";

/// The sample rendered when no file is given.
const SAMPLE: &str = include_str!("data/issue.read.json");
/// The name the sample is shown under.
const SAMPLE_NAME: &str = "issue.read";

fn main() -> ExitCode {
    match run() {
        Ok(text) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {}", Message(&ErrorChain(&*error).to_string()));
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<String, Error> {
    let mut file = None;
    let mut interface = None;
    let mut details = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--details" => details = true,
            "--interface" => interface = Some(args.next().ok_or(USAGE)?),
            _ if arg.starts_with("--") || file.is_some() => return Err(USAGE.into()),
            _ => file = Some(arg),
        }
    }

    let name = match &file {
        Some(file) => stem(file),
        None => Some(SAMPLE_NAME.to_owned()),
    };
    let reference = match (interface, name) {
        (Some(text), _) => wip_refs::parse_interface(&text, None)
            .map_err(|error| format!("--interface {}: {}", Quoted(&text), ErrorChain(&error)))?,
        (None, Some(name)) => InterfaceReference::new(
            Path::root(),
            InterfaceName::new(name.as_str()).map_err(|error| {
                format!(
                    "the file's name {} is no interface name ({error}); pass --interface REF",
                    Quoted(&name)
                )
            })?,
        ),
        (None, None) => return Err("the file has no name to show; pass --interface REF".into()),
    };
    let limits = Limits::default();
    let body = match &file {
        Some(file) => read_bounded(FilePath::new(file), &limits)?,
        None => SAMPLE.as_bytes().to_vec(),
    };
    let descriptor = codec::decode_descriptor(&body, &limits).map_err(|error| match &file {
        Some(file) => format!("{file}: {}", ErrorChain(&error)),
        None => format!("the sample: {}", ErrorChain(&error)),
    })?;
    Ok(InterfaceSignature::new(&reference, &descriptor)
        .with_details(details)
        .to_string())
}

/// The file's bytes, refused if they pass the response byte limit; never more than one byte
/// past the limit is read.
fn read_bounded(file: &FilePath, limits: &Limits) -> Result<Vec<u8>, Error> {
    let shown = file.display();
    let opened = std::fs::File::open(file).map_err(|error| format!("{shown}: {error}"))?;
    let most = limits.max_response_bytes();
    let mut body = Vec::new();
    opened
        .take(most as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|error| format!("{shown}: {error}"))?;
    if body.len() > most {
        return Err(
            format!("{shown}: larger than {most} bytes, the most a descriptor may have").into(),
        );
    }
    Ok(body)
}

/// The file's name without its `.json` extension.
fn stem(file: &str) -> Option<String> {
    let name = FilePath::new(file).file_name()?.to_str()?;
    Some(name.strip_suffix(".json").unwrap_or(name).to_owned())
}
