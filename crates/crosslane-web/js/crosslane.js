// crosslane — GPU cross-lane operations, lane by lane, as a JavaScript library.
//
// A thin layer over the wasm module the playground page itself runs (crates/crosslane-web,
// src/api): every answer is computed by crosslane-core, the same code as the `crosslane` CLI, and
// equals JSON.parse of the CLI's `--json` output for the same call. Objects cross the boundary as
// plain JS objects (serde-wasm-bindgen, JSON-compatible: null, never undefined or Map).
//
// scripts/build-web writes this file into dist/ with the two placeholders below replaced by the
// hashed names trunk gave the page's wasm-bindgen glue and module, so the page and the library
// load one and the same .wasm file. Types: crosslane.d.ts.
import initWasm, * as wasm from './__CROSSLANE_GLUE__';

const WASM_URL = new URL('./__CROSSLANE_WASM__', import.meta.url);

let loading = null;
let loaded = false;

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

/**
 * Loads and instantiates the wasm module, once: later and concurrent calls return the same
 * promise. Every other function is synchronous and needs it to have resolved.
 * @param {string | URL | Response | BufferSource | WebAssembly.Module} [wasmSource] where the
 *   module is, if not next to this file.
 */
export function init(wasmSource) {
  if (!loading) {
    loading = initWasm({ module_or_path: wasmSource ?? WASM_URL }).then(() => {
      loaded = true;
    });
    loading.catch(() => { loading = null; });
  }
  return loading;
}

/** Whether `init()` has finished. */
export function isReady() {
  return loaded;
}

function call(f) {
  if (!loaded) throw new Error('crosslane: await init() before calling the library');
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

/** Runs a kernel snippet to its end (or the step limit): `crosslane run FILE --json`. */
export function runKernel(source, launch) {
  return call(() => wasm.lib_run_kernel(String(source), launch ?? undefined));
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
  kernelView: (source, launch) => call(() => new wasm.LibKernelView(source, launch)),
  wasmUrl: WASM_URL,
};
