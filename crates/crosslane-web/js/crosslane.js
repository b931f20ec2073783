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
  // The worker form loads the engine from the same place when it is given as a location.
  if (typeof source === 'string' || source instanceof URL) kernelWasmLocation = String(new URL(source, globalThis.document?.baseURI ?? import.meta.url));
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
    const wasmSource = opts.wasm;
    // The worker form loads the module from the same place when it is given as a location.
    if (typeof wasmSource === 'string' || wasmSource instanceof URL) wasmLocation = String(new URL(wasmSource, globalThis.document?.baseURI ?? import.meta.url));
    loading = initWasm({ module_or_path: wasmSource ?? WASM_URL }).then(() => {
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
    throw asCrosslaneError(e);
  }
}

/** Any error of a call as a CrosslaneError: the wasm's `{field, message}`, ours, or (a defect
 *  in the library, never expected) a trap of the module, named as such. */
function asCrosslaneError(e) {
  if (e instanceof CrosslaneError) return e;
  if (e && typeof e === 'object' && typeof e.field === 'string' && !(e instanceof Error)) {
    return new CrosslaneError(e.field, e.message);
  }
  if (typeof WebAssembly === 'object' && e instanceof WebAssembly.RuntimeError) {
    return new CrosslaneError('crosslane', `internal error in the WebAssembly module (a defect; please report it): ${e.message}`);
  }
  return new CrosslaneError('crosslane', e?.message ?? String(e));
}

// --- Input checks, before anything crosses into the wasm --------------------------------------
//
// serde-wasm-bindgen walks a JavaScript value recursively inside the wasm: a cyclic object, an
// array nested 100 000 deep or a getter that throws would overflow the module's stack or leave it
// half-way through a conversion, and every later call would fail. So every argument is first
// copied here into plain JSON data under the limits below, and only the copy crosses: what
// serde sees is finite, shallow and acyclic, and a getter runs once. Ranges (blocks, lanes,
// budgets) are the core's to check; these limits are only on shape and size.

/** Deepest nesting of an argument (objects and arrays inside one another). The deepest real
 *  argument, a launch's `args` map, is 2 deep. */
export const MAX_INPUT_DEPTH = 16;
/** Most values (object entries and array items, all levels together) in one argument. */
export const MAX_INPUT_VALUES = 100000;
/** Most characters of one text field (a fill, a value list, a permalink); kernel source has
 *  its own cap, MAX_SOURCE_CHARS. */
export const MAX_TEXT_CHARS = 1 << 20;
/** Most characters of kernel source crossing into the wasm at all: the worker form's 16 MiB
 *  (the wasm checks the exact byte caps of each thread and names them). */
export const MAX_SOURCE_CHARS = 16 << 20;

/** A plain-data copy of `value` (argument `field`), or a CrosslaneError naming the field, the
 *  path inside it and the limit. Recursion is bounded by MAX_INPUT_DEPTH, checked first. */
function plainCopy(value, field) {
  const state = { values: 0, ancestors: new Set() };
  try {
    return copyValue(value, field, '', 0, state);
  } catch (e) {
    // A getter or a Proxy trap that throws is the caller's error, named on the field.
    if (e instanceof CrosslaneError) throw e;
    throw new CrosslaneError(field, `could not be read as data: ${e?.message ?? e}`);
  }
}

