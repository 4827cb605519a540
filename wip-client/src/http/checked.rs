//! The connector of [`HttpTransport`](super::HttpTransport): plain TCP connections that look at
//! their socket before the first byte of each request, so a request on a connection the Host has
//! already closed is refused unwritten and is known not to have been sent.

use std::future::Future;
use std::io::{self, IoSlice};
use std::pin::Pin;
use std::task::{Context, Poll};

use hyper::Uri;
use hyper_util::client::legacy::connect::{Connected, Connection, HttpConnector};
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Connects as [`HttpConnector`] does and hands out [`CheckedStream`]s.
#[derive(Clone)]
pub(super) struct CheckedConnector {
    inner: HttpConnector,
}

impl CheckedConnector {
    pub(super) fn new(inner: HttpConnector) -> Self {
        Self { inner }
    }
}

impl tower_service::Service<Uri> for CheckedConnector {
    type Response = TokioIo<CheckedStream>;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, BoxError>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        self.inner.poll_ready(cx).map_err(Into::into)
    }

    fn call(&mut self, uri: Uri) -> Self::Future {
        let connecting = self.inner.call(uri);
        Box::pin(async move {
            let stream = connecting.await?.into_inner();
            Ok(TokioIo::new(CheckedStream {
                stream,
                request_starts: true,
                unflushed: false,
            }))
        })
    }
}

/// A TCP connection that, before writing the first byte of a request, asks the socket itself
/// whether the peer has closed it.
///
/// hyper learns that a pooled connection was closed only when the runtime reports the socket
/// readable; a request sent in between is written onto the closed connection and its failure is
/// indistinguishable from a Host that read it and failed. The kernel knows sooner: a peek at the
/// socket that finds its end (or a reset) proves that no byte of the request has left, and the
/// write fails with [`NotWritten`] instead.
///
/// A request starts with the first write on the connection, and with the first write after a
/// read that came when everything written had been flushed (the previous exchange is over). The
/// transport writes each request whole (its body is one buffer) and flushes it before reading,
/// so no write that continues a request is taken for the start of one.
pub(super) struct CheckedStream {
    stream: TcpStream,
    /// The next byte written starts a request.
    request_starts: bool,
    /// Bytes were written and not yet flushed.
    unflushed: bool,
}

impl CheckedStream {
    /// Before the first byte of a request: fails when the socket shows the peer closed it.
    fn check(&mut self) -> io::Result<()> {
        if !std::mem::take(&mut self.request_starts) {
            return Ok(());
        }
        match peek(&self.stream) {
            Ok(0) => Err(io::Error::new(
                io::ErrorKind::ConnectionAborted,
                NotWritten { reset: None },
            )),
            Err(error)
                if matches!(
                    error.kind(),
                    io::ErrorKind::ConnectionReset | io::ErrorKind::ConnectionAborted
                ) =>
            {
                Err(io::Error::new(
                    error.kind(),
                    NotWritten { reset: Some(error) },
                ))
            }
            // Open (nothing to read, or bytes hyper will read and judge), or the peek itself
            // failed: write as usual.
            Ok(_) | Err(_) => Ok(()),
        }
    }
}

/// Peeks at the socket's receive queue without waiting: `Ok(0)` once the peer has closed it.
/// The runtime's readiness is not consulted (it may not know yet); a duplicate of the socket's
/// descriptor shares its non-blocking mode, and closing the duplicate leaves the socket open.
#[cfg(unix)]
fn peek(stream: &TcpStream) -> io::Result<usize> {
    use std::os::fd::AsFd;
    let duplicate = std::net::TcpStream::from(stream.as_fd().try_clone_to_owned()?);
    duplicate.peek(&mut [0; 1])
}

#[cfg(windows)]
fn peek(stream: &TcpStream) -> io::Result<usize> {
    use std::os::windows::io::AsSocket;
    let duplicate = std::net::TcpStream::from(stream.as_socket().try_clone_to_owned()?);
    duplicate.peek(&mut [0; 1])
}

/// Why a request was not written: the connection was found closed (its end or a reset waiting
/// in the socket) before its first byte.
#[derive(Debug, thiserror::Error)]
#[error("the connection was found closed before the request was written")]
pub(super) struct NotWritten {
    /// The reset the socket reported, if it was one.
    #[source]
    reset: Option<io::Error>,
}

