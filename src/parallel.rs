//! Work spread over every core: the stages' one way of running per-chapter
//! jobs in parallel.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Runs `job` for each of `items` on all cores and returns the results with
/// their items, in the order of `items`. Items are taken largest `size`
/// first, so that a few large chapters do not end up last on one core.
pub fn map<T: Send>(
    items: &[usize],
    size: impl Fn(usize) -> usize,
    job: impl Fn(usize) -> T + Sync,
) -> Vec<(usize, T)> {
    let mut order: Vec<usize> = items.to_vec();
    order.sort_by_key(|&i| std::cmp::Reverse(size(i)));
    let results: Mutex<Vec<(usize, T)>> = Mutex::new(Vec::with_capacity(items.len()));
    let next = AtomicUsize::new(0);
    let work = || {
        loop {
            let n = next.fetch_add(1, Ordering::Relaxed);
            let Some(&item) = order.get(n) else { break };
            let result = job(item);
            if let Ok(mut results) = results.lock() {
                results.push((item, result));
            }
        }
    };
    let total: usize = order.iter().map(|&i| size(i)).sum();
    let threads = worker_count(order.len(), total);
    if threads > 1 {
        std::thread::scope(|scope| {
            for _ in 1..threads {
                scope.spawn(work);
            }
            work();
        });
    } else {
        work();
    }
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    // Items are distinct: an unstable sort gives the same order, in place.
    results.sort_unstable_by_key(|(item, _)| *item);
    results
}

/// Below this many bytes of work in all, the jobs run on the calling
/// thread: parsing that much takes about a millisecond, about what starting
/// and joining a thread can cost on a busy machine.
const BYTES_FOR_THREADS: usize = 128 * 1024;

/// How many threads to use for `jobs` jobs of `total` bytes.
fn worker_count(jobs: usize, total: usize) -> usize {
    if total < BYTES_FOR_THREADS {
        return 1;
    }
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    cores.min(jobs).max(1)
}
