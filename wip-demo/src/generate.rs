//! The Worldspace's contents: a small hand-written tracker plus generated issues for scale tests.
//!
//! The hand-written part is the same on every start, so tests and the tour can rely on it. The
//! generated issues live in their own project, `/projects/bulk`, numbered from 1; they are
//! deterministic too (a hash of the issue number picks every field), and cheap: 100,000 of them
//! take a fraction of a second and a few tens of megabytes.

use wip_interface::{JsonMember, JsonValue};

use crate::types::{CloseReason, IssueStatus, Priority, TranslationState};
use crate::world::{CommentData, NewIssue, PersonData, ProjectData, ReviewData, State};

const ALICE: usize = 0;
const BOB: usize = 1;
const CHIYO: usize = 2;

const WIP: usize = 0;
const DOCS: usize = 1;
const BULK: usize = 2;

/// The path segment of the project with generated issues.
pub(crate) const BULK_KEY: &str = "bulk";

/// Builds the whole world with `generated` issues in the bulk project.
pub(crate) fn build(generated: usize) -> State {
    let mut state = State::new();
    people(&mut state);
    projects(&mut state);
    wip_issues(&mut state);
    docs_issues(&mut state);
    bulk_issues(&mut state, generated);
    state
}

fn people(state: &mut State) {
    for (handle, display_name) in [
        ("alice", "Alice Liddell"),
        ("bob", "Bob \"Tables\" Smith"),
        ("千代", "田中 千代"),
    ] {
        // Placeholder image bytes: the PNG signature followed by the handle.
        let mut avatar = b"\x89PNG\r\n\x1a\n".to_vec();
        avatar.extend_from_slice(handle.as_bytes());
        state.people.push(PersonData {
            handle: handle.into(),
            display_name: display_name.into(),
            avatar,
        });
    }
}

fn projects(state: &mut State) {
    for (key, title, lead, translated) in [
        ("wip", "The WIP client stack", ALICE, false),
        (
            "日本語 ドキュメント",
            "日本語ドキュメントの翻訳",
            CHIYO,
            true,
        ),
        (BULK_KEY, "Generated issues for scale tests", BOB, false),
    ] {
        let revision = state.revision();
        state.projects.push(ProjectData {
            key: key.into(),
            title: title.into(),
            lead,
            issues: Vec::new(),
            revision,
            translated,
        });
    }
}

fn new_issue(title: &str, priority: Priority, labels: &[&str]) -> NewIssue {
    NewIssue {
        title: title.into(),
        body: String::new(),
        priority,
        labels: labels.iter().map(|&label| label.into()).collect(),
        assignee: None,
        dependencies: Vec::new(),
    }
}

fn comment(author: usize, body: &str, attachment: Option<&[u8]>) -> CommentData {
    CommentData {
        author: Some(author),
        body: body.into(),
        attachment: attachment.map(<[u8]>::to_vec),
    }
}

fn json_member(name: &str, value: JsonValue) -> JsonMember {
    JsonMember {
        name: name.into(),
        value,
    }
}

fn wip_issues(state: &mut State) {
    let issues = [
        NewIssue {
            body: "After closing an issue, observing its project at depth 1 still shows the old \
                   validator until the next refresh."
                .into(),
            assignee: Some(BOB),
            ..new_issue(
                "Observe returns stale children after close",
                Priority::high,
                &["bug", "client"],
            )
        },
        new_issue(
            "Document the reference notation",
            Priority::normal,
            &["docs"],
        ),
        NewIssue {
            body: "Ship once the stale-children bug and the notation docs are done.".into(),
            assignee: Some(ALICE),
            dependencies: vec![1, 2],
            ..new_issue("Release 0.1", Priority::urgent, &["release"])
        },
        new_issue(
            "Support depth-limited observe",
            Priority::normal,
            &["feature"],
        ),
        NewIssue {
            body: "Object descriptions are Host data and may hold anything.".into(),
            ..new_issue(
                "Text View must escape hostile descriptions",
                Priority::low,
                &["security", "textview"],
            )
        },
        NewIssue {
            assignee: Some(CHIYO),
            ..new_issue(
                "Search results should be entries",
                Priority::normal,
                &["search"],
            )
        },
    ];
    for fields in issues {
        state.push_issue(WIP, fields);
    }
    state.close(
        WIP,
        4,
        CloseReason::completed,
        Some("Shipped in the first preview.".into()),
    );
    state.add_comment(
        WIP,
        1,
        comment(ALICE, "I can reproduce this with two clients.", None),
    );
    state.add_comment(
        WIP,
        1,
        comment(
            BOB,
            "Packet capture attached.",
            Some(b"pcap\x00\x01\x02\xff"),
        ),
    );
    if let Some(issue) = state.issue_mut(WIP, 5) {
        // A newline, a double quote and a right-to-left override, for renderers to escape.
        issue.description =
            Some("Reported title: \"invoice\u{202E}fdp.exe\"\nSecond line of the report".into());
    }
    if let Some(issue) = state.issue_mut(WIP, 6) {
        issue.custom = Some(JsonValue::Object(vec![
            json_member("estimate_days", JsonValue::Integer(3)),
            json_member("confidence", JsonValue::Number(0.75)),
            json_member("blocked", JsonValue::Boolean(false)),
            json_member(
                "components",
                JsonValue::Array(vec![JsonValue::String("search".into())]),
            ),
            json_member("milestone", JsonValue::Null),
        ]));
    }
}

