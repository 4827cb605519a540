//! discover with the fake Worldspace: crawling within the budget, coverage, ranking, pages,
//! truncation at the output budget, and the pointer to domain search.

mod common;

use common::{block_on, issue_tracker, path, reference, tools, tools_with};
use serde_json::json;
use wip_tools::fake::{FakeInteraction, FakeWorldspace};
use wip_tools::{
    Audience, DiscoverInput, DiscoverOutcome, MIN_OUTPUT_TOKENS, ToolOutput, Tools, ToolsConfig,
    WorldspaceError, estimate_tokens,
};

fn discover(
    tools: &Tools<FakeWorldspace>,
    scope: &str,
    query: &str,
    limit: Option<u64>,
    cursor: Option<&str>,
) -> ToolOutput {
    block_on(tools.discover(&DiscoverInput {
        scope: scope.into(),
        query: query.into(),
        limit,
        cursor: cursor.map(Into::into),
    }))
}

fn check(output: &ToolOutput, is_error: bool, expected: &[&str]) {
    assert_eq!(output.is_error, is_error, "{}", output.text);
    for fragment in expected {
        assert!(
            output.text.contains(fragment),
            "missing {fragment:?} in:\n{}",
            output.text
        );
    }
}

/// The cursor the output hands out for the next page.
fn next_cursor(output: &ToolOutput) -> String {
    let start = output
        .text
        .find("cursor \"page-")
        .expect("a next-page cursor")
        + "cursor \"".len();
    let end = output.text[start..].find('"').unwrap() + start;
    output.text[start..end].to_owned()
}

#[test]
fn ranked_entries_with_coverage_and_the_domain_search_pointer() {
    let tools = tools(issue_tracker());
    check(
        &discover(&tools, "/", "login", None, None),
        false,
        &[
            "discover in \"/\" for \"login\": entries 1-1 of 1 matching\n",
            "1. \"/issues/1\" name: \"1\" description: \"Login fails\" interfaces: [\"/::issue.read\", \"/::issue.lifecycle\"]\n",
            "coverage: 4 entries of the scope indexed; 5 observes sent now; the whole scope is indexed, every listing observed within the last 5 min.",
        ],
    );
    // The scope's own search interface is pointed at, as content search is not discover's job.
    check(
        &discover(&tools, "/issues", "log", None, None),
        false,
        &[
            "entries 1-2 of 2 matching",
            "1. \"/issues/1\"",
            "2. \"/issues/2\"",
            "observes sent now; the whole scope is indexed",
            "domain search: discover matches entry names, descriptions and paths, not content. To search content, inspect one of these and invoke its operation: \"/issues\" offers \"/issues::issue.search\";",
        ],
    );
}

#[test]
fn the_crawl_budget_bounds_each_discover_and_coverage_says_so() {
    let config = ToolsConfig {
        crawl_budget: 1,
        ..ToolsConfig::default()
    };
    let tools = tools_with(issue_tracker(), config);
    check(
        &discover(&tools, "/", "", None, None),
        false,
        &[
            "entries 1-1 of 1 matching",
            "1. \"/issues\"",
            "coverage: 1 entries of the scope indexed; 1 observes sent now; 1 Objects still unexplored (crawl budget reached): discover again to crawl further.",
        ],
    );
    check(
        &discover(&tools, "/", "", None, None),
        false,
        &[
            "entries 1-4 of 4 matching",
            "4 entries of the scope indexed",
        ],
    );
    assert_eq!(tools.worldspace().observes(), 2);
}

#[test]
fn pages_follow_the_cursor_to_the_end() {
    let tools = tools(issue_tracker());
    let first = discover(&tools, "/issues", "", Some(2), None);
    check(
        &first,
        false,
        &[
            "entries 1-2 of 3 matching",
            "1. \"/issues/1\"",
            "2. \"/issues/2\"",
            "more: 1 more matching;",
        ],
    );
    let cursor = next_cursor(&first);
    let second = discover(&tools, "/issues", "", Some(2), Some(&cursor));
    check(
        &second,
        false,
        &["entries 3-3 of 3 matching", "3. \"/issues/3\""],
    );
    assert!(!second.text.contains("more:"), "{}", second.text);
    // A cursor belongs to its scope and query.
    check(
        &discover(&tools, "/issues", "crash", Some(2), Some(&cursor)),
        true,
        &[
            "error: invalid tool argument \"cursor\": this cursor belongs to a discover with another scope or query",
        ],
    );
    check(
        &discover(&tools, "/issues", "", None, Some("page-???")),
        true,
        &["not a cursor from discover"],
    );
}

