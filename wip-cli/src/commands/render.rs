//! `wip render object FILE [--path P]` and `wip render interface FILE --scope S --name N
//! [--details]`: the Text View of wire JSON read from a file or stdin, checked as strictly as a
//! client reads a Host's answer.
//!
//! JSON: `{"text": <the signature>}`.

use std::io::Read;
use std::path::Path as FilePath;

use serde_json::json;
use wip_model::codec::{Limits, decode_descriptor, decode_object};
use wip_model::{ErrorChain, InterfaceReference};
use wip_textview::{InterfaceSignature, ObjectSignature};

use crate::cli::Format;
use crate::commands::{parse_interface_name, parse_path};
use crate::failure::{Failure, Result};
use crate::output::{print_json, print_text};

pub(crate) fn object(format: Format, file: &FilePath, path: Option<&str>) -> Result<()> {
    let body = read(file)?;
    let object = decode_object(&body, &Limits::default()).map_err(|error| {
        Failure::input(format!(
            "{} is not a valid Object: {}",
            file.display(),
            ErrorChain(&error)
        ))
    })?;
    let path = path.map(|path| parse_path("--path", path)).transpose()?;
    let mut text = String::new();
    let _ = ObjectSignature::new(&object, path.as_ref()).write_to(&mut text);
    show(format, text)
}

pub(crate) fn interface(
    format: Format,
    file: &FilePath,
    scope: &str,
    name: &str,
    details: bool,
) -> Result<()> {
    let body = read(file)?;
    let descriptor = decode_descriptor(&body, &Limits::default()).map_err(|error| {
        Failure::input(format!(
            "{} is not a valid Interface Descriptor: {}",
            file.display(),
            ErrorChain(&error)
        ))
    })?;
    let scope = parse_path("--scope", scope)?;
    let name = parse_interface_name(name)?;
    let reference = InterfaceReference::new(scope, name);
    let mut text = String::new();
    let _ = InterfaceSignature::new(&reference, &descriptor)
        .with_details(details)
        .write_to(&mut text);
    show(format, text)
}

fn show(format: Format, text: String) -> Result<()> {
    match format {
        Format::Text => print_text(&text),
        Format::Json => print_json(&json!({"text": text})),
    }
}

/// The bytes of `file`, or of stdin for `-`, at most the default response limit.
fn read(file: &FilePath) -> Result<Vec<u8>> {
    let limit = Limits::default().max_response_bytes();
    let mut body = Vec::new();
    let read = if file.as_os_str() == "-" {
        std::io::stdin()
            .lock()
            .take(limit as u64 + 1)
            .read_to_end(&mut body)
    } else {
        std::fs::File::open(file)
            .and_then(|opened| opened.take(limit as u64 + 1).read_to_end(&mut body))
    };
    read.map_err(|error| Failure::input(format!("cannot read {}: {error}", file.display())))?;
    if body.len() > limit {
        return Err(Failure::input(format!(
            "{} is larger than {limit} bytes",
            file.display()
        )));
    }
    Ok(body)
}
