//! A test authorization server on loopback: key pairs made here (RSA by the `rsa` crate, P-256
//! and Ed25519 by ring), RFC 8414 metadata, a JWKS the test can change (a rotation) and whose
//! fetches it counts, tokens minted per case, and an RFC 7662 introspection endpoint for the
//! opaque tokens the test makes up (for the client [`CLIENT_ID`] only), and a token endpoint
//! that issues JWTs to [`SDK_CLIENT_ID`] by the client credentials grant, for the Python MCP
//! SDK's OAuth client.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use ring::rand::SystemRandom;
use ring::signature::{self, EcdsaKeyPair, Ed25519KeyPair, KeyPair as _};
use rsa::pkcs1::EncodeRsaPrivateKey as _;
use rsa::traits::PublicKeyParts as _;
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

pub(crate) type Error = Box<dyn std::error::Error>;

/// The client the introspection endpoint answers.
pub(crate) const CLIENT_ID: &str = "wip mcp";
/// Its secret.
pub(crate) const CLIENT_SECRET: &str = "s3cret:&=";
/// The client the token endpoint issues tokens to.
pub(crate) const SDK_CLIENT_ID: &str = "python-sdk";
/// Its secret.
pub(crate) const SDK_CLIENT_SECRET: &str = "sdk-s3cret";

/// A key pair of the issuer.
pub(crate) struct TestKey {
    encoding: EncodingKey,
    /// The public key as a JWK.
    pub(crate) jwk: Value,
    /// The public key's bytes (the RSA modulus, the EC point, the Ed25519 key): what a forger
    /// would use as an HMAC secret.
    pub(crate) public: Vec<u8>,
}

impl TestKey {
    /// An RSA key of 2048 bits, for RS256 and PS256 alike (the JWK names no algorithm).
    pub(crate) fn rsa(kid: &str) -> Result<Self, Error> {
        let private = rsa::RsaPrivateKey::new(&mut rsa::rand_core::OsRng, 2048)?;
        let der = private.to_pkcs1_der()?;
        let modulus = private.n().to_bytes_be();
        let jwk = json!({
            "kty": "RSA", "use": "sig", "kid": kid,
            "n": URL_SAFE_NO_PAD.encode(&modulus),
            "e": URL_SAFE_NO_PAD.encode(private.e().to_bytes_be()),
        });
        Ok(Self {
            encoding: EncodingKey::from_rsa_der(der.as_bytes()),
            jwk,
            public: modulus,
        })
    }

    /// A P-256 key for ES256.
    pub(crate) fn p256(kid: &str) -> Result<Self, Error> {
        let random = SystemRandom::new();
        let algorithm = &signature::ECDSA_P256_SHA256_FIXED_SIGNING;
        let pkcs8 = EcdsaKeyPair::generate_pkcs8(algorithm, &random).map_err(|_| "no P-256 key")?;
        let pair = EcdsaKeyPair::from_pkcs8(algorithm, pkcs8.as_ref(), &random)
            .map_err(|_| "a P-256 key that does not parse")?;
        let point = pair.public_key().as_ref().to_vec();
        let jwk = json!({
            "kty": "EC", "crv": "P-256", "use": "sig", "alg": "ES256", "kid": kid,
            "x": URL_SAFE_NO_PAD.encode(&point[1..33]),
            "y": URL_SAFE_NO_PAD.encode(&point[33..65]),
        });
        Ok(Self {
            encoding: EncodingKey::from_ec_der(pkcs8.as_ref()),
            jwk,
            public: point,
        })
    }

    /// An Ed25519 key for EdDSA.
    pub(crate) fn ed25519(kid: &str) -> Result<Self, Error> {
        let random = SystemRandom::new();
        let pkcs8 = Ed25519KeyPair::generate_pkcs8(&random).map_err(|_| "no Ed25519 key")?;
        let pair = Ed25519KeyPair::from_pkcs8(pkcs8.as_ref())
            .map_err(|_| "an Ed25519 key that does not parse")?;
        let public = pair.public_key().as_ref().to_vec();
        let jwk = json!({
            "kty": "OKP", "crv": "Ed25519", "use": "sig", "alg": "EdDSA", "kid": kid,
            "x": URL_SAFE_NO_PAD.encode(&public),
        });
        Ok(Self {
            encoding: EncodingKey::from_ed_der(pkcs8.as_ref()),
            jwk,
            public,
        })
    }

    /// `claims` signed with this key by `algorithm`, the header naming `kid`.
    pub(crate) fn sign(&self, algorithm: Algorithm, kid: &str, claims: &Value) -> String {
        let mut header = Header::new(algorithm);
        header.kid = Some(kid.to_owned());
        jsonwebtoken::encode(&header, claims, &self.encoding).expect("a test token is signed")
    }
}

