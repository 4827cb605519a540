//! Every example block of spec 4.2 that this crate renders, reproduced character for character.
//!
//! The expected texts are copied from the spec here, not read from the golden files, so blessing
//! the golden files can never silently move the output away from the spec.

mod common;

use std::path::Path;

use common::Case;

/// Renders the golden input `tests/data/<case>.json` and compares it with the spec's block.
fn check(case: &str, expected: &str) {
    let input = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(case)
        .with_extension("json");
    let case = Case::load(&input).unwrap_or_else(|error| panic!("{}: {error}", input.display()));
    let actual = case
        .render()
        .unwrap_or_else(|error| panic!("{}: {error}", input.display()));
    assert_eq!(actual, expected, "{}", input.display());
}

#[test]
fn object_signature() {
    check(
        "spec_object",
        r#"object at "/issues/123" {
  name: "123";
  description: "Issue 123の公開操作。本文はOperationで取得する。";
  interfaces: ["/::issue.read", "/::issue.lifecycle"];
}"#,
    );
}

#[test]
fn interface_signature() {
    check(
        "spec_interface",
        r#"/// "Issueの内容と関連項目を読む。"
interface "/::issue.read" {
  type Relation = enum { parent, sibling, related };

  type RelatedItems = {
    /// "同じWorldspace内の関連項目。"
    items: [entry],
    next_cursor?: string,
  };

  /// "本文を取得する。"
  operation read_body() -> { body: string };

  /// "関係を指定して関連項目を取得する。"
  operation get_related_items(
    relation: Relation,
    limit?: integer,
  ) -> RelatedItems;
}"#,
    );
}

#[test]
fn union_type() {
    check(
        "spec_close_result",
        "type CloseResult = union {
  closed,
  blocked({ dependencies: [entry] }),
};",
    );
}

#[test]
fn operation_notation() {
    check(
        "spec_operations",
        "operation get_related_items(
  relation: Relation,
  limit?: integer,
) -> {
  items: [entry],
  next_cursor?: string,
};

operation refresh() -> unit;",
    );
}

#[test]
fn names() {
    check(
        "spec_names",
        r#"interface "/::example" {
  type `string` = { `表示名`: string };
  operation `find-item`(`search term`: string) -> `string`;
}"#,
    );
}

#[test]
fn documentation() {
    check(
        "spec_documentation",
        r#"/// "対象を検索する。"
/// details "結果には同じWorldspace内のpathだけを含む。\n本文は別途取得する。"
operation search(
  /// "検索語。"
  query: string,
)
/// "条件に一致する項目。"
-> { items: [entry] };"#,
    );
}
