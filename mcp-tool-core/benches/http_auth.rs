//! What the bearer check costs an HTTP request: the same request (a body that is not
//! JSON-RPC, answered `400` by the body check that runs right after authentication, so no
//! MCP session is involved) sent over one kept-alive loopback connection to a server without
//! auth, with a static token, and with JWTs (ES256) checked against a fixed JWKS.

#[path = "../tests/support/jwt.rs"]
mod jwt;

use criterion::{Criterion, criterion_group, criterion_main};
use jwt::{SigningKey, claims, jwks};
use mcp_tool::ToolServer;
use mcp_tool::auth::{HttpAuth, JwksSource, JwtAuth};
use std::net::SocketAddr;

const TOKEN: &str = "a-static-token-for-the-benchmark-0123";

async fn serve(auth: Option<HttpAuth>) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let mut builder = ToolServer::builder().with_definitions(Vec::new());
    if let Some(auth) = auth {
        builder = builder.http_auth(auth);
    }
    let server = builder.build().unwrap();
    tokio::spawn(async move { server.serve_http_on(listener).await });
    addr
}

async fn send(client: &reqwest::Client, addr: SocketAddr, token: Option<&str>) {
    let mut request = client
        .post(format!("http://{addr}/mcp"))
        .header("content-type", "application/json")
        .body("{}");
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    assert_eq!(response.status().as_u16(), 400);
    response.bytes().await.unwrap();
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let key = SigningKey::generate("bench");
    let (open, fixed, oauth, resource) = rt.block_on(async {
        let open = serve(None).await;
        let fixed = serve(Some(HttpAuth::static_token(TOKEN).unwrap())).await;
        let resource = "http://127.0.0.1/mcp".to_owned();
        let keys = JwksSource::from_json(&jwks(&[&key])).unwrap();
        let jwt = HttpAuth::jwt(JwtAuth::new(&resource, "https://issuer.test", keys)).unwrap();
        (open, fixed, serve(Some(jwt)).await, resource)
    });
    let token = key.sign(&claims("https://issuer.test", &resource));
    let client = reqwest::Client::new();
    let mut group = c.benchmark_group("http_request");
    group.bench_function("no_auth", |b| {
        b.to_async(&rt).iter(|| send(&client, open, None))
    });
    group.bench_function("static_token", |b| {
        b.to_async(&rt).iter(|| send(&client, fixed, Some(TOKEN)))
    });
    group.bench_function("jwt_es256", |b| {
        b.to_async(&rt).iter(|| send(&client, oauth, Some(&token)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
