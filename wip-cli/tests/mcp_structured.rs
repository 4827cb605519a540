//! `wip mcp --structured` with rmcp's client over Streamable HTTP (issue #25): every tool
//! declares an output schema, every result carries `structuredContent` that validates against it
//! (checked by a JSON Schema validator) and holds what the text says; a cut result holds its page
//! and cursor, not its data; without the flag, nothing changes. Everything on loopback.

#[allow(dead_code, reason = "shared by several test crates, each using a part")]
#[path = "mcp_real/common.rs"]
mod common;
#[path = "mcp_real/recorder.rs"]
mod recorder;

use common::{Error, TestResult, listening};
use recorder::Recorder;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};
use wip_demo::DemoOptions;

type Client = RunningService<RoleClient, Recorder>;

async fn http_client(url: &str) -> Result<Client, Error> {
    let transport = StreamableHttpClientTransport::from_uri(url.to_owned());
    Ok(Recorder::new().serve(transport).await?)
}

async fn call(client: &Client, tool: &str, arguments: Value) -> Result<CallToolResult, Error> {
    let Value::Object(arguments) = arguments else {
        return Err("arguments must be an object".into());
    };
    let request = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
    Ok(client.call_tool(request).await?)
}

/// The result's structured content, checked against `schema`, and its one text block, which
/// the content's `text` repeats.
fn structured(result: &CallToolResult, schema: &Value) -> Result<Value, Error> {
    let content = result
        .structured_content
        .clone()
        .ok_or_else(|| format!("no structuredContent: {result:?}"))?;
    let validator = jsonschema::validator_for(schema)?;
    if let Err(error) = validator.validate(&content) {
        return Err(format!("{error} at {}: {content:#}", error.instance_path()).into());
    }
    let [block] = result.content.as_slice() else {
        return Err(format!("not one content block: {result:?}").into());
    };
    let text = &block.as_text().ok_or("not a text block")?.text;
    let notes = content
        .get("notes")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let result_text = content["text"].as_str().unwrap_or_default();
    assert_eq!(*text, format!("{notes}{result_text}"));
    assert_eq!(
        content["is_error"],
        Value::from(result.is_error == Some(true))
    );
    Ok(content)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_result_validates_against_its_tools_output_schema_and_holds_the_data() -> TestResult {
    let demo = wip_demo::serve("127.0.0.1:0".parse()?, DemoOptions::default()).await?;
    let (_server, url) = listening(&demo.endpoint(), "127.0.0.1:0", &["--structured"]).await?;
    let client = http_client(&url).await?;

    let tools = client.list_all_tools().await?;
    assert!(!tools.is_empty());
    let mut schema = None;
    for tool in &tools {
        let declared = tool
            .output_schema
            .as_ref()
            .ok_or_else(|| format!("{} has no outputSchema", tool.name))?;
        let declared = Value::Object((**declared).clone());
        jsonschema::validator_for(&declared)?;
        schema.get_or_insert(declared);
    }
    let schema = schema.ok_or("no tools")?;

    let found = call(&client, "discover", json!({"scope": "/", "query": "login"})).await?;
    let found = structured(&found, &schema)?;
    let entries = found["entries"].as_array().ok_or("no entries")?;
    assert!(!entries.is_empty(), "{found:#}");
    for entry in entries {
        let path = entry["path"].as_str().ok_or("an entry without a path")?;
        assert!(
            found["text"].as_str().unwrap_or_default().contains(path),
            "{found:#}"
        );
    }
    assert!(found["coverage"]["indexed"].as_u64() > Some(0), "{found:#}");

    let shown = call(&client, "inspect", json!({"target": "/projects/wip/1"})).await?;
    let shown = structured(&shown, &schema)?;
    let operations: Vec<&str> = shown["interfaces"]
        .as_array()
        .ok_or("no interfaces")?
        .iter()
        .flat_map(|interface| interface["operations"].as_array().into_iter().flatten())
        .filter_map(Value::as_str)
        .collect();
    assert!(operations.contains(&"/::issue.read#read"), "{shown:#}");

    let read = json!({"target": "/projects/wip/1", "operation": "/::issue.read#read", "input": {}});
    let ran = structured(&call(&client, "invoke", read).await?, &schema)?;
    assert_eq!(ran["result"]["number"], 1, "{ran:#}");
    assert_eq!(ran["operation"], "/::issue.read#read");
    let found_paths: Vec<&str> = ran["found"]
        .as_array()
        .ok_or("no found entries")?
        .iter()
        .filter_map(|entry| entry["path"].as_str())
        .collect();
    assert!(found_paths.contains(&"/people/bob"), "{ran:#}");
    assert_eq!(ran["next"], json!([]), "{ran:#}");

    let wrong = call(&client, "inspect", json!({"target": "projects"})).await?;
    assert_eq!(wrong.is_error, Some(true));
    let wrong = structured(&wrong, &schema)?;
    assert!(
        wrong["error"]
            .as_str()
            .is_some_and(|error| error.contains("target")),
        "{wrong:#}"
    );
    assert!(
        !wrong["next"].as_array().is_none_or(Vec::is_empty),
        "{wrong:#}"
    );
    assert!(wrong.get("interfaces").is_none(), "{wrong:#}");

    client.cancel().await?;
    demo.shutdown().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cut_result_holds_its_page_and_cursor_and_leaves_the_data_to_the_rest() -> TestResult {
    let options = DemoOptions {
        diagnostics: true,
        ..DemoOptions::default()
    };
    let demo = wip_demo::serve("127.0.0.1:0".parse()?, options).await?;
    let flags = ["--structured", "--max-output-tokens", "500"];
    let (_server, url) = listening(&demo.endpoint(), "127.0.0.1:0", &flags).await?;
    let client = http_client(&url).await?;
    let tools = client.list_all_tools().await?;
    let schema = tools
        .first()
        .and_then(|tool| tool.output_schema.as_ref())
        .map(|schema| Value::Object((**schema).clone()))
        .ok_or("no outputSchema")?;

    let value = "「はじめに」の翻訳を確認しました。\n".repeat(200);
    let echo =
        json!({"target": "/", "operation": "/::diagnostics#echo", "input": {"value": value}});
    let first = structured(&call(&client, "invoke", echo.clone()).await?, &schema)?;
    let cursor = first["cursor"].as_str().ok_or("not cut")?;
    assert!(first.get("result").is_none(), "{first:#}");
    // The page within the budget, and little more for the fields around it.
    assert!(
        wip_tools::estimate_tokens(&first.to_string()) <= 500 + 100,
        "{first:#}"
    );

    let mut rest = echo;
    rest["cursor"] = Value::from(cursor);
    let second = structured(&call(&client, "invoke", rest).await?, &schema)?;
    assert!(
        second["text"]
            .as_str()
            .unwrap_or_default()
            .contains("(continued)"),
        "{second:#}"
    );

    client.cancel().await?;
    demo.shutdown().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_per_operation_tools_result_holds_the_calls_data() -> TestResult {
    let demo = wip_demo::serve("127.0.0.1:0".parse()?, DemoOptions::default()).await?;
    let flags = ["--structured", "--operations", "/"];
    let (_server, url) = listening(&demo.endpoint(), "127.0.0.1:0", &flags).await?;
    let client = http_client(&url).await?;
    let tools = client.list_all_tools().await?;
    let tool = tools
        .iter()
        .find(|tool| tool.name == "issue_read__read")
        .ok_or("no per-operation tool for /::issue.read#read")?;
    let schema = Value::Object((**tool.output_schema.as_ref().ok_or("no outputSchema")?).clone());
    let ran = call(
        &client,
        "issue_read__read",
        json!({"target": "/projects/wip/1"}),
    )
    .await?;
    let ran = structured(&ran, &schema)?;
    assert_eq!(ran["result"]["number"], 1, "{ran:#}");
    assert_eq!(ran["operation"], "/::issue.read#read");
    client.cancel().await?;
    demo.shutdown().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_flag_no_tool_declares_an_output_schema_and_no_result_is_structured()
-> TestResult {
    let demo = wip_demo::serve("127.0.0.1:0".parse()?, DemoOptions::default()).await?;
    let (_server, url) = listening(&demo.endpoint(), "127.0.0.1:0", &[]).await?;
    let client = http_client(&url).await?;
    let tools = client.list_all_tools().await?;
    assert!(tools.iter().all(|tool| tool.output_schema.is_none()));
    let shown = call(&client, "inspect", json!({"target": "/"})).await?;
    assert!(shown.structured_content.is_none());
    client.cancel().await?;
    demo.shutdown().await;
    Ok(())
}