#[test]
fn a_command_pages_with_its_own_options_and_the_report_gives_the_cursor_the_text_names() {
    let config = ToolsConfig {
        audience: Audience::Command,
        max_output_tokens: usize::MAX,
        ..ToolsConfig::default()
    };
    let tools = tools_with(issue_tracker(), config);
    let input = |cursor: Option<String>, limit| DiscoverInput {
        scope: "/issues".into(),
        query: String::new(),
        limit,
        cursor,
    };
    let mut cursor = None;
    let mut listed = Vec::new();
    for _ in 0..3 {
        let report = block_on(tools.discover_report(&input(cursor.take(), Some(1))));
        let DiscoverOutcome::Listed(page) = &report.outcome else {
            panic!("{}", report.output.text);
        };
        listed.extend(page.hits.iter().map(|hit| hit.path.as_str().to_owned()));
        cursor = report.next_cursor.clone();
        match &cursor {
            Some(next) => assert!(
                report.output.text.contains(&format!(
                    "; the next page: wip discover '' --scope '/issues' --limit 1 --cursor {next}\n"
                )),
                "{}",
                report.output.text
            ),
            None => assert!(
                !report.output.text.contains("more:"),
                "{}",
                report.output.text
            ),
        }
    }
    assert_eq!(listed, ["/issues/1", "/issues/2", "/issues/3"]);
    assert_eq!(cursor, None, "the third page is the last");

    // Wrong options are named as the command line names them, and so is the way to page.
    let report = block_on(tools.discover_report(&input(None, Some(51))));
    check(
        &report.output,
        true,
        &[
            "error: invalid option --limit: 51 is not from 1 to 50: a page holds 1 to 50 entries, and --cursor reads the page after one, --all every page",
            "next: Nothing was sent. Correct it and run the command again.",
        ],
    );
    assert!(
        !report.output.text.contains("tool"),
        "{}",
        report.output.text
    );
    let report = block_on(tools.discover_report(&input(Some("page-???".into()), None)));
    check(&report.output, true, &["error: invalid option --cursor: "]);
}

#[test]
fn the_size_cap_keeps_entries_whole_and_the_cursor_goes_on_from_the_first_one_cut() {
    let fake = issue_tracker();
    for number in 10..40 {
        fake.insert_object(
            &path(&format!("/issues/{number}")),
            &number.to_string(),
            Some(&"long description ".repeat(8)),
            vec![],
        );
    }
    let config = ToolsConfig {
        max_output_tokens: MIN_OUTPUT_TOKENS,
        ..ToolsConfig::default()
    };
    let tools = tools_with(fake, config);
    let first = discover(&tools, "/issues", "", Some(20), None);
    let tokens = estimate_tokens(&first.text);
    assert!(tokens <= MIN_OUTPUT_TOKENS, "{tokens}");
    check(
        &first,
        false,
        &[
            "entries 1-",
            "[truncated at the size cap: ",
            "entries of this page not shown]",
            "more: ",
        ],
    );
    let shown = first
        .text
        .lines()
        .filter(|line| line.starts_with(|c: char| c.is_ascii_digit()))
        .count();
    let second = discover(&tools, "/issues", "", Some(20), Some(&next_cursor(&first)));
    check(&second, false, &[&format!("entries {}-", shown + 1)]);
}

#[test]
fn a_page_cut_at_the_budget_gives_a_cursor_discover_reads() {
    let searchable = || {
        let fake = issue_tracker();
        let search = reference("/issues", "issue.search");
        for number in 10..60 {
            fake.insert_object(
                &path(&format!("/issues/{number}")),
                &number.to_string(),
                None,
                vec![search.clone()],
            );
        }
        fake
    };
    let config = ToolsConfig {
        max_output_tokens: MIN_OUTPUT_TOKENS,
        ..ToolsConfig::default()
    };
    let tools = tools_with(searchable(), config);
    // Even with no entry shown, the pointers to the hits' search are past the budget.
    let first = discover(&tools, "/issues", "", Some(50), None);
    let cursor = first.cursor.clone().expect("cut at the budget");
    assert!(
        first
            .text
            .contains("call discover again with the same arguments and cursor")
    );
    let other_query = discover(&tools, "/issues", "x", Some(50), Some(&cursor));
    check(&other_query, true, &["this cursor belongs to another call"]);
    let rest = discover(&tools, "/issues", "", Some(50), Some(&cursor));
    check(&rest, false, &["(continued)\n"]);
    let shown = first.text.rsplit_once("\n[cut at ").unwrap().0;
    let whole = format!(
        "{shown}{}",
        rest.text.split_once("(continued)\n").unwrap().1
    );
    // The pointers are those of the same discover without a budget to speak of, none lost.
    let uncut = tools_with(
        searchable(),
        ToolsConfig {
            max_output_tokens: usize::MAX,
            ..ToolsConfig::default()
        },
    );
    let uncut = discover(&uncut, "/issues", "", Some(50), None).text;
    let pointers = |text: &str| {
        let line = text.lines().find(|line| line.starts_with("domain search:"));
        line.map(str::to_owned)
    };
    assert!(pointers(&uncut).is_some_and(|line| line.matches(" offers ").count() > 40));
    assert_eq!(pointers(&whole), pointers(&uncut));
}

