//! Compile-time loops written as recursive templates (`template <int I, int N> struct Unroll`
//! ended by a partial specialization, C++17 [temp.class.spec]), as kernels unroll 8 to 64
//! steps: the instantiation budget (`parser::templates::MAX_INSTANCES`) and the nesting bound
//! (`MAX_CLASS_NEST`), which keeps the parse's stack bounded. Expected sums by hand: Σ_{i<n} i = n(n − 1)/2.

use crate::support::{block, refused, run_finished};

fn unroll(n: usize, member_template: bool) -> String {
    if member_template {
        // Two instances per step: the class and its `run<F>`.
        format!(
            "template <int I, int N>
struct Unroll {{
  template <typename F>
  static __device__ void run(F f) {{ f(I); Unroll<I + 1, N>::run(f); }}
}};
template <int N>
struct Unroll<N, N> {{
  template <typename F>
  static __device__ void run(F) {{}}
}};
__global__ void k(float* out) {{
  float acc = 0.0f;
  Unroll<0, {n}>::run([&](int i) {{ acc += i; }});
  out[threadIdx.x] = acc;
}}
"
        )
    } else {
        format!(
            "template <int I, int N>
struct Unroll {{
  static __device__ void run(float* out, int t) {{ out[t] += I; Unroll<I + 1, N>::run(out, t); }}
}};
template <int N>
struct Unroll<N, N> {{
  static __device__ void run(float*, int) {{}}
}};
__global__ void k(float* out) {{
  int t = threadIdx.x;
  out[t] = 0.0f;
  Unroll<0, {n}>::run(out, t);
}}
"
        )
    }
}

/// 32 steps with a member template `run<F>` are 66 instances (33 classes, 33 functions), past
/// the old budget of 64 instances per source: 0 + 1 + … + 31 = 496.
#[test]
fn a_32_step_unroll_with_a_member_template_runs() {
    let t = run_finished(&unroll(32, true), block(1));
    assert_eq!(crate::support::floats(&t, "out"), [Some(496.0)]);
}

/// Runs `f` where the CLI runs the front end: a thread with room for a debug build's frames
/// (`kernel_budgets.rs`, `on_small_stack`: 16 MiB in debug, 1 MiB, wasm's, optimized).
fn on_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let stack = if cfg!(debug_assertions) {
        16 << 20
    } else {
        1 << 20
    };
    std::thread::Builder::new()
        .stack_size(stack)
        .spawn(f)
        .expect("a thread")
        .join()
        .expect("no stack overflow")
}

/// 63 steps nest 64 class instantiations, the bound: 0 + … + 62 = 1953. 64 steps are refused
/// before the run, naming the bound once (not the whole chain of instances) and what to write
/// instead.
#[test]
fn nested_class_instantiations_stop_at_a_named_bound() {
    on_stack(|| {
        let t = run_finished(&unroll(63, false), block(1));
        assert_eq!(crate::support::floats(&t, "out"), [Some(1953.0)]);
        let m = refused(&unroll(64, false), block(1));
        assert!(
            m.contains("`Unroll<64,64>` is the 65th class template instantiation nested")
                && m.contains("if constexpr"),
            "{m}"
        );
        assert_eq!(m.matches("in `Unroll<").count(), 1, "{m}");
    });
}

/// The `if constexpr` function template form is instantiated one instance at a time, after
/// the program: 100 steps (101 instances) run, with the call depth and statement depth raised
/// past the 101 nested calls: 0 + … + 99 = 4950.
#[test]
fn a_function_template_unroll_is_not_nested() {
    on_stack(|| {
        let src = "template <int I, int N>
__device__ void unroll(float* out, int t) {
  if constexpr (I < N) {
    out[t] += I;
    unroll<I + 1, N>(out, t);
  }
}
__global__ void k(float* out) {
  out[threadIdx.x] = 0.0f;
  unroll<0, 100>(out, threadIdx.x);
}
";
        let mut c = block(1);
        c.limits.max_call_depth = 128;
        c.limits.max_depth = 512;
        let t = run_finished(src, c);
        assert_eq!(crate::support::floats(&t, "out"), [Some(4950.0)]);
    });
}