impl AsyncRead for CheckedStream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let poll = Pin::new(&mut this.stream).poll_read(cx, buf);
        if matches!(poll, Poll::Ready(Ok(()))) && buf.filled().len() > before && !this.unflushed {
            this.request_starts = true;
        }
        poll
    }
}

impl AsyncWrite for CheckedStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        this.check()?;
        let poll = Pin::new(&mut this.stream).poll_write(cx, buf);
        if matches!(poll, Poll::Ready(Ok(n)) if n > 0) {
            this.unflushed = true;
        }
        poll
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        this.check()?;
        let poll = Pin::new(&mut this.stream).poll_write_vectored(cx, bufs);
        if matches!(poll, Poll::Ready(Ok(n)) if n > 0) {
            this.unflushed = true;
        }
        poll
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.stream).poll_flush(cx);
        if matches!(poll, Poll::Ready(Ok(()))) {
            this.unflushed = false;
        }
        poll
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

impl Connection for CheckedStream {
    fn connected(&self) -> Connected {
        self.stream.connected()
    }
}

/// Whether `error`, or one of its sources, says that no byte of the request was written: the
/// connection was found closed before the first ([`NotWritten`]), or hyper gave the request back
/// unstarted (a canceled request).
pub(super) fn not_written(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut next = Some(error);
    while let Some(error) = next {
        if error.is::<NotWritten>()
            || error
                .downcast_ref::<hyper::Error>()
                .is_some_and(hyper::Error::is_canceled)
            || error
                .downcast_ref::<io::Error>()
                .and_then(io::Error::get_ref)
                .is_some_and(|inner| inner.is::<NotWritten>())
        {
            return true;
        }
        next = error.source();
    }
    false
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    use super::*;

    /// A connected pair: our checked end, and the peer's.
    async fn pair() -> (CheckedStream, TcpStream) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let connecting = TcpStream::connect(listener.local_addr().unwrap());
        let (ours, accepted) = tokio::join!(connecting, listener.accept());
        let ours = CheckedStream {
            stream: ours.unwrap(),
            request_starts: true,
            unflushed: false,
        };
        (ours, accepted.unwrap().0)
    }

    #[tokio::test]
    async fn a_request_after_the_peer_closed_is_not_written() {
        // The peer answers and closes; the next request is refused before its first byte.
        let (mut ours, mut theirs) = pair().await;
        ours.write_all(b"request").await.unwrap();
        ours.flush().await.unwrap();
        let mut read = [0; 7];
        theirs.read_exact(&mut read).await.unwrap();
        theirs.write_all(b"answer").await.unwrap();
        drop(theirs);
        let mut answer = [0; 6];
        ours.read_exact(&mut answer).await.unwrap();
        let error = ours.write_all(b"next").await.unwrap_err();
        assert!(not_written(&error), "{error:?}");

        // A peer that keeps the connection open gets the next request.
        let (mut ours, mut theirs) = pair().await;
        ours.write_all(b"request").await.unwrap();
        ours.flush().await.unwrap();
        theirs.read_exact(&mut read).await.unwrap();
        theirs.write_all(b"answer").await.unwrap();
        ours.read_exact(&mut answer).await.unwrap();
        ours.write_all(b"next").await.unwrap();
        ours.flush().await.unwrap();
        let mut next = [0; 4];
        theirs.read_exact(&mut next).await.unwrap();
        assert_eq!(&next, b"next");
    }

    #[tokio::test]
    async fn a_write_that_continues_a_request_is_not_checked() {
        // Bytes read while the request is still unflushed do not start a new request.
        let (mut ours, mut theirs) = pair().await;
        ours.write_all(b"head").await.unwrap();
        theirs.write_all(b"early").await.unwrap();
        let mut early = [0; 5];
        ours.read_exact(&mut early).await.unwrap();
        assert!(!ours.request_starts);
        drop(theirs);
        // The rest of the request is written (the peer's close shows only later, if at all).
        let result = ours.write_all(b"body").await;
        assert!(
            result.as_ref().map_or_else(|e| !not_written(e), |()| true),
            "{result:?}"
        );
    }
}
