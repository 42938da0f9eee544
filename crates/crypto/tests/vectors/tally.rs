//! Counting Wycheproof outcomes per file, with the acceptable-case policy made explicit.
//!
//! A file whose run checked nothing fails, and so does any case that disagrees with the
//! expected result or the stated policy.

use wycheproof::TestResult;

/// What one case did.
pub enum Outcome {
    /// Accepted, and any output matched the expected value.
    Accepted,
    /// Refused, with the reason (for failure messages).
    Rejected(String),
    /// Accepted but produced a different output than Wycheproof says: always a failure.
    Wrong(String),
}

impl Outcome {
    /// Accepted when `got == want`, `Wrong` otherwise.
    pub fn compare(got: &[u8], want: &[u8]) -> Self {
        if got == want {
            Self::Accepted
        } else {
            Self::Wrong(format!(
                "output {} != expected {}",
                burrow_testkit::hex::encode(got),
                burrow_testkit::hex::encode(want)
            ))
        }
    }

    /// From a `Result`: `Ok` is Accepted, `Err` Rejected.
    pub fn from_result<E: std::fmt::Debug>(r: Result<(), E>) -> Self {
        match r {
            Ok(()) => Self::Accepted,
            Err(e) => Self::Rejected(format!("{e:?}")),
        }
    }
}

/// How an "acceptable" case must come out.
#[derive(Clone, Copy, Debug)]
pub enum Acceptable {
    /// burrow accepts it (and the output must match).
    Accept,
    /// burrow refuses it.
    Reject,
    /// Either is fine, but an accepted case must produce the right output.
    Either,
}

/// Counts for one Wycheproof file.
pub struct Tally {
    file: String,
    valid: usize,
    invalid: usize,
    acceptable_accepted: usize,
    acceptable_rejected: usize,
    policy_refused: usize,
    out_of_scope: usize,
    failures: Vec<String>,
}

impl Tally {
    pub fn new(file: &str) -> Self {
        Self {
            file: file.to_string(),
            valid: 0,
            invalid: 0,
            acceptable_accepted: 0,
            acceptable_rejected: 0,
            policy_refused: 0,
            out_of_scope: 0,
            failures: Vec::new(),
        }
    }

    /// Records a case run through the API with Wycheproof's verdict and the acceptable policy.
    pub fn check(&mut self, tc: usize, expected: TestResult, policy: Acceptable, outcome: Outcome) {
        match (expected, outcome) {
            (_, Outcome::Wrong(why)) => self.fail(tc, &format!("{expected:?} case, {why}")),
            (TestResult::Valid, Outcome::Accepted) => self.valid += 1,
            (TestResult::Valid, Outcome::Rejected(why)) => {
                self.fail(tc, &format!("valid case rejected: {why}"))
            }
            (TestResult::Invalid, Outcome::Rejected(_)) => self.invalid += 1,
            (TestResult::Invalid, Outcome::Accepted) => self.fail(tc, "invalid case accepted"),
            (TestResult::Acceptable, Outcome::Accepted) => match policy {
                Acceptable::Reject => self.fail(tc, "acceptable case accepted, policy is reject"),
                _ => self.acceptable_accepted += 1,
            },
            (TestResult::Acceptable, Outcome::Rejected(why)) => match policy {
                Acceptable::Accept => self.fail(
                    tc,
                    &format!("acceptable case rejected ({why}), policy is accept"),
                ),
                _ => self.acceptable_rejected += 1,
            },
        }
    }

    /// Records a case burrow refuses by design whatever its verdict (e.g. a PSS salt length
    /// other than the hash length): it must be refused.
    pub fn refused_by_policy(&mut self, tc: usize, outcome: Outcome) {
        match outcome {
            Outcome::Rejected(_) => self.policy_refused += 1,
            _ => self.fail(tc, "out-of-policy case was accepted"),
        }
    }

    /// Records a case the API cannot even express (e.g. a 64-bit GCM nonce), counted apart.
    pub fn out_of_scope(&mut self) {
        self.out_of_scope += 1;
    }

    pub fn fail(&mut self, tc: usize, why: &str) {
        self.failures
            .push(format!("{} tcId {tc}: {why}", self.file));
    }

    /// Cases that went through the API and were checked.
    pub fn checked(&self) -> usize {
        self.valid
            + self.invalid
            + self.acceptable_accepted
            + self.acceptable_rejected
            + self.policy_refused
    }

    /// Prints the summary line and fails on any failure or on an empty run.
    pub fn finish(self) {
        let line = format!(
            "wycheproof {}: {} checked (valid accepted {}, invalid rejected {}, acceptable \
             accepted {} / rejected {}, refused by policy {}), {} out of scope, {} failures",
            self.file,
            self.checked(),
            self.valid,
            self.invalid,
            self.acceptable_accepted,
            self.acceptable_rejected,
            self.policy_refused,
            self.out_of_scope,
            self.failures.len()
        );
        crate::say(&line);
        assert!(self.checked() > 0, "{}: no case was checked", self.file);
        assert!(
            self.failures.is_empty(),
            "{}\n{}",
            line,
            self.failures
                .iter()
                .take(20)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}