#[test]
fn mistakes_and_failures_are_outputs() {
    let fake = issue_tracker();
    fake.fail_next(
        FakeInteraction::Search,
        WorldspaceError::Unavailable {
            message: "down".into(),
        },
    );
    let tools = tools(fake);
    check(
        &discover(&tools, "/", "", None, None),
        true,
        &["error: discover failed: the Worldspace is unavailable: down"],
    );
    check(
        &discover(&tools, "issues", "", None, None),
        true,
        &["\"scope\": \"issues\" is not a canonical absolute path"],
    );
    check(
        &discover(&tools, "/", "", Some(0), None),
        true,
        &[
            "\"limit\": 0 is not from 1 to 50: a page holds 1 to 50 entries, and the cursor a page gives reads the next",
        ],
    );
    check(
        &discover(&tools, "/", "", Some(51), None),
        true,
        &["\"limit\": 51 is not from 1 to 50"],
    );
    check(
        &discover(&tools, "/nowhere", "", None, None),
        true,
        &[
            "error: discover failed: not_found:",
            "next: No Object is at this path",
        ],
    );
}

#[test]
fn call_tool_reads_tool_call_arguments() {
    let tools = tools(issue_tracker());
    let output = block_on(tools.call_tool(
        "discover",
        &json!({"scope": "/issues", "query": "crash", "limit": 5}),
    ));
    check(&output, false, &["1. \"/issues/3\""]);
    for (name, arguments, expected) in [
        ("discover", json!({"query": "x"}), "\"scope\": missing"),
        (
            "discover",
            json!({"scope": "/", "limit": "5"}),
            "\"limit\": expected a positive integer",
        ),
        (
            "discover",
            json!({"scope": "/", "depth": 1}),
            "\"depth\": not an argument of discover",
        ),
        (
            "inspect",
            json!({"target": 1}),
            "\"target\": expected a string",
        ),
        (
            "invoke",
            json!({"target": "/issues/1", "operation": "close", "input": "x"}),
            "\"input\": expected a JSON object",
        ),
        ("search", json!({}), "unknown tool"),
        (
            "discover",
            json!([]),
            "expected a JSON object of named arguments",
        ),
    ] {
        check(
            &block_on(tools.call_tool(name, &arguments)),
            true,
            &[expected],
        );
    }
}

#[test]
fn the_report_gives_the_page_the_rejected_argument_or_the_failure_beside_the_same_text() {
    let agent = tools(issue_tracker());
    let input = |scope: &str, limit| DiscoverInput {
        scope: scope.into(),
        query: "login".into(),
        limit,
        cursor: None,
    };
    let report = block_on(agent.discover_report(&input("/", Some(2))));
    let DiscoverOutcome::Listed(page) = &report.outcome else {
        panic!("{:?}\n{}", report.outcome, report.output.text);
    };
    assert!(!report.output.is_error);
    assert!(!page.hits.is_empty() && page.hits.len() <= 2, "{page:?}");
    for hit in &page.hits {
        assert!(
            report
                .output
                .text
                .contains(&format!("\"{}\"", hit.path.as_str()))
        );
    }
    // discover on a fresh Worldspace gives the same text: the report's output is the tool's.
    let fresh = tools(issue_tracker());
    assert_eq!(
        block_on(fresh.discover(&input("/", Some(2)))),
        report.output
    );

    for (scope, limit, argument) in [
        ("issues", None, "scope"),
        ("/", Some(0), "limit"),
        ("/", Some(51), "limit"),
    ] {
        let report = block_on(agent.discover_report(&input(scope, limit)));
        assert_eq!(
            report.outcome,
            DiscoverOutcome::Rejected { argument },
            "{}",
            report.output.text
        );
        assert!(report.output.is_error);
    }
    let report = block_on(agent.discover_report(&input("/nowhere", None)));
    let DiscoverOutcome::Failed(WorldspaceError::Protocol(error)) = &report.outcome else {
        panic!("{:?}", report.outcome);
    };
    assert_eq!(error.code.as_str(), "not_found");
    assert!(report.output.is_error && report.output.text.contains("not_found"));
}