function copyValue(value, field, path, depth, state) {
  const at = path ? ` at ${path}` : '';
  if (value === null || value === undefined) return value;
  switch (typeof value) {
    case 'string':
      if (value.length > MAX_TEXT_CHARS) {
        throw new CrosslaneError(field, `text${at} of at most ${MAX_TEXT_CHARS} characters, got ${value.length}`);
      }
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new CrosslaneError(field, `a finite number${at}, got ${value}`);
      return value;
    case 'boolean':
      return value;
    case 'object':
      break;
    default:
      throw new CrosslaneError(field, `JSON data${at}, not a ${typeof value}`);
  }
  if (state.ancestors.has(value)) throw new CrosslaneError(field, `a cyclic object${at} (it contains itself)`);
  if (depth >= MAX_INPUT_DEPTH) {
    throw new CrosslaneError(field, `nested at most ${MAX_INPUT_DEPTH} levels deep${at}`);
  }
  const isArray = Array.isArray(value);
  const proto = isArray ? null : Object.getPrototypeOf(value);
  if (!isArray && proto !== Object.prototype && proto !== null) {
    throw new CrosslaneError(field, `a plain object or array${at}, not a ${value?.constructor?.name ?? 'special object'}`);
  }
  const keys = isArray ? null : Object.keys(value);
  const count = isArray ? value.length : keys.length;
  state.values += count;
  if (state.values > MAX_INPUT_VALUES) {
    throw new CrosslaneError(field, `at most ${MAX_INPUT_VALUES} values in all${at}`);
  }
  state.ancestors.add(value);
  let out;
  if (isArray) {
    out = new Array(count);
    for (let i = 0; i < count; i += 1) out[i] = copyValue(value[i], field, `${path}[${i}]`, depth + 1, state);
  } else {
    out = {};
    for (const k of keys) {
      if (k.length > MAX_TEXT_CHARS) throw new CrosslaneError(field, `keys of at most ${MAX_TEXT_CHARS} characters`);
      const v = copyValue(value[k], field, path ? `${path}.${k.slice(0, 40)}` : k.slice(0, 40), depth + 1, state);
      // `undefined` means absent, as JSON has it.
      if (v !== undefined) out[k] = v;
    }
  }
  state.ancestors.delete(value);
  return out;
}

/** Kernel source: text (a String object is read once), within MAX_SOURCE_CHARS. */
function sourceText(source) {
  if (typeof source !== 'string' && !(source instanceof String)) {
    throw new CrosslaneError('source', `kernel text, not ${source === null ? 'null' : typeof source}`);
  }
  const text = String(source);
  if (text.length > MAX_SOURCE_CHARS) {
    throw new CrosslaneError('source', `at most ${MAX_SOURCE_CHARS} characters, got ${text.length}`);
  }
  return text;
}

/** A text argument (permalink, dialect): a string within MAX_TEXT_CHARS. */
function textArg(value, field) {
  if (typeof value !== 'string' && !(value instanceof String)) {
    throw new CrosslaneError(field, `text, not ${value === null ? 'null' : typeof value}`);
  }
  return copyValue(String(value), field, '', 0, null);
}

/** The third argument of the worker-capable calls: `{ worker?: boolean, signal?: AbortSignal }`. */
function callOptions(options) {
  if (options === undefined || options === null) return { worker: false, signal: undefined };
  if (typeof options !== 'object') throw new CrosslaneError('options', `an object { worker, signal }, not ${typeof options}`);
  const worker = options.worker;
  const signal = options.signal;
  if (worker !== undefined && typeof worker !== 'boolean') throw new CrosslaneError('worker', 'true or false');
  if (signal !== undefined && !(typeof AbortSignal === 'function' && signal instanceof AbortSignal)) {
    throw new CrosslaneError('signal', 'an AbortSignal (from an AbortController)');
  }
  return { worker: worker === true, signal };
}

// --- The worker form -----------------------------------------------------------------------------
//
// `runKernel(source, launch, { worker: true })` and `sortNetwork(n, { worker: true })` run in a
// module worker of their own (crosslane-lib-worker.js: the same glue and module), under the
// page's ceilings instead of the caller's thread's, and return a promise. Each call has its own
// worker, so cancelling (the `signal`) terminates it wherever it is — even inside `while (1) {}`
// — and nothing else is lost.

const LIB_WORKER_URL = new URL('./crosslane-lib-worker.js', import.meta.url);
let wasmLocation = null;
let kernelWasmLocation = null;

function inWorker(fn, args, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new CrosslaneError('signal', 'cancelled before it started'));
      return;
    }
    let worker;
    try {
      worker = new Worker(LIB_WORKER_URL, { type: 'module' });
    } catch (e) {
      reject(new CrosslaneError('worker', `could not start ${LIB_WORKER_URL}: ${e?.message ?? e}`));
      return;
    }
    const done = () => {
      worker.terminate();
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      done();
      reject(new CrosslaneError('signal', 'cancelled: the worker was stopped'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.onmessage = (event) => {
      done();
      const { value, error } = event.data ?? {};
      if (error) reject(new CrosslaneError(error.field, error.message));
      else resolve(value);
    };
    worker.onerror = (event) => {
      done();
      reject(new CrosslaneError('worker', event?.message || `${LIB_WORKER_URL} failed to load or run`));
    };
    worker.postMessage({ fn, args, wasm: wasmLocation, kernelWasm: kernelWasmLocation });
  });
}

