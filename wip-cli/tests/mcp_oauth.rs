//! `wip mcp --listen --oauth-issuer --resource` against a test authorization server on loopback
//! (its key pairs, RFC 8414 metadata and JWKS made by the test, tokens minted per case): every
//! token it must refuse is refused with the right status and `WWW-Authenticate` header, valid
//! tokens of each algorithm are accepted, and so are tokens of a key the issuer rotated in;
//! the policy file's rules for a principal and for its groups narrow the operator's policy for
//! their calls, and a refusal names the rule and the principal; opaque tokens are asked of the
//! introspection endpoint; and the Python MCP SDK's OAuth client gets in by itself.

#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "mcp_real/common.rs"]
mod common;
#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "policy/fixtures.rs"]
mod fixtures;
#[path = "mcp_oauth/issuer.rs"]
mod issuer;
#[path = "mcp_real/raw_http.rs"]
mod raw_http;
#[path = "mcp_python/sdk.rs"]
mod sdk;

use common::{TestResult, demo, listening};
use issuer::{Issuer, TestKey, hand_made, hs256, now};
use jsonwebtoken::Algorithm;
use raw_http::exchange;
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};
use tokio::io::AsyncReadExt;

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}"#;

/// A `tools/call` of `name`, outside a session (the scope is checked before the session).
fn tool_call(name: &str) -> String {
    json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
           "params": {"name": name, "arguments": {"target": "/issues/1", "operation": "close"}}})
    .to_string()
}

/// The claims of a token valid for an hour for `resource`, with `scope`.
fn claims(issuer: &str, resource: &str, scope: &str) -> Value {
    json!({
        "iss": issuer, "aud": [resource, "another-api"], "sub": "alice",
        "iat": now(), "exp": now() + 3600, "scope": scope,
    })
}

/// `claims` with `changes` merged in (a `null` takes the claim out).
fn with(mut claims: Value, changes: Value) -> Value {
    if let (Some(claims), Value::Object(changes)) = (claims.as_object_mut(), changes) {
        for (name, value) in changes {
            if value.is_null() {
                claims.remove(&name);
            } else {
                claims.insert(name, value);
            }
        }
    }
    claims
}

/// The server's answer to an initialize with `token` (none when empty): status and headers
/// (in lower case).
async fn initialize(url: &str, token: &str) -> Result<(u16, String), common::Error> {
    let bearer = format!("Bearer {token}");
    let headers: Vec<(&str, &str)> = if token.is_empty() {
        Vec::new()
    } else {
        vec![("Authorization", &bearer)]
    };
    let (status, head, _) = exchange(url, "POST", &headers, INITIALIZE).await?;
    Ok((status, head))
}

/// The port's base URL (`http://127.0.0.1:PORT`) of an MCP URL.
fn base(url: &str) -> &str {
    url.strip_suffix("/mcp").unwrap_or(url)
}

/// A loopback port free a moment ago.
async fn free_port() -> Result<u16, common::Error> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    Ok(listener.local_addr()?.port())
}

/// `wip mcp --listen` serving as `issuer`'s protected resource.
struct Protected {
    server: tokio::process::Child,
    /// Where it serves MCP.
    url: String,
    /// The resource it names, `http://127.0.0.1:PORT/mcp`.
    resource: String,
    port: u16,
}