/// Seconds since the epoch.
pub(crate) fn now() -> i64 {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("the clock is after 1970");
    i64::try_from(since.as_secs()).expect("seconds fit")
}

/// `header.payload.signature`, each part base64url of what is given: for tokens no library
/// would sign (`alg: none`, HMAC with a public key).
pub(crate) fn hand_made(header: &Value, claims: &Value, signature: &[u8]) -> String {
    format!(
        "{}.{}.{}",
        URL_SAFE_NO_PAD.encode(header.to_string()),
        URL_SAFE_NO_PAD.encode(claims.to_string()),
        URL_SAFE_NO_PAD.encode(signature)
    )
}

/// HMAC-SHA256 of `header.payload` with `secret`, as a forger who took a public key for a
/// shared secret would sign.
pub(crate) fn hs256(header: &Value, claims: &Value, secret: &[u8]) -> String {
    let unsigned = format!(
        "{}.{}",
        URL_SAFE_NO_PAD.encode(header.to_string()),
        URL_SAFE_NO_PAD.encode(claims.to_string())
    );
    let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, secret);
    let tag = ring::hmac::sign(&key, unsigned.as_bytes());
    format!("{unsigned}.{}", URL_SAFE_NO_PAD.encode(tag.as_ref()))
}

struct State {
    base: String,
    keys: Mutex<Vec<Value>>,
    jwks_fetches: AtomicUsize,
    /// The introspection answer for each opaque token.
    opaque: Mutex<HashMap<String, Value>>,
    introspections: AtomicUsize,
    /// The key the token endpoint signs with, its algorithm and kid.
    signer: Mutex<Option<(EncodingKey, Algorithm, String)>>,
    /// The `resource` and `scope` of each token issued.
    issued: Mutex<Vec<(String, String)>>,
}

/// The issuer, serving until dropped.
pub(crate) struct Issuer {
    state: Arc<State>,
    task: Option<JoinHandle<()>>,
}

impl Issuer {
    /// An issuer at `http://127.0.0.1:PORT/issuer` publishing `keys`.
    pub(crate) async fn start(keys: &[&TestKey]) -> Result<Self, Error> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let base = format!("http://{}/issuer", listener.local_addr()?);
        let state = Arc::new(State {
            base,
            keys: Mutex::new(keys.iter().map(|key| key.jwk.clone()).collect()),
            jwks_fetches: AtomicUsize::new(0),
            opaque: Mutex::default(),
            introspections: AtomicUsize::new(0),
            signer: Mutex::default(),
            issued: Mutex::default(),
        });
        let serving = Arc::clone(&state);
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let state = Arc::clone(&serving);
                tokio::spawn(async move {
                    let service = service_fn(move |request| {
                        let state = Arc::clone(&state);
                        async move { Ok::<_, Infallible>(answer(&state, request).await) }
                    });
                    let _ = http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        });
        Ok(Self {
            state,
            task: Some(task),
        })
    }

    /// The issuer's URL, as its tokens' `iss`.
    pub(crate) fn url(&self) -> &str {
        &self.state.base
    }

    /// How many times the key set was fetched.
    pub(crate) fn jwks_fetches(&self) -> usize {
        self.state.jwks_fetches.load(Ordering::SeqCst)
    }

    /// Makes `token` an opaque token that introspection describes with `answer`.
    pub(crate) fn opaque(&self, token: &str, answer: Value) {
        self.state
            .opaque
            .lock()
            .expect("the tokens' lock")
            .insert(token.to_owned(), answer);
    }

    /// How many introspection requests came from the right client.
    pub(crate) fn introspections(&self) -> usize {
        self.state.introspections.load(Ordering::SeqCst)
    }

    /// Has the token endpoint sign with `key` by `algorithm`, its header naming `kid`.
    pub(crate) fn issue_with(&self, key: &TestKey, algorithm: Algorithm, kid: &str) {
        *self.state.signer.lock().expect("the signer's lock") =
            Some((key.encoding.clone(), algorithm, kid.to_owned()));
    }

    /// The `resource` and `scope` of each token the token endpoint issued.
    pub(crate) fn issued(&self) -> Vec<(String, String)> {
        self.state.issued.lock().expect("the tokens' lock").clone()
    }

    /// Publishes `keys` in place of the keys published so far.
    pub(crate) fn publish(&self, keys: &[&TestKey]) {
        *self.state.keys.lock().expect("the keys' lock") =
            keys.iter().map(|key| key.jwk.clone()).collect();
    }

    /// Stops answering: its port refuses connections from now on.
    pub(crate) async fn stop(mut self) {
        if let Some(task) = self.task.take() {
            task.abort();
            let _ = task.await;
        }
    }
}

