//! Our codec against wip-http 0.2.0's on the same bytes: decode and encode of a 10,000-object
//! observe response and of a fetch response with a 200-operation descriptor.
//!
//! `cargo xtask bench` prints our time over wip-http's for each group.

mod data;

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use wip_http::http;
use wip_model::codec::{self, Limits};
use wip_upstream::Upstream;

fn upstream_limits() -> wip_http::Limits {
    let limits = Limits::default();
    wip_http::Limits::new(
        limits.max_request_bytes(),
        limits.max_response_bytes(),
        limits.max_nesting(),
    )
    .expect("the default limits are valid")
}

fn json_response(body: Vec<u8>) -> http::Response<Vec<u8>> {
    http::Response::builder()
        .status(200)
        .header("content-type", "application/json; charset=utf-8")
        .body(body)
        .expect("a valid response")
}

fn observe(c: &mut Criterion) {
    let limits = Limits::default();
    let (request, tree) = data::observe();
    let body = codec::encode_observe_response(&request, &tree, &limits).expect("encodes");
    let their_request = request.to_upstream();
    let their_tree = tree.to_upstream();
    let response = json_response(body.clone());

    let mut group = c.benchmark_group("observe_decode");
    group.throughput(Throughput::Bytes(body.len() as u64));
    group.bench_function("wip_model", |b| {
        b.iter(|| codec::decode_observe_response(&request, black_box(&body), &limits).unwrap())
    });
    group.bench_function("wip_http", |b| {
        b.iter(|| {
            wip_http::decode_observe_response(
                &their_request,
                black_box(&response),
                upstream_limits(),
            )
            .unwrap()
        })
    });
    group.finish();

    let mut group = c.benchmark_group("observe_encode");
    group.throughput(Throughput::Bytes(body.len() as u64));
    group.bench_function("wip_model", |b| {
        b.iter(|| codec::encode_observe_response(&request, black_box(&tree), &limits).unwrap())
    });
    group.bench_function("wip_http", |b| {
        b.iter(|| {
            wip_http::encode_observe_response(
                &their_request,
                black_box(&their_tree),
                upstream_limits(),
            )
            .unwrap()
        })
    });
    group.finish();
}

fn fetch(c: &mut Criterion) {
    let limits = Limits::default();
    let (request, fetched) = data::fetch();
    let body =
        codec::encode_fetch_interface_response(&request, &fetched, &limits).expect("encodes");
    let their_request = request.to_upstream();
    let their_fetched = fetched.to_upstream();
    let response = json_response(body.clone());

    let mut group = c.benchmark_group("fetch_decode");
    group.throughput(Throughput::Bytes(body.len() as u64));
    group.bench_function("wip_model", |b| {
        b.iter(|| {
            codec::decode_fetch_interface_response(&request, black_box(&body), &limits).unwrap()
        })
    });
    group.bench_function("wip_http", |b| {
        b.iter(|| {
            wip_http::decode_fetch_interface_response(
                &their_request,
                black_box(&response),
                upstream_limits(),
            )
            .unwrap()
        })
    });
    group.finish();

    let mut group = c.benchmark_group("fetch_encode");
    group.throughput(Throughput::Bytes(body.len() as u64));
    group.bench_function("wip_model", |b| {
        b.iter(|| {
            codec::encode_fetch_interface_response(&request, black_box(&fetched), &limits).unwrap()
        })
    });
    group.bench_function("wip_http", |b| {
        b.iter(|| {
            wip_http::encode_fetch_interface_response(
                &their_request,
                black_box(&their_fetched),
                upstream_limits(),
            )
            .unwrap()
        })
    });
    group.finish();
}

/// A result of 100,000 members against a record type of 100,000 declared fields, members in
/// reverse order: what a Host could send to make a scanning decoder quadratic. Our decoder
/// alone (wip-http scans), timed for the record; the work count is a unit test.
fn wide_result(c: &mut Criterion) {
    const FIELDS: usize = 100_000;
    let limits = Limits::default();
    let fields: Vec<String> = (0..FIELDS)
        .map(|index| {
            format!(r#"{{"name":"f{index}","required":false,"type":{{"kind":"string"}}}}"#)
        })
        .collect();
    let descriptor = format!(
        r#"{{"format":"wip-interface/1","types":[],"operations":[{{"name":"get","parameters":[],"returns":{{"type":{{"kind":"record","fields":[{}]}}}}}}]}}"#,
        fields.join(",")
    );
    let descriptor = codec::decode_descriptor(descriptor.as_bytes(), &limits).expect("valid");
    let members: Vec<String> = (0..FIELDS)
        .rev()
        .map(|index| format!(r#""f{index}":"v""#))
        .collect();
    let body = format!(r#"{{"result":{{{}}}}}"#, members.join(","));
    let request = data::call("get");
    let mut group = c.benchmark_group("wide_result_decode");
    group.throughput(Throughput::Bytes(body.len() as u64));
    group.bench_function("wip_model", |b| {
        b.iter(|| {
            codec::decode_call_operation_response(
                &request,
                &descriptor,
                black_box(body.as_bytes()),
                &limits,
            )
            .unwrap()
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = observe, fetch, wide_result
}
criterion_main!(benches);
