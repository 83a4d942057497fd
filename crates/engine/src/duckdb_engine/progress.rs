//! Progress of one load: what it is doing, the rows read and the bytes of its files read so
//! far, sent to the request's [`crate::ProgressFn`] at most every [`THROTTLE`] (phase changes
//! at once).
//!
//! DuckDB reads a file inside one statement, so the bytes read are watched from outside: on
//! Linux, the position of this process's open file descriptors on the file (DuckDB reads a CSV
//! file, gzip or not, front to back), sampled every [`SAMPLE_EVERY`]. Elsewhere a file counts as
//! read once it has been staged.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::{LoadPhase, LoadProgress, LoadRequest, ProgressFn};

/// Bytes-read updates are sent at most this often.
pub(crate) const THROTTLE: Duration = Duration::from_millis(500);
/// How often the read position of the file being staged is sampled.
const SAMPLE_EVERY: Duration = Duration::from_millis(200);

/// The progress of one load, shared with the thread watching the file being read.
pub(crate) struct Tracker {
    callback: Option<ProgressFn>,
    state: Mutex<State>,
}

struct State {
    progress: LoadProgress,
    /// Bytes of the files before the current one (all read).
    bytes_before: u64,
    /// Rows of the files before the current one.
    rows_before: u64,
    /// Rows the reader read from the current file, once it said.
    current_rows: Option<u64>,
    last_sent: Option<Instant>,
}

impl Tracker {
    pub(crate) fn new(request: &LoadRequest) -> Arc<Self> {
        let bytes_total = request.files.iter().map(|file| file_size(&file.path)).sum();
        Arc::new(Self {
            callback: request.progress.clone(),
            state: Mutex::new(State {
                progress: LoadProgress {
                    phase: LoadPhase::Reading,
                    file_index: 0,
                    files: request.files.len(),
                    file_name: request
                        .files
                        .first()
                        .map(|file| file.display_name.clone())
                        .unwrap_or_default(),
                    rows_read: 0,
                    bytes_read: 0,
                    bytes_total,
                },
                bytes_before: 0,
                rows_before: 0,
                current_rows: None,
                last_sent: None,
            }),
        })
    }

    fn update(&self, force: bool, change: impl FnOnce(&mut State)) {
        let Some(callback) = &self.callback else {
            return;
        };
        let progress = {
            let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            let before = state.progress.clone();
            change(&mut state);
            let due = state
                .last_sent
                .is_none_or(|sent| sent.elapsed() >= THROTTLE);
            let unchanged = state.progress == before && state.last_sent.is_some();
            if unchanged || !(force || due) {
                return;
            }
            state.last_sent = Some(Instant::now());
            state.progress.clone()
        };
        callback(progress);
    }

    /// File `index` starts being read.
    pub(crate) fn file_started(&self, index: usize, name: &str) {
        self.update(true, |state| {
            state.progress.phase = LoadPhase::Reading;
            state.progress.file_index = index;
            state.progress.file_name = name.to_owned();
        });
    }

    /// `position` bytes of the current file have been read.
    fn read_up_to(&self, position: u64) {
        self.update(false, |state| {
            let bytes = state.bytes_before + position;
            state.progress.bytes_read = state.progress.bytes_read.max(bytes);
        });
    }

    /// The current file has been read whole: `rows` data rows; its rows are checked next.
    pub(crate) fn file_read(&self, rows: u64, bytes: u64) {
        self.update(true, |state| {
            state.current_rows = Some(rows);
            state.progress.phase = LoadPhase::Checking;
            state.progress.rows_read = state.rows_before + rows;
            state.progress.bytes_read = state.bytes_before + bytes;
        });
    }

    /// The current file is staged: `staged_rows` normalised rows (its rows read when the reader
    /// did not say), `bytes` long.
    pub(crate) fn file_staged(&self, staged_rows: u64, bytes: u64) {
        self.update(true, |state| {
            state.rows_before += state.current_rows.take().unwrap_or(staged_rows);
            state.bytes_before += bytes;
            state.progress.rows_read = state.rows_before;
            state.progress.bytes_read = state.bytes_before;
        });
    }

    /// The load moves on to `phase` (writing, rollups).
    pub(crate) fn phase(&self, phase: LoadPhase) {
        self.update(true, |state| state.progress.phase = phase);
    }
}

pub(crate) fn file_size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |metadata| metadata.len())
}

/// Watches how far this process has read `path` until dropped.
pub(crate) struct ReadWatch {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl ReadWatch {
    pub(crate) fn start(tracker: &Arc<Tracker>, path: &Path) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let thread = if tracker.callback.is_some() && cfg!(target_os = "linux") {
            let tracker = Arc::clone(tracker);
            let stop = Arc::clone(&stop);
            let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
            std::thread::Builder::new()
                .name("load-progress".to_owned())
                .spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        if let Some(position) = read_position(&path) {
                            tracker.read_up_to(position);
                        }
                        std::thread::park_timeout(SAMPLE_EVERY);
                    }
                })
                .ok()
        } else {
            None
        };
        Self { stop, thread }
    }
}

impl Drop for ReadWatch {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            let _ = thread.join();
        }
    }
}

/// The furthest position of this process's open descriptors on `path` (`/proc/self/fdinfo`).
fn read_position(path: &PathBuf) -> Option<u64> {
    let mut furthest = None;
    for entry in std::fs::read_dir("/proc/self/fd").ok()?.flatten() {
        if std::fs::read_link(entry.path()).ok().as_ref() != Some(path) {
            continue;
        }
        let info = Path::new("/proc/self/fdinfo").join(entry.file_name());
        let position = std::fs::read_to_string(info).ok().and_then(|text| {
            text.lines()
                .find_map(|line| line.strip_prefix("pos:"))
                .and_then(|value| value.trim().parse::<u64>().ok())
        });
        if let Some(position) = position {
            furthest = Some(furthest.map_or(position, |f: u64| f.max(position)));
        }
    }
    furthest
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn the_read_position_of_an_open_file_is_seen() {
        let dir = std::env::temp_dir().join(format!("costscope-progress-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("data.csv");
        std::fs::write(&path, vec![b'x'; 10_000]).unwrap();
        let canonical = std::fs::canonicalize(&path).unwrap();
        assert_eq!(read_position(&canonical), None, "not open yet");
        let mut file = std::fs::File::open(&path).unwrap();
        let mut buffer = vec![0; 4_000];
        file.read_exact(&mut buffer).unwrap();
        assert_eq!(read_position(&canonical), Some(4_000));
        drop(file);
        assert_eq!(read_position(&canonical), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
