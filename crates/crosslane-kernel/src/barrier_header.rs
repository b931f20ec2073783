//! `#include <cuda/barrier>` stands for crosslane's own small model of the block-scope
//! `cuda::barrier` and `cuda::memcpy_async`, written in the C++ the front end runs (as
//! [`crate::wmma_header`] does for `<mma.h>`), on the include's own line so positions stay.
//!
//! Modelled as the copies they complete into: `cuda::memcpy_async(dst, src, bytes, bar)`
//! copies `bytes / sizeof(T)` elements at the call and marks them as not yet complete (the
//! group form `cuda::memcpy_async(group, dst, src, bytes, bar)` of the Programming Guide's
//! `with_barrier` example shares them: the thread of rank r copies elements r, r + size, …)
//! (`machine::async_copy`: a read before the wait is undefined, with the reason),
//! `init(&bar, n)` records the expected count, and `bar.arrive_and_wait()` completes the
//! calling thread's copies and is the block's `__syncthreads()`, so the destination holds the
//! data for every thread after the wait. That reading of `arrive_and_wait` is right when the
//! expected count is the block's thread count (the staging idiom: `init(&bar, blockDim.x)`);
//! only `cuda::barrier<cuda::thread_scope_block>` is provided. The split form, `auto t =
//! bar.arrive(); … bar.wait(std::move(t));`, is the same barrier placed at the `wait` (the
//! token is an `int` here): exact when the statements between the two do not touch memory
//! another thread reads or writes around the barrier. Such an access is a data race under the
//! barrier's rules (a thread's wait returns once every thread has arrived, not once they have
//! waited); with the barrier at `wait`, a read there of what another thread wrote before its
//! own arrive is reported by the race check, while a write there that another thread reads
//! after its wait is taken as ordered (not reported).
//!
//! `#include <cuda/pipeline>` stands for the same header, which also models `cuda::pipeline`
//! as the Guide's single- and multi-stage examples use it: `make_pipeline(group, &state)` (block
//! scope) or `make_pipeline()` (thread scope), `producer_acquire()` / `consumer_release()`
//! (no effect on values), `producer_commit()` closing the stage's batch of copies (the group
//! copies of `cuda::memcpy_async(group, …, pipeline)` are not committed before it), and
//! `consumer_wait()` completing the thread's oldest committed stage (all but the newer ones,
//! as `__pipeline_wait_prior` counts) and, for a block-scope pipeline, the block's
//! `__syncthreads()` so every thread's share of the stage is visible (the collective wait the
//! Guide describes, called by every thread of the block).
//!
//! Source: CUDA C++ Programming Guide, "Asynchronous Data Copies" (`cuda::memcpy_async` with
//! `cuda::barrier`: the copy's completion is observed through the barrier) and "Asynchronous
//! Barrier" (`init`, `arrive_and_wait`); libcu++ `cuda::barrier`.

use std::borrow::Cow;

/// The one-line C++ text that stands for `<cuda/barrier>` (module doc).
pub const HEADER: &str = "namespace cuda { enum thread_scope { thread_scope_system, \
    thread_scope_device, thread_scope_block, thread_scope_thread }; \
    template <thread_scope Scope> struct barrier { int expected; \
    __device__ void arrive_and_wait() { __crosslane_async_wait(-1); __syncthreads(); } \
    __device__ int arrive() { return 0; } \
    __device__ void wait(int token) { __crosslane_async_wait(-1); __syncthreads(); } }; \
    template <typename T> __device__ void memcpy_async(T *d, const T *s, \
    unsigned long long bytes, barrier<thread_scope_block> &bar) { \
    for (unsigned long long i = 0; i < bytes / sizeof(T); i++) { d[i] = s[i]; \
    __crosslane_async_copy(d + i, sizeof(T), 0); } } \
    template <typename G, typename T> __device__ void memcpy_async(G &g, T *d, const T *s, \
    unsigned long long bytes, barrier<thread_scope_block> &bar) { \
    for (unsigned long long i = g.thread_rank(); i < bytes / sizeof(T); i += g.size()) { \
    d[i] = s[i]; __crosslane_async_copy(d + i, sizeof(T), 0); } } \
    template <thread_scope Scope, unsigned long long Stages> struct pipeline_shared_state { \
    int unused; }; \
    template <thread_scope Scope> struct pipeline { int pending; \
    __device__ void producer_acquire() { } \
    __device__ void producer_commit() { __crosslane_async_commit(); pending = pending + 1; } \
    __device__ void consumer_wait() { __crosslane_async_wait(pending - 1); \
    if (pending > 0) { pending = pending - 1; } \
    if (Scope == thread_scope_block) { __syncthreads(); } } \
    __device__ void consumer_release() { } }; \
    template <typename G> __device__ pipeline<thread_scope_block> \
    make_pipeline(G g, const void *state) { pipeline<thread_scope_block> p; p.pending = 0; \
    return p; } \
    __device__ pipeline<thread_scope_thread> make_pipeline() { \
    pipeline<thread_scope_thread> p; p.pending = 0; return p; } \
    template <typename T, thread_scope Scope> __device__ void memcpy_async(T *d, const T *s, \
    unsigned long long bytes, pipeline<Scope> &pipe) { \
    for (unsigned long long i = 0; i < bytes / sizeof(T); i++) { d[i] = s[i]; \
    __crosslane_async_copy(d + i, sizeof(T), 0); } } } \
    __device__ void init(cuda::barrier<cuda::thread_scope_block> *bar, int n) \
    { bar->expected = n; }";

/// Whether `line` is `#include <cuda/barrier>` or `#include <cuda/pipeline>` (spaces allowed
/// around `#` and the name): both stand for [`HEADER`], expanded once.
fn is_barrier_include(line: &str) -> bool {
    crate::wmma_header::is_include_of(line, &["<cuda/barrier>", "<cuda/pipeline>"])
}

/// `source` with each `#include <cuda/barrier>` line replaced by [`HEADER`] (the first only;
/// later ones become empty lines), unchanged when it has none.
pub fn expand(source: &str) -> Cow<'_, str> {
    crate::wmma_header::replace_includes(source, is_barrier_include, || HEADER.to_string(), true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_barrier_include_is_replaced_and_lines_stay() {
        let src = "#include <cuda/barrier>\nint x;\n# include <cuda/barrier>\n";
        let out = expand(src);
        assert_eq!(out.lines().count(), 3);
        assert!(out.starts_with("namespace cuda"));
        assert_eq!(out.lines().nth(2), Some(""));
        assert!(matches!(expand("int y;\n"), Cow::Borrowed(_)));
    }
}
