//! Answering signature checks asynchronously (WebCrypto in a Worker) without callbacks into
//! the validator: run the validation with an [`AnswerBook`]; if it recorded requests it could
//! not answer, the result is provisional — answer them (in any order, concurrently), record
//! the answers, and run the validation again. Each round only adds answers, so the loop ends;
//! callers should still cap it (say [`MAX_ANSWER_ROUNDS`]).
//!
//! ```text
//! let book = AnswerBook::new();
//! loop {
//!     let r = verifier.verify(&certs, &name, &book);
//!     let pending = book.take_pending();
//!     if pending.is_empty() { break r; }          // final answer
//!     for req in pending { let ok = webcrypto_verify(&req).await; book.answer(&req, ok); }
//! }
//! ```

use std::cell::RefCell;
use std::collections::HashMap;

use crate::alg::{SignatureAlgorithm, SignatureFailure, SignatureRequest, SignatureVerifier};

/// A sensible cap on validation rounds with an [`AnswerBook`].
pub const MAX_ANSWER_ROUNDS: usize = 16;

/// An owned [`SignatureRequest`], to carry across an `await`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OwnedSignatureRequest {
    /// The scheme.
    pub algorithm: SignatureAlgorithm,
    /// The signer's SubjectPublicKeyInfo, DER.
    pub spki: Vec<u8>,
    /// The signed bytes.
    pub message: Vec<u8>,
    /// The signature.
    pub signature: Vec<u8>,
}

impl OwnedSignatureRequest {
    fn from_req(r: &SignatureRequest<'_>) -> Self {
        OwnedSignatureRequest {
            algorithm: r.algorithm,
            spki: r.spki.to_vec(),
            message: r.message.to_vec(),
            signature: r.signature.to_vec(),
        }
    }

    /// Borrowed view (e.g. to answer it inline with another [`SignatureVerifier`]).
    pub fn as_request(&self) -> SignatureRequest<'_> {
        SignatureRequest {
            algorithm: self.algorithm,
            spki: &self.spki,
            message: &self.message,
            signature: &self.signature,
        }
    }
}

/// Answers from earlier rounds, plus the requests still unanswered. Unknown requests are
/// recorded and provisionally treated as valid, so one round surfaces a whole path's worth of
/// requests; a result is final only when [`AnswerBook::take_pending`] comes back empty.
#[derive(Debug, Default)]
pub struct AnswerBook {
    answers: RefCell<HashMap<OwnedSignatureRequest, Result<(), SignatureFailure>>>,
    pending: RefCell<Vec<OwnedSignatureRequest>>,
}

impl AnswerBook {
    /// An empty book.
    pub fn new() -> Self {
        AnswerBook::default()
    }

    /// Records the answer to a request.
    pub fn answer(&self, req: &OwnedSignatureRequest, result: Result<(), SignatureFailure>) {
        self.answers.borrow_mut().insert(req.clone(), result);
    }

    /// The requests the last round could not answer (and forgets them). Empty = the last
    /// validation result is final.
    pub fn take_pending(&self) -> Vec<OwnedSignatureRequest> {
        core::mem::take(&mut *self.pending.borrow_mut())
    }
}

impl SignatureVerifier for AnswerBook {
    fn verify(&self, req: &SignatureRequest<'_>) -> Result<(), SignatureFailure> {
        let owned = OwnedSignatureRequest::from_req(req);
        if let Some(r) = self.answers.borrow().get(&owned) {
            return *r;
        }
        let mut pending = self.pending.borrow_mut();
        if !pending.contains(&owned) {
            pending.push(owned);
        }
        Ok(())
    }

    /// True while a request of this round waits for its answer (it was answered "valid" for
    /// now).
    fn provisional(&self) -> bool {
        !self.pending.borrow().is_empty()
    }
}
