// crosslane — GPU cross-lane operations, lane by lane, as a JavaScript library.
//
// A thin layer over the wasm module the playground page itself runs (crates/crosslane-web,
// src/api): every answer is computed by crosslane-core, the same code as the `crosslane` CLI, and
// equals JSON.parse of the CLI's `--json` output for the same call. Objects cross the boundary as
// plain JS objects (serde-wasm-bindgen, JSON-compatible: null, never undefined or Map).
//
// Two modules: the library's own (crates/crosslane-web-lib: op semantics, the renderer, the
// network and the permalink codec; what `<crosslane-op>` and `<crosslane-sort>` need), loaded by
// init(), and the kernel engine (crates/crosslane-web-kernel: the kernel interpreter and naga, the
// module the playground's kernel worker runs), loaded only by init({ kernels: true }) or the first
// runKernel. scripts/build-web writes this file into dist/ with the placeholders below replaced by
// the hashed names of each module's wasm-bindgen glue and .wasm. Types: crosslane.d.ts.
import initWasm, * as wasm from './__CROSSLANE_LIB_GLUE__';

const WASM_URL = new URL('./__CROSSLANE_LIB_WASM__', import.meta.url);
const KERNEL_GLUE = './__CROSSLANE_KERNEL_GLUE__';
const KERNEL_WASM_URL = new URL('./__CROSSLANE_KERNEL_WASM__', import.meta.url);

let loading = null;
let loaded = false;
// The kernel engine: its glue's namespace once initialized, and the promise of that.
let engine = null;
let engineLoading = null;

/** The error every function throws for input it cannot run: `field` names what is wrong, the
 *  message says what is allowed (the CLI's exit-2 message: "width: must be in 1..=32, got 0"). */
export class CrosslaneError extends Error {
  constructor(field, reason) {
    super(`${field}: ${reason}`);
    this.name = 'CrosslaneError';
    /** The field as the user knows it: a vendor parameter name, `lanes`, `active`, `values`,
     *  `type`, `dialect`, `op`, `source`, `launch`, `scenario`, `permalink`, `n`… */
    this.field = field;
    /** What is wrong and what is allowed, without the field name. */
    this.reason = reason;
  }
}

/** Whether `x` is an options object `{ wasm, kernels, kernelWasm }` rather than a module source. */
function isOptions(x) {
  return x !== null && typeof x === 'object' && !(x instanceof URL)
    && !(typeof Response === 'function' && x instanceof Response)
    && !(x instanceof ArrayBuffer) && !ArrayBuffer.isView(x)
    && !(x instanceof WebAssembly.Module);
}

/** Loads the kernel engine module once (later and concurrent calls share the promise). */
function loadKernels(source) {
  if (!engineLoading) {
    engineLoading = import(KERNEL_GLUE).then(async (m) => {
      await m.default({ module_or_path: source ?? KERNEL_WASM_URL });
      engine = m;
    });
    engineLoading.catch(() => { engineLoading = null; });
  }
  return engineLoading;
}

/**
 * Loads and instantiates the library's wasm module, once: later and concurrent calls return the
 * same promise. Every function but `runKernel` is synchronous and needs it to have resolved.
 * `init({ kernels: true })` also loads the kernel engine (a second, larger module), so that
 * `runKernel` answers synchronously; without it the engine loads on the first `runKernel`.
 * @param {string | URL | Response | BufferSource | WebAssembly.Module | {wasm?, kernels?, kernelWasm?}} [options]
 *   where the module is, if not next to this file; or an options object: `wasm` (the same),
 *   `kernels` (also load the kernel engine), `kernelWasm` (where the engine's .wasm is).
 */
export function init(options) {
  const opts = isOptions(options) ? options : { wasm: options };
  if (!loading) {
    loading = initWasm({ module_or_path: opts.wasm ?? WASM_URL }).then(() => {
      loaded = true;
    });
    loading.catch(() => { loading = null; });
  }
  if (!opts.kernels) return loading;
  return Promise.all([loading, loadKernels(opts.kernelWasm)]).then(() => {});
}

/** Whether `init()` has finished. */
export function isReady() {
  return loaded;
}

/** Whether the kernel engine has loaded (`init({ kernels: true })` or a first `runKernel`). */
export function kernelsReady() {
  return engine !== null;
}

function call(f) {
  if (!loaded) throw new Error('crosslane: await init() before calling the library');
  return convert(f);
}

function convert(f) {
  try {
    return f();
  } catch (e) {
    if (e && typeof e === 'object' && typeof e.field === 'string' && !(e instanceof Error)) {
      throw new CrosslaneError(e.field, e.message);
    }
    throw e;
  }
}

/** One operation call; the object `crosslane op DIALECT OP … --json` prints. */
export function runOp(request) {
  return call(() => wasm.lib_run_op(request));
}

/** Every operation's reference entry (signature, rule, source, parameters), or one dialect's:
 *  `crosslane ops [DIALECT] --json`. */
export function listOps(dialect) {
  return call(() => wasm.lib_list_ops(dialect ?? undefined));
}

/** Runs a kernel snippet to its end (or the step limit): `crosslane run FILE --json`. With the
 *  kernel engine loaded (`await init({ kernels: true })`) the trace itself; before, a Promise of
 *  it, the engine loading first (`await runKernel(…)` works either way). */
export function runKernel(source, launch) {
  if (engine) return convert(() => engine.lib_run_kernel(String(source), launch ?? undefined));
  return loadKernels().then(() => runKernel(source, launch));
}

/** The Batcher odd-even merge network's report: `crosslane sort --len N [--seed S] --json`. */
export function sortNetwork(n, options) {
  // `sortNetwork({ n, seed })`: the options object as the only argument.
  if (n !== null && typeof n === "object" && options === undefined) {
    return call(() => wasm.lib_sort_network(undefined, n));
  }
  return call(() => wasm.lib_sort_network(n ?? undefined, options ?? undefined));
}

/** A scenario `{version: 1, view: …}` as the playground's permalink text (`v1.…`). */
export function encodePermalink(scenario) {
  return call(() => wasm.lib_encode_permalink(scenario));
}

/** The scenario behind a permalink, given alone or as a playground URL. */
export function decodePermalink(text) {
  return call(() => wasm.lib_decode_permalink(String(text)));
}

// For dist/crosslane-elements.js only (not part of the documented API): the page's drawings.
export const internals = {
  opView: (request, width) => call(() => wasm.lib_op_view(request, width)),
  sortView: (n, seed, values) => call(() => new wasm.LibSortView(n, seed, values)),
  kernelView: (source, launch) => {
    if (!engine) throw new Error('crosslane: await init({ kernels: true }) before a kernel view');
    return convert(() => new engine.LibKernelView(source, launch));
  },
  wasmUrl: WASM_URL,
};
