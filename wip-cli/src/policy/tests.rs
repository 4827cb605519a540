//! The policy file: every key, and each mistake refused with its line and column.

use wip_model::{InterfaceName, InterfaceReference, Path};
use wip_refs::OperationRef;
use wip_tools::{Policy, Refusal, Via};

use super::{FileError, read_toml};

fn parsed(text: &str) -> Policy {
    let mut policy = Policy::default();
    match read_toml(text, &mut policy) {
        Ok(()) => policy,
        Err(error) => panic!("{text:?}: {error:?}"),
    }
}

/// Reads `text` and compares the error's line, column and message start.
#[track_caller]
fn check_error(text: &str, line: usize, column: usize, message: &str) {
    let mut policy = Policy::default();
    let Err(FileError {
        line: found_line,
        column: found_column,
        message: found,
    }) = read_toml(text, &mut policy)
    else {
        panic!("{text:?} was read");
    };
    assert_eq!((found_line, found_column), (line, column), "{found}");
    assert!(found.starts_with(message), "{found:?}");
}

fn operation(scope: &str, name: &str, operation: &str) -> OperationRef {
    let interface =
        InterfaceReference::new(Path::new(scope).unwrap(), InterfaceName::new(name).unwrap());
    OperationRef::new(interface, operation)
}

fn path(text: &str) -> Path {
    Path::new(text).unwrap()
}

const EXAMPLE: &str = r##"# The operator's policy for the sample tracker.
reads = ["/::issue.read#*", '/::"issue comments"#list', "/::person#*"]
allow = ["/::*#*", '/projects/wip::"issue::lifecycle"#*']
deny = ['/projects/wip::"issue::lifecycle"#reopen']
allow_targets = ["/projects", "/people"]
deny_targets = ["/projects/secret"]
"##;

#[test]
fn every_key_becomes_its_rule() {
    let policy = parsed(EXAMPLE);
    assert_eq!(policy.reads().len(), 3);
    let read = operation("/", "issue.read", "read");
    assert!(policy.is_read(&read));
    assert!(policy.is_read(&operation("/", "issue comments", "list")));
    assert!(!policy.is_read(&operation("/", "issue comments", "add")));
    let issue = path("/projects/wip/1");
    assert_eq!(policy.check(&issue, &read, Via::Read), Ok(()));
    let reopen = operation("/projects/wip", "issue::lifecycle", "reopen");
    let Err(Refusal::Denied(denied)) = policy.check(&issue, &reopen, Via::Invoke) else {
        panic!("reopen ran");
    };
    assert_eq!(denied.origin, "policy file line 4");
    let close = operation("/projects/wip", "issue::lifecycle", "close");
    assert_eq!(policy.check(&issue, &close, Via::Invoke), Ok(()));
    assert_eq!(
        policy.check(&issue, &operation("/projects", "x", "y"), Via::Invoke),
        Err(Refusal::NotAllowed)
    );
    let Err(Refusal::DeniedTarget(target)) =
        policy.check(&path("/projects/secret/9"), &read, Via::Read)
    else {
        panic!("the denied target ran");
    };
    assert_eq!(target.origin, "policy file line 6");
    assert_eq!(
        policy.check(&path("/elsewhere"), &read, Via::Read),
        Err(Refusal::NotAllowedTarget)
    );
    assert!(!policy.is_read_only());
}

#[test]
fn confirm_and_confirm_targets_name_the_calls_a_person_accepts() {
    let policy = parsed(
        "confirm = ['/projects/wip::\"issue::lifecycle\"#close']\nconfirm_targets = [\"/projects/prod\"]\n",
    );
    let close = operation("/projects/wip", "issue::lifecycle", "close");
    let read = operation("/", "issue.read", "read");
    assert_eq!(
        policy
            .confirmation(&path("/projects/wip/3"), &close)
            .map(|rule| rule.to_string()),
        Some(
            "the confirm pattern /projects/wip::\"issue::lifecycle\"#close (policy file line 1)"
                .to_owned()
        )
    );
    assert_eq!(
        policy
            .confirmation(&path("/projects/prod/1"), &read)
            .map(|rule| rule.to_string()),
        Some("the confirm_targets path \"/projects/prod\" (policy file line 2)".to_owned())
    );
    assert_eq!(policy.confirmation(&path("/projects/wip/3"), &read), None);
    // Confirming is not refusing: every call still may run.
    assert_eq!(
        policy.check(&path("/projects/wip/3"), &close, Via::Invoke),
        Ok(())
    );
    check_error(
        "confirm_targets = [\"projects\"]",
        1,
        20,
        "confirm_targets: \"projects\" is not a canonical absolute path",
    );
}

#[test]
fn read_only_is_a_key_too() {
    let policy = parsed("reads = ['/::issue.read#*']\nread_only = true\n");
    assert!(policy.is_read_only());
    let close = operation("/", "issue.lifecycle", "close");
    assert_eq!(
        policy.check(&path("/i/1"), &close, Via::Invoke),
        Err(Refusal::ReadOnly(
            "read_only, policy file line 2".to_owned()
        ))
    );
    assert!(!parsed("read_only = false").is_read_only());
    assert_eq!(parsed("").tools(), ["discover", "inspect", "invoke"]);
}

#[test]
fn mistakes_are_refused_with_line_and_column() {
    check_error("reads = [\n", 1, 10, "not TOML: ");
    check_error("reads = ['/::a#*']\nreads = []\n", 2, 1, "not TOML: ");
    check_error(
        "reads = []\ndenny = ['/::a#*']\n",
        2,
        1,
        "unknown key \"denny\": the keys are reads, allow",
    );
    check_error("[reads]\n", 1, 1, "reads: expected an array of strings");
    check_error("[policy]\nreads = []\n", 1, 2, "unknown key \"policy\"");
    check_error(
        "deny = '/::a#*'\n",
        1,
        8,
        "deny: expected an array of strings",
    );
    check_error(
        "deny = ['/::a#*', 3]\n",
        1,
        19,
        "deny: expected a string, found integer",
    );
    check_error(
        "read_only = 'yes'\n",
        1,
        13,
        "read_only: expected true or false",
    );
    check_error(
        "allow = []\n",
        1,
        9,
        "allow is empty, which would let nothing run: leave allow out",
    );
    check_error("allow_targets = [ ]\n", 1, 17, "allow_targets is empty");
    // A pattern written plainly: the column is the character the parser stopped at.
    check_error(
        "# policy\ndeny = [\n  '/::issue.read',\n]\n",
        3,
        17,
        "deny: \"/::issue.read\" is not an operation pattern: at character 13: expected '#'",
    );
    check_error(
        "reads = [\"/::課題.*#read\"]\n",
        1,
        14,
        "reads: \"/::課題.*#read\" is not an operation pattern: at character 3: expected an interface name or *",
    );
    // Written with escapes, the string's start is given, and the character in the message.
    check_error(
        "reads = [\"/::\\u0069ssue#\"]\n",
        1,
        10,
        "reads: \"/::issue#\" is not an operation pattern: at character 9: expected an operation name or *",
    );
    check_error(
        "reads = ['issue.read#*']\n",
        1,
        11,
        "reads: \"issue.read#*\" is not an operation pattern: at character 0: expected a scope",
    );
    check_error(
        "deny_targets = ['/a/../b']\n",
        1,
        17,
        "deny_targets: \"/a/../b\" is not a canonical absolute path",
    );
    check_error(
        "deny_targets = ['/a', 'b/']\n",
        1,
        23,
        "deny_targets: \"b/\" is not a canonical absolute path",
    );
}
