//! Bounded reads: at most `concurrent` engine calls run at once (the others wait their turn),
//! and a call running past its time limit has its DuckDB query interrupted and answers
//! [`EngineError::TimedOut`]. The time limit counts from the call: waiting for a slot included.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use duckdb::InterruptHandle;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

use crate::EngineError;

/// How often a timed-out query is interrupted again until it stops: an interrupt that lands
/// between two statements of one call is cleared when the next statement starts.
const INTERRUPT_EVERY: Duration = Duration::from_millis(50);

/// What a caller is told to wait before retrying a refused read.
const BUSY_RETRY_AFTER_SECONDS: u64 = 2;

/// The limits of the engine's reads (`[queries]` of the server configuration).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadLimits {
    /// DuckDB worker threads (for the whole database).
    pub threads: usize,
    /// Engine calls running at once.
    pub concurrent: usize,
    /// The longest an engine call may take, waiting for a slot included.
    pub timeout: Duration,
}

impl Default for ReadLimits {
    /// One thread and one slot per core, 30 seconds.
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(2, |cores| cores.get());
        Self {
            threads: cores,
            concurrent: cores,
            timeout: Duration::from_secs(30),
        }
    }
}

/// The slots and time limit of the engine's reads; replaced whole by a new configuration.
pub(crate) struct ReadGate {
    current: Mutex<(Arc<Semaphore>, Duration)>,
}

impl Default for ReadGate {
    fn default() -> Self {
        let gate = Self {
            current: Mutex::new((Arc::new(Semaphore::new(1)), Duration::ZERO)),
        };
        gate.set(&ReadLimits::default());
        gate
    }
}

impl ReadGate {
    pub(crate) fn set(&self, limits: &ReadLimits) {
        let semaphore = Arc::new(Semaphore::new(limits.concurrent.max(1)));
        *self
            .current
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = (semaphore, limits.timeout);
    }

    /// Waits for a slot until the call's deadline.
    pub(crate) async fn enter(&self) -> Result<Entry, EngineError> {
        let (semaphore, timeout) = self
            .current
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        let deadline = Instant::now() + timeout;
        let permit = tokio::time::timeout_at(deadline, semaphore.acquire_owned())
            .await
            .map_err(|_| EngineError::Busy {
                retry_after_seconds: BUSY_RETRY_AFTER_SECONDS,
            })?
            .map_err(|_| EngineError::Database("the read slots are closed".to_owned()))?;
        Ok(Entry {
            permit,
            deadline,
            timeout,
        })
    }
}

/// A read slot, held until the read's work has stopped.
pub(crate) struct Entry {
    permit: OwnedSemaphorePermit,
    deadline: Instant,
    timeout: Duration,
}

impl Entry {
    /// Runs `work` on a blocking thread. Past the deadline a watchdog interrupts `interrupt`'s
    /// connection until `work` returns; the slot is released when `work` returns, even when
    /// the caller stopped waiting (a client that went away). Answers the result and whether
    /// the connection was interrupted (it must not be reused then).
    pub(crate) async fn run<T, F>(
        self,
        interrupt: Arc<InterruptHandle>,
        work: F,
    ) -> Result<(T, bool), EngineError>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let finished = Arc::new(AtomicBool::new(false));
        let interrupted = Arc::new(AtomicBool::new(false));
        let watchdog = tokio::spawn(watch(
            self.deadline,
            interrupt,
            Arc::clone(&finished),
            Arc::clone(&interrupted),
        ));
        let permit = self.permit;
        let done = Arc::clone(&finished);
        let task = tokio::task::spawn_blocking(move || {
            let output = work();
            done.store(true, Ordering::SeqCst);
            drop(permit);
            output
        });
        let joined = task.await;
        // The watchdog is stopped before its flag is read: no interrupt lands later.
        watchdog.abort();
        let _ = watchdog.await;
        let output = joined
            .map_err(|error| EngineError::Database(format!("cost query task failed: {error}")))?;
        Ok((output, interrupted.load(Ordering::SeqCst)))
    }

    pub(crate) fn timeout(&self) -> Duration {
        self.timeout
    }
}

/// The error of a read cancelled after `timeout`.
pub(crate) fn timed_out(timeout: Duration) -> EngineError {
    let seconds = timeout.as_secs().max(1);
    EngineError::TimedOut {
        seconds,
        retry_after_seconds: seconds.min(30),
    }
}