/// `wip mcp` serving `endpoint` as the protected resource of `issuer`, with `extra` arguments.
/// Its resource URL cannot be known before it binds, so a port is bound first, freed, and named
/// in --resource.
async fn protected(
    endpoint: &str,
    issuer: &Issuer,
    extra: &[&str],
) -> Result<Protected, common::Error> {
    let port = free_port().await?;
    let resource = format!("http://127.0.0.1:{port}/mcp");
    let mut arguments = vec!["--oauth-issuer", issuer.url(), "--resource", &resource];
    arguments.extend_from_slice(extra);
    let (server, url) = listening(endpoint, &format!("127.0.0.1:{port}"), &arguments).await?;
    Ok(Protected {
        server,
        url,
        resource,
        port,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_bad_token_is_refused_with_its_challenge_and_each_algorithm_is_accepted() -> TestResult
{
    let rsa = TestKey::rsa("rsa-1")?;
    let p256 = TestKey::p256("ec-1")?;
    let ed = TestKey::ed25519("ed-1")?;
    let stranger = TestKey::rsa("rsa-1")?;
    let issuer = Issuer::start(&[&rsa, &p256, &ed]).await?;
    let demo = demo().await?;
    let Protected {
        mut server,
        url,
        resource,
        port,
    } = protected(&demo.endpoint(), &issuer, &[]).await?;
    assert_eq!(url, resource);
    let metadata_url = format!("http://127.0.0.1:{port}/.well-known/oauth-protected-resource/mcp");
    let fetched_at_start = issuer.jwks_fetches();
    assert_eq!(fetched_at_start, 1);

    // The metadata, at the root and suffixed with the path, without a token.
    for path in [
        "/.well-known/oauth-protected-resource",
        "/.well-known/oauth-protected-resource/mcp",
    ] {
        let (status, head, body) =
            exchange(&format!("{}{path}", base(&url)), "GET", &[], "").await?;
        assert_eq!(status, 200, "{path}: {head}");
        let document: Value = serde_json::from_str(&body)?;
        assert_eq!(
            document,
            json!({
                "resource": resource,
                "authorization_servers": [issuer.url()],
                "scopes_supported": ["wip:read", "wip:invoke"],
                "bearer_methods_supported": ["header"],
                "resource_name": "wip mcp",
            })
        );
    }

    // No token: the challenge without an error code.
    let (status, head) = initialize(&url, "").await?;
    assert_eq!(status, 401, "{head}");
    assert!(
        head.contains(&format!(
            "www-authenticate: bearer resource_metadata=\"{metadata_url}\", scope=\"wip:read\"\r\n"
        )),
        "{head}"
    );

    let good = claims(issuer.url(), &resource, "wip:invoke");
    let none_header = json!({"alg": "none", "typ": "JWT", "kid": "rsa-1"});
    let hs_header = json!({"alg": "HS256", "typ": "JWT", "kid": "rsa-1"});
    let refused = [
        (
            "a malformed token",
            "not-a-jwt".to_owned(),
            "the token is not a signed JWT",
        ),
        (
            "three parts of garbage",
            "a.b.c".to_owned(),
            "the token is not a signed JWT",
        ),
        (
            "another issuer",
            rsa.sign(
                Algorithm::RS256,
                "rsa-1",
                &with(good.clone(), json!({"iss": "http://127.0.0.1:1/other"})),
            ),
            "the token was issued by another issuer",
        ),
        (
            "another audience",
            rsa.sign(
                Algorithm::RS256,
                "rsa-1",
                &with(good.clone(), json!({"aud": "http://127.0.0.1:1/mcp"})),
            ),
            "the token's audience does not include this resource",
        ),
        (
            "expired past the leeway",
            rsa.sign(
                Algorithm::RS256,
                "rsa-1",
                &with(good.clone(), json!({"exp": now() - 120})),
            ),
            "the token has expired",
        ),
        (
            "not valid yet past the leeway",
            rsa.sign(
                Algorithm::RS256,
                "rsa-1",
                &with(good.clone(), json!({"nbf": now() + 600})),
            ),
            "the token is not valid yet",
        ),
        (
            "without sub",
            rsa.sign(
                Algorithm::RS256,
                "rsa-1",
                &with(good.clone(), json!({"sub": null})),
            ),
            "the token lacks a required claim",
        ),
        (
            "alg none",
            hand_made(&none_header, &good, b""),
            "the token is not signed with an asymmetric algorithm",
        ),
        (
            "HS256 signed with the public key",
            hs256(&hs_header, &good, &rsa.public),
            "the token is not signed with an asymmetric algorithm",
        ),
        (
            "HS256 signed with the public JWK",
            hs256(&hs_header, &good, rsa.jwk.to_string().as_bytes()),
            "the token is not signed with an asymmetric algorithm",
        ),
        (
            "a signature by another key under a known kid",
            stranger.sign(Algorithm::RS256, "rsa-1", &good),
            "the token's signature does not verify",
        ),
        (
            "an EC key's kid with an RSA signature",
            rsa.sign(Algorithm::RS256, "ec-1", &good),
            "the token is not signed with an asymmetric algorithm",
        ),
    ];
    for (case, token, description) in &refused {
        let (status, head) = initialize(&url, token).await?;
        assert_eq!(status, 401, "{case}: {head}");
        assert!(
            head.contains(&format!(
                "www-authenticate: bearer resource_metadata=\"{metadata_url}\", \
                 scope=\"wip:read\", error=\"invalid_token\", error_description=\"{}",
                description.to_ascii_lowercase()
            )),
            "{case}: {head}"
        );
    }
    assert_eq!(
        issuer.jwks_fetches(),
        fetched_at_start,
        "no kid was unknown yet"
    );

    // An unknown kid: the keys are fetched once more, then it is refused; another unknown kid
    // within the minute does not fetch them again.
    for (fetches, kid) in [
        (fetched_at_start + 1, "rsa-9"),
        (fetched_at_start + 1, "rsa-10"),
    ] {
        let token = stranger.sign(Algorithm::RS256, kid, &good);
        let (status, head) = initialize(&url, &token).await?;
        assert_eq!(status, 401, "{kid}: {head}");
        assert!(
            head.contains("error_description=\"the token's key is not one of the issuer's keys\""),
            "{head}"
        );
        assert_eq!(issuer.jwks_fetches(), fetches, "{kid}");
    }

    // Valid tokens of each algorithm; leeway on exp and nbf.
    let accepted = [
        ("RS256", rsa.sign(Algorithm::RS256, "rsa-1", &good)),
        ("PS256", rsa.sign(Algorithm::PS256, "rsa-1", &good)),
        ("ES256", p256.sign(Algorithm::ES256, "ec-1", &good)),
        ("EdDSA", ed.sign(Algorithm::EdDSA, "ed-1", &good)),
        (
            "aud as a string",
            rsa.sign(
                Algorithm::RS256,
                "rsa-1",
                &with(good.clone(), json!({"aud": resource})),
            ),
        ),
        (
            "expired within the leeway",
            rsa.sign(
                Algorithm::RS256,
                "rsa-1",
                &with(good.clone(), json!({"exp": now() - 20})),
            ),
        ),
        (
            "valid within the leeway",
            rsa.sign(
                Algorithm::RS256,
                "rsa-1",
                &with(good.clone(), json!({"nbf": now() + 20})),
            ),
        ),
        (
            "wip:read in scp",
            rsa.sign(
                Algorithm::RS256,
                "rsa-1",
                &with(good.clone(), json!({"scope": null, "scp": "wip:read"})),
            ),
        ),
    ];
    for (case, token) in &accepted {
        let (status, head) = initialize(&url, token).await?;
        assert_eq!(status, 200, "{case}: {head}");
    }

    // Scopes: neither scope is 403 on anything; wip:read may not call invoke.
    let bearer = |token: &str| format!("Bearer {token}");
    let unscoped = rsa.sign(
        Algorithm::RS256,
        "rsa-1",
        &with(good.clone(), json!({"scope": "openid profile"})),
    );
    let (status, head) = initialize(&url, &unscoped).await?;
    assert_eq!(status, 403, "{head}");
    assert!(
        head.contains("www-authenticate: bearer error=\"insufficient_scope\", scope=\"wip:read\""),
        "{head}"
    );
    let reader = rsa.sign(
        Algorithm::RS256,
        "rsa-1",
        &with(good.clone(), json!({"scope": "wip:read"})),
    );
    let reader_bearer = bearer(&reader);
    let (status, head, _) = exchange(
        &url,
        "POST",
        &[("Authorization", &reader_bearer)],
        &tool_call("invoke"),
    )
    .await?;
    assert_eq!(status, 403, "{head}");
    assert!(
        head.contains(&format!(
            "www-authenticate: bearer error=\"insufficient_scope\", scope=\"wip:invoke\", \
             resource_metadata=\"{metadata_url}\""
        )),
        "{head}"
    );

    // The health checks need no token; the metrics need a valid one.
    let (status, _, _) = exchange(&format!("{}/healthz", base(&url)), "GET", &[], "").await?;
    assert_eq!(status, 200);
    let metrics = format!("{}/metrics", base(&url));
    let (status, head, _) = exchange(&metrics, "GET", &[], "").await?;
    assert_eq!(status, 401, "{head}");
    assert!(head.contains("resource_metadata="), "{head}");
    let (status, head, _) =
        exchange(&metrics, "GET", &[("Authorization", &reader_bearer)], "").await?;
    assert_eq!(status, 200, "{head}");

    // No token, valid or not, is in a log line.
    server.start_kill()?;
    let mut stderr = String::new();
    if let Some(mut pipe) = server.stderr.take() {
        pipe.read_to_string(&mut stderr).await?;
    }
    let tokens = accepted.iter().map(|(_, token)| token);
    for token in tokens.chain(refused.iter().map(|(_, token, _)| token)) {
        let signature = token.rsplit('.').next().unwrap_or(token);
        assert!(
            signature.is_empty() || !stderr.contains(signature),
            "{stderr}"
        );
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rotated_key_is_fetched_and_the_kept_keys_outlive_the_issuer() -> TestResult {
    let old = TestKey::p256("2026-01")?;
    let new = TestKey::ed25519("2026-02")?;
    let issuer = Issuer::start(&[&old]).await?;
    let demo = demo().await?;
    let Protected {
        server: _server,
        url,
        resource,
        ..
    } = protected(&demo.endpoint(), &issuer, &[]).await?;
    let good = claims(issuer.url(), &resource, "wip:read");
    let by_old = old.sign(Algorithm::ES256, "2026-01", &good);
    let by_new = new.sign(Algorithm::EdDSA, "2026-02", &good);
    assert_eq!(initialize(&url, &by_old).await?.0, 200);

    // The issuer publishes the new key and withdraws the old one: the first token of the new
    // key has the keys fetched again.
    issuer.publish(&[&new]);
    let fetches = issuer.jwks_fetches();
    let (status, head) = initialize(&url, &by_new).await?;
    assert_eq!(status, 200, "{head}");
    assert_eq!(issuer.jwks_fetches(), fetches + 1);
    let (status, head) = initialize(&url, &by_old).await?;
    assert_eq!(status, 401, "a withdrawn key: {head}");
    assert_eq!(
        issuer.jwks_fetches(),
        fetches + 1,
        "at most one fetch a minute"
    );

    // The issuer goes down: the kept key still verifies.
    issuer.stop().await;
    let (status, head) = initialize(&url, &by_new).await?;
    assert_eq!(status, 200, "{head}");
    Ok(())
}

/// An MCP session with `url` whose every request carries `token`.
async fn session(url: &str, token: &str) -> Result<RunningService<RoleClient, ()>, common::Error> {
    let config = StreamableHttpClientTransportConfig::with_uri(url.to_owned()).auth_header(token);
    let transport = StreamableHttpClientTransport::from_config(config);
    Ok(tokio::time::timeout(common::PATIENCE, ().serve(transport)).await??)
}

/// The text of `name` called with `arguments` by `client`, and whether it is an error.
async fn call(
    client: &RunningService<RoleClient, ()>,
    name: &'static str,
    arguments: Value,
) -> Result<(bool, String), common::Error> {
    let Value::Object(arguments) = arguments else {
        return Err("arguments must be an object".into());
    };
    let result = client
        .call_tool(CallToolRequestParams::new(name).with_arguments(arguments))
        .await?;
    let text = result.content[0]
        .as_text()
        .map_or_else(String::new, |content| content.text.clone());
    Ok((result.is_error == Some(true), text))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_principals_and_its_groups_rules_narrow_the_operators_policy() -> TestResult {
    let key = TestKey::p256("k")?;
    let issuer = Issuer::start(&[&key]).await?;
    let demo = fixtures::demo().await?;
    let file = fixtures::policy_file(
        "principals.toml",
        r##"reads = ["/::issue.read#*", '/::"issue comments"#read']
groups_claim = "groups"

[principals.mallory]
deny = ['/::"issue comments"#add']

[groups.auditors]
allow = ["/::issue.read#*"]
"##,
    )?;
    let Protected {
        server: _server,
        url,
        resource,
        ..
    } = protected(
        &demo.endpoint(),
        &issuer,
        &["--policy", &file.to_string_lossy()],
    )
    .await?;
    let token = |sub: &str, groups: &[&str]| {
        let claims = with(
            claims(issuer.url(), &resource, "wip:invoke"),
            json!({"sub": sub, "groups": groups}),
        );
        key.sign(Algorithm::ES256, "k", &claims)
    };
    let add = json!({"target": "/projects/wip/3", "operation": "add", "input": {"body": "hi"}});
    let read = json!({"target": "/projects/wip/1", "operation": "/::issue.read#read", "input": {}});

    let mallory = session(&url, &token("mallory", &[])).await?;
    let (is_error, text) = call(&mallory, "invoke", add.clone()).await?;
    assert!(is_error, "{text}");
    assert!(
        text.contains(
            "the deny pattern /::\"issue comments\"#add (policy file line 5) matches the \
             operation, in the rules for the principal \"mallory\"; nothing was sent."
        ),
        "{text}"
    );
    let (is_error, text) = call(&mallory, "invoke", read.clone()).await?;
    assert!(!is_error, "{text}");

    let bob = session(&url, &token("bob", &["auditors", "staff"])).await?;
    let (is_error, text) = call(&bob, "invoke", add.clone()).await?;
    assert!(is_error, "{text}");
    assert!(
        text.contains(
            "no pattern of allow matches the operation, in the rules for the group \"auditors\" \
             of the principal \"bob\"; nothing was sent."
        ),
        "{text}"
    );
    let (is_error, text) = call(&bob, "read", read.clone()).await?;
    assert!(!is_error, "{text}");

    let counters = demo.counters();
    let adds = counters.operation("/", "issue comments", "add");
    assert_eq!(adds.requested, 0, "add was sent: {counters:?}");
    assert_eq!(counters.call_operation, 2, "{counters:?}");

    // Anyone else runs what the operator allows.
    let alice = session(&url, &token("alice", &["staff"])).await?;
    let (is_error, text) = call(&alice, "invoke", add).await?;
    assert!(!is_error, "{text}");
    assert_eq!(
        demo.counters()
            .operation("/", "issue comments", "add")
            .requested,
        1
    );
    for client in [mallory, bob, alice] {
        client.cancel().await?;
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rules_for_principals_without_oauth_stop_the_server() -> TestResult {
    let demo = fixtures::demo().await?;
    let file = fixtures::policy_file("no-oauth.toml", "[principals.alice]\ndeny = [\"/::a#b\"]\n")?;
    let output = common::wip(&[
        "mcp",
        "--endpoint",
        &demo.endpoint(),
        "--listen",
        "127.0.0.1:0",
        "--policy",
        &file.to_string_lossy(),
    ])
    .output()
    .await?;
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("rules for principals or groups"),
        "{stderr}"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn opaque_tokens_are_introspected_and_the_answer_kept() -> TestResult {
    let key = TestKey::ed25519("k")?;
    let issuer = Issuer::start(&[&key]).await?;
    let demo = demo().await?;
    let client_file = fixtures::policy_file(
        "client",
        &format!("{}\n{}\n", issuer::CLIENT_ID, issuer::CLIENT_SECRET),
    )?;
    let introspection = format!("{}/introspect", issuer.url());
    let Protected {
        server: _server,
        url,
        resource,
        ..
    } = protected(
        &demo.endpoint(),
        &issuer,
        &[
            "--oauth-introspection",
            &introspection,
            "--oauth-client-file",
            &client_file.to_string_lossy(),
        ],
    )
    .await?;
    let active = json!({
        "active": true, "sub": "alice", "aud": resource, "iss": issuer.url(),
        "scope": "wip:invoke", "exp": now() + 3600,
    });
    issuer.opaque("opaque-alice", active.clone());
    issuer.opaque("opaque-revoked", json!({"active": false}));
    issuer.opaque(
        "opaque-elsewhere",
        with(active.clone(), json!({"aud": "http://127.0.0.1:1/mcp"})),
    );
    issuer.opaque(
        "opaque-expired",
        with(active.clone(), json!({"exp": now() - 120})),
    );
    issuer.opaque("opaque-unscoped", with(active, json!({"scope": "openid"})));

    assert_eq!(initialize(&url, "opaque-alice").await?.0, 200);
    assert_eq!(issuer.introspections(), 1);
    assert_eq!(initialize(&url, "opaque-alice").await?.0, 200);
    assert_eq!(issuer.introspections(), 1, "the answer is kept");
    for (token, description) in [
        ("opaque-revoked", "the token is not active"),
        ("opaque-unknown", "the token is not active"),
        (
            "opaque-elsewhere",
            "the token's audience does not include this resource",
        ),
        ("opaque-expired", "the token has expired"),
    ] {
        let (status, head) = initialize(&url, token).await?;
        assert_eq!(status, 401, "{token}: {head}");
        assert!(
            head.contains(&format!("error_description=\"{description}\"")),
            "{token}: {head}"
        );
    }
    let (status, head) = initialize(&url, "opaque-unscoped").await?;
    assert_eq!(status, 403, "{head}");
    let introspected = issuer.introspections();
    assert_eq!(introspected, 6);

    // A JWT is still verified with the keys, without introspection.
    let jwt = key.sign(
        Algorithm::EdDSA,
        "k",
        &claims(issuer.url(), &resource, "wip:read"),
    );
    assert_eq!(initialize(&url, &jwt).await?.0, 200);
    assert_eq!(issuer.introspections(), introspected);
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdks_oauth_client_finds_the_issuer_and_steps_up_its_scope() -> TestResult {
    let key = TestKey::rsa("sdk")?;
    let issuer = Issuer::start(&[&key]).await?;
    issuer.issue_with(&key, Algorithm::PS256, "sdk");
    let demo = fixtures::demo().await?;
    let file = fixtures::policy_file("sdk.toml", fixtures::POLICY)?;
    let Protected {
        server: _server,
        url,
        resource,
        ..
    } = protected(
        &demo.endpoint(),
        &issuer,
        &["--policy", &file.to_string_lossy()],
    )
    .await?;
    let report = sdk::run(
        "oauth.py",
        &[
            &url,
            issuer.url(),
            issuer::SDK_CLIENT_ID,
            issuer::SDK_CLIENT_SECRET,
        ],
    )
    .await?;
    assert_eq!(
        report["tools"],
        json!(["discover", "inspect", "read", "invoke"]),
        "{report}"
    );
    assert_eq!(report["read"]["is_error"], false, "{report}");
    assert!(
        report["read"]["text"]
            .as_str()
            .is_some_and(|text| text.contains("\"title\":")),
        "{report}"
    );
    assert_eq!(report["invoke"]["is_error"], false, "{report}");
    // The first token for the scope of the 401, wip:read; the second, after the 403 of invoke,
    // for both scopes; each for the resource.
    let issued = issuer.issued();
    assert_eq!(issued.len(), 2, "{issued:?}");
    assert_eq!(issued[0], (resource.clone(), "wip:read".to_owned()));
    assert_eq!(issued[1].0, resource);
    let mut scopes: Vec<&str> = issued[1].1.split(' ').collect();
    scopes.sort_unstable();
    assert_eq!(scopes, ["wip:invoke", "wip:read"], "{issued:?}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_issuer_that_cannot_be_used_stops_the_server_before_it_serves() -> TestResult {
    let demo = fixtures::demo().await?;
    let key = TestKey::p256("k")?;
    let issuer = Issuer::start(&[&key]).await?;
    let down = format!("http://127.0.0.1:{}/issuer", free_port().await?);
    let other_path = format!("{}/other", issuer.url());
    let token_file = fixtures::policy_file("token", "t0ken\n")?;
    let token_file = token_file.to_string_lossy();
    for (args, code, expected) in [
        (
            vec![
                "--oauth-issuer",
                "http://id.example.com",
                "--resource",
                "https://mcp.example.com/mcp",
            ],
            2,
            "--oauth-issuer \"http://id.example.com\": http is accepted on a loopback host only",
        ),
        (
            vec![
                "--oauth-issuer",
                issuer.url(),
                "--resource",
                "mcp.example.com/mcp",
            ],
            2,
            "--resource \"mcp.example.com/mcp\": not a URL",
        ),
        (
            vec![
                "--oauth-issuer",
                &down,
                "--resource",
                "https://mcp.example.com/mcp",
            ],
            1,
            "the metadata of the issuer",
        ),
        (
            // Its RFC 8414 metadata is not there, and no OpenID configuration either.
            vec![
                "--oauth-issuer",
                &other_path,
                "--resource",
                "https://mcp.example.com/mcp",
            ],
            1,
            "answered 404 Not Found, not 200",
        ),
        (
            vec![
                "--oauth-issuer",
                issuer.url(),
                "--resource",
                "https://mcp.example.com/mcp",
                "--auth-token-file",
                &token_file,
            ],
            2,
            "cannot be used with",
        ),
        (vec!["--oauth-issuer", issuer.url()], 2, "--resource <URL>"),
    ] {
        let output = common::wip(&[
            "mcp",
            "--endpoint",
            &demo.endpoint(),
            "--listen",
            "127.0.0.1:0",
        ])
        .args(&args)
        .output()
        .await?;
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(code), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}: served");
    }
    Ok(())
}
