//! A handler's panic, caught where rmcp would otherwise meet it ([`Unwinding`]).

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::read::BoxFuture;

/// A handler's panic, caught.
pub(super) struct Panicked;

/// A handler's future that answers [`Panicked`] instead of unwinding into rmcp's task: a panic
/// there would leave the request without an answer, and the client waiting until it times out.
pub(super) struct Unwinding<'a, T>(pub(super) BoxFuture<'a, T>);

impl<T> Future for Unwinding<'_, T> {
    type Output = Result<T, Panicked>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let future = &mut self.0;
        // The future is not polled again after a panic, so no broken state is observed.
        match catch_unwind(AssertUnwindSafe(|| future.as_mut().poll(cx))) {
            Ok(Poll::Ready(value)) => Poll::Ready(Ok(value)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(_) => Poll::Ready(Err(Panicked)),
        }
    }
}