/** One operation call; the object `crosslane op DIALECT OP … --json` prints. */
export function runOp(request) {
  return call(() => wasm.lib_run_op(plainCopy(request, 'request')));
}

/** Every operation's reference entry (signature, rule, source, parameters), or one dialect's:
 *  `crosslane ops [DIALECT] --json`. */
export function listOps(dialect) {
  return call(() => wasm.lib_list_ops(dialect === undefined || dialect === null ? undefined : textArg(dialect, 'dialect')));
}

/** Runs a kernel snippet to its end (or a budget): `crosslane run FILE --json`. On the
 *  caller's thread under its ceilings: with the kernel engine loaded (`await init({ kernels:
 *  true })`) the trace itself; before, a Promise of it, the engine loading first (`await
 *  runKernel(…)` works either way). With `{ worker: true }` in a worker, as a promise that
 *  `signal` cancels. */
export function runKernel(source, launch, options) {
  let args;
  let opts;
  try {
    opts = callOptions(options);
    args = [sourceText(source), launch === undefined || launch === null ? undefined : plainCopy(launch, 'launch')];
  } catch (e) {
    if (opts?.worker) return Promise.reject(asCrosslaneError(e));
    throw asCrosslaneError(e);
  }
  if (opts.worker) return inWorker('run_kernel', args, opts.signal);
  const run = () => convert(() => engine.lib_run_kernel(args[0], args[1], false));
  if (engine) return run();
  return loadKernels().then(run);
}

/** The Batcher odd-even merge network's report: `crosslane sort --len N [--seed S] --json`.
 *  Options may hold `worker: true` (a promise, as runKernel's) and `signal`. */
export function sortNetwork(n, options) {
  // `sortNetwork({ n, seed })`: the options object as the only argument.
  if (n !== null && typeof n === 'object' && options === undefined) {
    options = n;
    n = undefined;
  }
  let args;
  let opts;
  try {
    if (n !== undefined && n !== null && typeof n !== 'number') throw new CrosslaneError('len', `a number, not ${typeof n}`);
    let rest = options;
    if (options !== undefined && options !== null && typeof options === 'object') {
      const { worker, signal, ...others } = options;
      opts = callOptions({ worker, signal });
      rest = others;
    } else {
      opts = callOptions(undefined);
    }
    args = [n ?? undefined, rest === undefined || rest === null ? undefined : plainCopy(rest, 'options')];
  } catch (e) {
    if (opts?.worker) return Promise.reject(asCrosslaneError(e));
    throw asCrosslaneError(e);
  }
  if (opts.worker) return inWorker('sort_network', args, opts.signal);
  return call(() => wasm.lib_sort_network(args[0], args[1], false));
}

/** A scenario `{version: 1, view: …}` as the playground's permalink text (`v1.…`). */
export function encodePermalink(scenario) {
  return call(() => wasm.lib_encode_permalink(plainCopy(scenario, 'scenario')));
}

/** The scenario behind a permalink, given alone or as a playground URL. */
export function decodePermalink(text) {
  return call(() => wasm.lib_decode_permalink(textArg(text, 'permalink')));
}

// For dist/crosslane-elements.js only (not part of the documented API): the page's drawings.
export const internals = {
  opView: (request, width) => call(() => wasm.lib_op_view(plainCopy(request, 'request'), width)),
  sortView: (n, seed, values) => call(() => new wasm.LibSortView(n, seed, values === undefined ? undefined : textArg(values, 'values'))),
  kernelView: (source, launch) => {
    if (!engine) throw new Error('crosslane: await init({ kernels: true }) before a kernel view');
    return convert(() => new engine.LibKernelView(sourceText(source), plainCopy(launch, 'launch')));
  },
  wasmUrl: WASM_URL,
};
