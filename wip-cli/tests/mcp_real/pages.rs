//! The pages of one cut result read to its end through its cursors, as the SDK scenarios
//! report them (`[{"is_error", "text"}, …]`).

use serde_json::Value;

/// Each page a result, every one after the first a continuation, only the last without the cut
/// marker of a 500-token budget; `report` is shown when one does not hold.
pub(crate) fn check_pages(pages: &Value, report: &Value) {
    let pages = pages.as_array().cloned().unwrap_or_default();
    assert!(pages.len() >= 2, "not cut: {report}");
    for (index, page) in pages.iter().enumerate() {
        let text = page["text"].as_str().unwrap_or_default();
        assert_eq!(page["is_error"], false, "page {index}: {text}");
        assert_eq!(
            index > 0,
            text.contains("\n(continued)\n"),
            "page {index}: {text}"
        );
        let last = index + 1 == pages.len();
        assert_eq!(
            !last,
            text.contains("[cut at 500 tokens"),
            "page {index}: {text}"
        );
    }
}