impl Drop for Issuer {
    fn drop(&mut self) {
        if let Some(task) = &self.task {
            task.abort();
        }
    }
}

async fn answer(state: &State, request: Request<hyper::body::Incoming>) -> Response<Full<Bytes>> {
    let base = &state.base;
    let path = request.uri().path().to_owned();
    let document = match path.as_str() {
        "/issuer/introspect" => match introspect(state, request).await {
            Some(document) => document,
            None => return status(StatusCode::UNAUTHORIZED),
        },
        "/issuer/token" => match issue(state, request).await {
            Some(document) => document,
            None => return status(StatusCode::BAD_REQUEST),
        },
        "/.well-known/oauth-authorization-server/issuer" => json!({
            "issuer": base,
            "jwks_uri": format!("{base}/jwks"),
            "authorization_endpoint": format!("{base}/authorize"),
            "token_endpoint": format!("{base}/token"),
            "token_endpoint_auth_methods_supported": ["client_secret_basic"],
            "response_types_supported": ["code"],
            "grant_types_supported": ["client_credentials"],
            "introspection_endpoint": format!("{base}/introspect"),
            "scopes_supported": ["wip:read", "wip:invoke"],
        }),
        "/issuer/jwks" => {
            state.jwks_fetches.fetch_add(1, Ordering::SeqCst);
            json!({"keys": *state.keys.lock().expect("the keys' lock")})
        }
        _ => return status(StatusCode::NOT_FOUND),
    };
    let mut response = Response::new(Full::from(document.to_string()));
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    response
}

fn status(status: StatusCode) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::from(format!("{status}\n")));
    *response.status_mut() = status;
    response
}

/// The answer about the form's token, for the right client's POST only.
async fn introspect(state: &State, request: Request<hyper::body::Incoming>) -> Option<Value> {
    let encode = |part: &str| form_urlencoded::byte_serialize(part.as_bytes()).collect::<String>();
    let expected = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!(
            "{}:{}",
            encode(CLIENT_ID),
            encode(CLIENT_SECRET)
        ))
    );
    let authorized = request
        .headers()
        .get(hyper::header::AUTHORIZATION)
        .is_some_and(|value| value.as_bytes() == expected.as_bytes());
    if request.method() != hyper::Method::POST || !authorized {
        return None;
    }
    let body = request.into_body().collect().await.ok()?.to_bytes();
    let token = form_urlencoded::parse(&body)
        .find(|(name, _)| name == "token")
        .map(|(_, token)| token.into_owned())?;
    state.introspections.fetch_add(1, Ordering::SeqCst);
    let known = state
        .opaque
        .lock()
        .expect("the tokens' lock")
        .get(&token)
        .cloned();
    Some(known.unwrap_or_else(|| json!({"active": false})))
}

/// A token for the client credentials grant of [`SDK_CLIENT_ID`]: for the form's `resource`,
/// with the form's `scope`.
async fn issue(state: &State, request: Request<hyper::body::Incoming>) -> Option<Value> {
    let expected = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD
            .encode(format!("{SDK_CLIENT_ID}:{SDK_CLIENT_SECRET}"))
    );
    let authorized = request
        .headers()
        .get(hyper::header::AUTHORIZATION)
        .is_some_and(|value| value.as_bytes() == expected.as_bytes());
    if request.method() != hyper::Method::POST || !authorized {
        return None;
    }
    let body = request.into_body().collect().await.ok()?.to_bytes();
    let form: HashMap<String, String> = form_urlencoded::parse(&body).into_owned().collect();
    if form.get("grant_type").map(String::as_str) != Some("client_credentials") {
        return None;
    }
    let resource = form.get("resource")?.clone();
    let scope = form.get("scope").cloned().unwrap_or_default();
    let (key, algorithm, kid) = state.signer.lock().expect("the signer's lock").clone()?;
    let claims = json!({
        "iss": state.base, "aud": resource, "sub": SDK_CLIENT_ID,
        "iat": now(), "exp": now() + 300, "scope": scope,
    });
    let mut header = Header::new(algorithm);
    header.kid = Some(kid);
    let token = jsonwebtoken::encode(&header, &claims, &key).ok()?;
    state
        .issued
        .lock()
        .expect("the tokens' lock")
        .push((resource, scope.clone()));
    Some(json!({
        "access_token": token, "token_type": "Bearer", "expires_in": 300, "scope": scope,
    }))
}