async fn watch(
    deadline: Instant,
    interrupt: Arc<InterruptHandle>,
    finished: Arc<AtomicBool>,
    interrupted: Arc<AtomicBool>,
) {
    tokio::time::sleep_until(deadline).await;
    while !finished.load(Ordering::SeqCst) {
        interrupted.store(true, Ordering::SeqCst);
        interrupt.interrupt();
        tokio::time::sleep(INTERRUPT_EVERY).await;
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::DuckDbEngine;

    /// A query that would run for hours.
    const ENDLESS: &str = "SELECT sum(hash(i)) FROM range(1000000000000) t(i)";

    fn engine(concurrent: usize, timeout: Duration) -> DuckDbEngine {
        let engine = DuckDbEngine::open_in_memory().expect("engine");
        engine
            .configure_reads(&ReadLimits {
                threads: 2,
                concurrent,
                timeout,
            })
            .expect("limits");
        engine
    }

    async fn answer(engine: &DuckDbEngine) -> Result<i64, EngineError> {
        engine
            .read(|connection| {
                connection
                    .query_row("SELECT 42", [], |row| row.get(0))
                    .map_err(crate::duckdb_engine::database_error)
            })
            .await
    }

    #[tokio::test]
    async fn a_query_past_the_time_limit_is_interrupted_and_the_next_one_answers() {
        let engine = engine(1, Duration::from_millis(300));
        let started = Instant::now();
        let endless = engine
            .read(|connection| {
                connection
                    .query_row(ENDLESS, [], |row| row.get::<_, i128>(0))
                    .map_err(crate::duckdb_engine::database_error)
            })
            .await;
        let took = started.elapsed();
        assert!(
            matches!(
                endless,
                Err(EngineError::TimedOut {
                    seconds: 1,
                    retry_after_seconds: 1
                })
            ),
            "{endless:?}"
        );
        assert!(took < Duration::from_secs(3), "took {took:?}");
        // The one slot is free again; the interrupted connection was not pooled.
        for _ in 0..3 {
            assert_eq!(answer(&engine).await.unwrap(), 42);
        }
    }

    #[tokio::test]
    async fn statements_after_an_interrupt_are_interrupted_too() {
        let engine = engine(1, Duration::from_millis(200));
        let started = Instant::now();
        let several = engine
            .read(|connection| {
                // Each statement alone would run for hours, and the call goes on after an
                // error: only the repeated interrupt stops each of them.
                let failed = (0..10)
                    .filter(|_| {
                        connection
                            .query_row(ENDLESS, [], |row| row.get::<_, i128>(0))
                            .is_err()
                    })
                    .count();
                assert_eq!(failed, 10);
                Err::<(), _>(EngineError::Database("interrupted".to_owned()))
            })
            .await;
        assert!(
            matches!(several, Err(EngineError::TimedOut { .. })),
            "{several:?}"
        );
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[tokio::test]
    async fn a_read_waits_for_a_slot_and_is_refused_busy_past_the_limit() {
        let engine = engine(1, Duration::from_millis(300));
        let holder = engine.clone();
        // Work the interrupt cannot stop holds the only slot for a second.
        let held = tokio::spawn(async move {
            holder
                .read(|_| {
                    std::thread::sleep(Duration::from_secs(1));
                    Ok(7)
                })
                .await
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        let waited = answer(&engine).await;
        assert!(
            matches!(
                waited,
                Err(EngineError::Busy {
                    retry_after_seconds: 2
                })
            ),
            "{waited:?}"
        );
        // A call that finished despite the interrupt keeps its answer.
        assert_eq!(held.await.unwrap().unwrap(), 7);
        assert_eq!(answer(&engine).await.unwrap(), 42);
    }

    #[tokio::test]
    async fn reads_within_the_slots_run_side_by_side() {
        let engine = engine(2, Duration::from_secs(5));
        let slow = |engine: DuckDbEngine| async move {
            engine
                .read(|_| {
                    std::thread::sleep(Duration::from_millis(300));
                    Ok(())
                })
                .await
        };
        let started = Instant::now();
        let (first, second) = tokio::join!(slow(engine.clone()), slow(engine.clone()));
        first.unwrap();
        second.unwrap();
        assert!(
            started.elapsed() < Duration::from_millis(550),
            "{:?}",
            started.elapsed()
        );
    }
}
