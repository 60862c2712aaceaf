//! End to end over streamable HTTP: the hello server on a loopback port, an rmcp HTTP client.

use mcp_tool::testing::TestClient;
use rmcp::transport::StreamableHttpClientTransport;
use serde_json::json;

#[tokio::test]
async fn list_and_call_over_streamable_http() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = mcp_tool_examples::hello::server();
    tokio::spawn(async move { server.serve_http_on(listener).await });

    let transport = StreamableHttpClientTransport::from_uri(format!("http://{addr}/mcp"));
    let client = TestClient::connect(transport)
        .await
        .expect("HTTP handshake");
    let names: Vec<String> = client
        .list_tools()
        .await
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    let owned: Vec<&str> = mcp_tool_examples::hello::server()
        .definitions()
        .map(|d| d.name)
        .collect();
    assert_eq!(names, owned);
    assert_eq!(names.len(), 4);

    let answer = client.call("list_tasks", json!({"status": "doing"})).await;
    let titles: Vec<&str> = answer
        .expect_ok()
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        ["Add the HTTP transport test", "Review cursor binding"]
    );

    let answer = client.call("list_tasks", json!({"status": 3})).await;
    assert_eq!(answer.error_code(), Some("invalid_parameter"));
    client.close().await;
}