fn docs_issues(state: &mut State) {
    state.push_issue(
        DOCS,
        NewIssue {
            assignee: Some(CHIYO),
            ..new_issue("「はじめに」の翻訳", Priority::normal, &["翻訳"])
        },
    );
    state.push_issue(
        DOCS,
        NewIssue {
            dependencies: vec![1],
            ..new_issue("用語集の翻訳", Priority::low, &["翻訳", "用語"])
        },
    );
    if let Some(issue) = state.issue_mut(DOCS, 1) {
        issue.review = Some(ReviewData {
            state: TranslationState::in_review,
            reviewer: None,
        });
    }
}

const ADJECTIVES: [&str; 8] = [
    "Flaky",
    "Slow",
    "Broken",
    "Missing",
    "Confusing",
    "Intermittent",
    "Duplicate",
    "Stale",
];
const SUBJECTS: [&str; 10] = [
    "parser",
    "cache",
    "search index",
    "login form",
    "export",
    "scheduler",
    "renderer",
    "retry loop",
    "settings page",
    "websocket",
];
const CONTEXTS: [&str; 7] = [
    "on startup",
    "under load",
    "after upgrade",
    "with unicode input",
    "on large projects",
    "in dark mode",
    "behind a proxy",
];
const LABELS: [&str; 5] = ["bug", "performance", "ux", "docs", "infra"];
const PRIORITIES: [Priority; 4] = [
    Priority::low,
    Priority::normal,
    Priority::high,
    Priority::urgent,
];

/// A well-mixed 64-bit hash (SplitMix64's finaliser), so neighbouring issues differ.
fn mix(value: u64) -> u64 {
    let mut z = value.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn pick<T: Copy>(items: &[T], hash: u64) -> T {
    items[(hash % items.len() as u64) as usize]
}

fn bulk_issues(state: &mut State, generated: usize) {
    let people = state.people.len() as u64;
    for number in 1..=generated as u64 {
        let hash = mix(number);
        let title = format!(
            "{} {} {}",
            pick(&ADJECTIVES, hash),
            pick(&SUBJECTS, hash >> 8),
            pick(&CONTEXTS, hash >> 16)
        );
        let assignee = (hash >> 24) % (people + 1);
        let fields = NewIssue {
            title,
            body: String::new(),
            priority: pick(&PRIORITIES, hash >> 32),
            labels: vec![pick(&LABELS, hash >> 40).into()],
            assignee: (assignee < people).then_some(assignee as usize),
            // Every tenth issue depends on the one before it, so closes can be blocked at scale.
            dependencies: if number.is_multiple_of(10) {
                vec![number as u32 - 1]
            } else {
                Vec::new()
            },
        };
        let Some(pushed) = state.push_issue(BULK, fields) else {
            break;
        };
        if !number.is_multiple_of(10)
            && (hash >> 48).is_multiple_of(5)
            && let Some(issue) = state.issue_mut(BULK, pushed)
        {
            issue.status = IssueStatus::closed;
            issue.close = Some((CloseReason::completed, None));
        }
    }
    state.generated = generated;
}
