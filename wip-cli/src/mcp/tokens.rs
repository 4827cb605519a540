//! The bearer tokens of `wip mcp --listen --auth-token-file FILE`: one token per line of FILE
//! (blank lines and lines starting with `#` are skipped), each the key of a principal of its
//! own. Tokens are never printed or logged.

use std::path::Path;

use hyper::header::HeaderValue;

use crate::failure::{Failure, Result};
use crate::mcp::principal::Principal;

/// The most tokens one file may hold.
pub(crate) const MAX_TOKENS: usize = 1024;

/// The tokens a request may carry, each with its principal.
pub(crate) struct Tokens(Vec<(Vec<u8>, Principal)>);

impl Tokens {
    /// Reads `file`: at least one token, at most [`MAX_TOKENS`], no two alike, none with a
    /// space or a control character in it.
    pub(crate) fn read(file: &Path) -> Result<Self> {
        let refuse =
            |what: String| Failure::input(format!("--auth-token-file {}: {what}", file.display()));
        let text = std::fs::read_to_string(file)
            .map_err(|error| refuse(format!("cannot read it: {error}")))?;
        let mut tokens: Vec<(Vec<u8>, Principal)> = Vec::new();
        for (number, line) in text
            .lines()
            .enumerate()
            .map(|(index, line)| (index + 1, line))
        {
            let token = line.trim();
            if token.is_empty() || token.starts_with('#') {
                continue;
            }
            if token.chars().any(|c| c.is_whitespace() || c.is_control()) {
                return Err(refuse(format!(
                    "line {number} is not one token: expected one token per line (no spaces)"
                )));
            }
            if tokens.iter().any(|(known, _)| known == token.as_bytes()) {
                return Err(refuse(format!(
                    "line {number} repeats an earlier token: each token names one client"
                )));
            }
            if tokens.len() == MAX_TOKENS {
                return Err(refuse(format!("more than {MAX_TOKENS} tokens")));
            }
            let token = token.as_bytes().to_vec();
            let principal = Principal::token_holder(&token);
            tokens.push((token, principal));
        }
        if tokens.is_empty() {
            return Err(refuse(
                "it holds no token: expected one token per line (no spaces)".to_owned(),
            ));
        }
        Ok(Self(tokens))
    }

    /// The principal whose token `header` carries as `Bearer TOKEN`: every token is compared,
    /// each in time independent of where it differs.
    pub(crate) fn principal(&self, header: Option<&HeaderValue>) -> Option<Principal> {
        // The scheme is case-insensitive (RFC 9110, section 11.1).
        let given = header
            .map(HeaderValue::as_bytes)
            .and_then(|value| value.split_at_checked(7))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case(b"bearer "))
            .map(|(_, token)| token.trim_ascii())?;
        let mut found = None;
        for (token, principal) in &self.0 {
            if constant_time_eq(given, token) {
                found = Some(principal.clone());
            }
        }
        found
    }
}

/// Equal slices, in time that depends on their lengths only.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let difference = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    std::hint::black_box(difference) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of this test's own (named by `name` and the process), removed on drop.
    struct File(std::path::PathBuf);

    impl File {
        fn new(name: &str, text: &str) -> Self {
            let path = std::env::temp_dir().join(format!("wip-{}-{name}", std::process::id()));
            std::fs::write(&path, text).expect("the temporary file is written");
            Self(path)
        }
    }

    impl Drop for File {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    #[test]
    fn each_token_is_compared_whole_and_names_its_own_principal() {
        let file = File::new("tokens", "# the clients\ns3cret\n\nother-token\n");
        let tokens = Tokens::read(&file.0).unwrap();
        let header = |text: &str| HeaderValue::from_str(text).unwrap();
        let one = tokens.principal(Some(&header("Bearer s3cret"))).unwrap();
        let two = tokens
            .principal(Some(&header("bearer other-token")))
            .unwrap();
        assert_ne!(one, two);
        assert_eq!(one, Principal::token_holder(b"s3cret"));
        for refused in [
            "Bearer s3cre",
            "Bearer s3cret2",
            "Basic s3cret",
            "s3cret",
            "Bearer ",
            "Bearer # the clients",
        ] {
            assert_eq!(tokens.principal(Some(&header(refused))), None, "{refused}");
        }
        assert_eq!(tokens.principal(None), None);
    }

    #[test]
    fn a_file_without_a_token_or_with_a_line_of_two_words_is_refused() {
        for (index, (text, expected)) in [
            ("\n# none\n", "holds no token"),
            ("one\ntwo words\n", "line 2 is not one token"),
            ("same\nsame\n", "line 2 repeats an earlier token"),
        ]
        .into_iter()
        .enumerate()
        {
            let file = File::new(&format!("refused-tokens-{index}"), text);
            let Err(failure) = Tokens::read(&file.0) else {
                panic!("{text:?} was accepted");
            };
            let message = failure.to_string();
            assert!(message.contains(expected), "{message}");
            assert!(
                !message.contains("two words"),
                "a token is never shown: {message}"
            );
        }
    }
}
