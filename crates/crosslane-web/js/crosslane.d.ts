// Types of dist/crosslane.js: GPU cross-lane operations (CUDA, HIP, Ascend C, AMD GCN/RDNA,
// MetaX MACA, WGSL), a kernel-snippet interpreter and the Batcher odd-even merge network,
// computed by the same Rust core as the `crosslane` CLI. Every result equals JSON.parse of the
// CLI's `--json` output for the same call; integers beyond 2^53 arrive rounded as JSON.parse
// rounds them (`bits` keeps a value's exact raw bits in hex).

/** `cuda`, `hip`, `ascend`, `amdgcn`, `maca` or `wgsl`. */
export type Dialect = 'cuda' | 'hip' | 'ascend' | 'amdgcn' | 'maca' | 'wgsl';

/** Value types of an operand. */
export type ValueType =
  | 'i32' | 'u32' | 'f32' | 'i64' | 'u64' | 'f64' | 'f16' | 'bf16' | 'f16x2' | 'bf16x2';

/** One operation call: the fields of `crosslane op DIALECT OP [flags]`. */
export interface OpRequest {
  dialect: Dialect | string;
  /** The vendor's op name (`asc_shfl_xor`, `__shfl_xor_sync`, `ds_swizzle_b32`, …) or an alias. */
  op: string;
  /** Lanes in the warp / wavefront / subgroup; default: the dialect's. */
  lanes?: number | string;
  /** Active (exec) mask: a number, or hex text such as `"0xffff"`; default: every lane. */
  active?: number | string;
  /** CUDA only: lanes whose threads have exited (a number, or hex text); they neither call nor
   *  break the sync rule. */
  exited?: number | string;
  /** `lane` (default), a lane expression (`lane^1`, `(lane+1)%32`), or a comma list of exactly
   *  `lanes` items. */
  values?: number | string;
  /** Value type; default `i32`. */
  type?: ValueType | string;
  /** Parameters by vendor name (`lane_mask`, `src_lane`, `width`, `delta`, `offset`, `dpp_ctrl`, …). */
  params?: Record<string, number | string>;
}

/** Where a result lane's value came from. */
export type Source = 'lane' | 'own' | 'zero' | 'old' | 'computed' | 'undefined' | 'inactive';

/** A lane's value: a number, `"NaN"` / `"inf"` / `"-inf"`, or `[lo, hi]` for packed pairs. */
export type LaneValue = number | string | [number | string, number | string];

export interface LaneResult {
  lane: number;
  /** `null` for an undefined or inactive lane. */
  value: LaneValue | null;
  /** The raw bits in hex; `null` where `value` is. */
  bits: string | null;
  source: Source;
  /** The lane read (or the lane an undefined rule selected). */
  from: number | null;
  /** Why the lane is what it is, citing the vendor's rule, where that needs saying. */
  why: string | null;
}

export interface Diagnostic {
  level: 'info' | 'warning' | 'error';
  message: string;
  /** The rule it applies: document and section. */
  rule: string;
}

/** The object `crosslane op … --json` prints. */
export interface OpResult {
  dialect: Dialect;
  op: string;
  lanes: number;
  /** Active mask in hex. */
  active: string;
  type: ValueType;
  results: LaneResult[];
  diagnostics: Diagnostic[];
}

/** One parameter of an operation's reference entry. */
export interface RefParam {
  /** The vendor's name (snake_case). */
  name: string;
  /** The CLI flag (`--lane-mask`). */
  flag: string;
  kind: unknown;
  /** The encodable range, as text. */
  range: string;
  default: unknown;
  default_text: string;
  doc: string;
  [key: string]: unknown;
}

/** An operation's reference entry (`crosslane ops --json`). */
export interface RefEntry {
  dialect: Dialect;
  name: string;
  aliases: string[];
  /** The prototype, derived from the operation's typed argument list. */
  signature: string;
  /** What the vendor writes beside the prototype (assembly form, other overloads); "" if none. */
  signature_note: string;
  /** The rule in one paragraph. */
  rule: string;
  /** The document and section the rule comes from. */
  source: string;
  scalar: boolean;
  params: RefParam[];
  types: ValueType[];
  type_note: string;
  example: { command: string; note: string | null; step: unknown; error: unknown; [key: string]: unknown };
}

/** A kernel launch: `crosslane run FILE`'s `--entry`, `--blocks`, `--threads-per-block`, `--lanes`. */
export interface Launch {
  entry?: string;
  /** Blocks launched, 1..=65536; default 1. */
  blocks?: number;
  /** Threads per block, 1..=1024 (Ascend C: 1..=2048, the `asc_vf_call` limit); default: the kernel's `asc_vf_call` comment, else one warp. */
  threads_per_block?: number;
  /** Lanes per warp; default: the dialect's. */
  lanes?: number;
  /** User macros in order: `"NAME"`, `"NAME=VALUE"`, `"-DNAME=VALUE"` or `"-UNAME"` (as
   *  `crosslane run --define` / `--undefine`). */
  defines?: string[];
  /** The target of the predefined macros: CUDA `"sm_80"` (`__CUDA_ARCH__` 800; default sm_90),
   *  HIP `"gfx942"` (`__gfx942__`, `__GFX9__`). */
  arch?: string;
  /** `--keep-going`: go on after a run-time error instead of ending with outcome `error`. */
  keep_going?: boolean;
  /** Scalar values and buffer fills by parameter name (`--arg n=64`, `--buffer x=i*0.25+0.5`);
   *  a fill is index, i*K+C (K, C integers or decimals), a number, a comma list, zero, undef
   *  or random:SEED, or TYPE:FILL laying a type's little-endian bytes over the cells
   *  (`f32:1.5,2.5` for a `char*` the kernel reads as floats). Default: what host code says. */
  args?: Record<string, string>;
  /** Buffer lengths in cells (`--buffer x:LEN=…`); default: what host code allocates, else
   *  one cell per thread. */
  buffer_len?: Record<string, number>;
  /** Most units of work (`--max-work`), 1..=10^6 on the caller's thread, up to 10^9 in the
   *  worker form; default the CLI's 2·10^7 capped there. */
  max_work?: number;
  /** Most bytes of memory (`--max-memory`), up to 1 MiB on the caller's thread, 1 GiB in the
   *  worker form. */
  max_memory?: number;
  /** WGSL `override` values by name or `@id` (`--override NAME=VALUE`). */
  overrides?: Record<string, string>;
  /** Floating-point contraction (`--fmad=false`): `false` rounds every product and sum on its
   *  own; absent, the dialect's default (on for CUDA and HIP, as nvcc's `--fmad=true` and
   *  clang's HIP `-ffp-contract=fast-honor-pragmas`). */
  fmad?: boolean;
}

/** Where a call runs: `worker: true` runs it in a worker of its own and returns a promise;
 *  aborting `signal` stops that worker and rejects the promise (`field` = `signal`). */
export interface CallOptions {
  worker?: boolean;
  signal?: AbortSignal;
}

/** A kernel's trace (`crosslane run FILE --json`): the launch, every statement step with its
 *  active mask, changed variables, memory writes and cross-lane calls, the outcome, memory. */
export interface KernelTrace {
  launch: {
    entry: string; dialect: Dialect; lanes: number; block_dim: [number, number, number];
    grid_dim: [number, number, number]; warps_per_block: number; geometry_from: string;
    /** Why this dialect: `inferred from …`, the file extension, `--dialect`, the scenario. */
    dialect_from: string;
    [key: string]: unknown;
  };
  steps: Array<{
    index: number; block: number; warp: number; line: number; col: number; text: string;
    active: unknown; lanes: number; changes: unknown[]; memory_writes: unknown[]; ops: unknown[];
    diagnostics: unknown[]; [key: string]: unknown;
  }>;
  outcome: unknown;
  /** Every diagnostic of the parse and the run, merged across lanes, warps and steps: each
   *  distinct one once, with how many times it was reported. */
  diagnostics: Array<{
    level: 'warning' | 'error' | 'info'; message: string; line: number; col: number; rule: string;
    count: number;
  }>;
  initial_memory: unknown;
  memory: unknown;
  warps: unknown[];
  /** Lines device `printf` printed, in execution order, each by its thread. */
  printf: Array<{ block: number; thread: number; text: string; line: number }>;
  [key: string]: unknown;
}

export interface SortOptions {
  /** Seed of the random keys and of the random verification; default 1. */
  seed?: number;
  /** The keys as a comma list of integers instead of random ones. */
  values?: string;
  /** The number of keys (the element's `n` attribute); a first argument given wins. */
  n?: number;
  /** The same as `n` (the CLI's `--len`), kept as an alias. */
  len?: number;
}

/** The network's report (`crosslane sort --json`). */
export interface SortReport {
  len: number;
  seed: number;
  keys_from: unknown;
  figures: Record<string, unknown>;
  /** Comparator by comparator, for up to 64 keys. */
  stages: unknown[] | null;
  input: number[];
  output: number[];
  matches_sort_unstable: boolean;
  verify: unknown;
  /** Sorted and verified. */
  ok: boolean;
  [key: string]: unknown;
}

/** A playground scenario, as `crosslane run` reads it. */
export interface Scenario {
  version: 1;
  view:
    | { op: { dialect: string; op: string; lanes?: string; active?: string; exited?: string; values?: string; type?: string; params?: Record<string, string> } }
    | { kernel: { source: string; blocks: number; threads_per_block: number; lanes: number; step: number } }
    | { sort: { len: number; seed: number; values: string | null; dialect: string | null } }
    /** The reference view: its search text, AMD target (absent = the default) and the element
     *  id of the dialect group or article jumped to. */
    | { reference: { search?: string; target?: string; article?: string } };
  gpu_panel?: boolean;
  [key: string]: unknown;
}

/** Thrown for input that cannot run; the message is the CLI's exit-2 message. */
export declare class CrosslaneError extends Error {
  /** The field: a vendor parameter name, `lanes`, `active`, `values`, `type`, `dialect`, `op`,
   *  `source`, `launch`, `scenario`, `permalink`, `len`, `request`, `options`, `worker`, `signal`,
   *  `max_work`, `max_memory`; `crosslane` for a defect inside the module. */
  readonly field: string;
  /** What is wrong and what is allowed ("must be in 1..=32, got 0"). */
  readonly reason: string;
}

/** Where a wasm module is: a URL, a fetched response, its bytes or a compiled module. */
export type WasmSource = string | URL | Response | BufferSource | WebAssembly.Module;
/** `init`'s options. */
export interface InitOptions {
  /** Where the library's module is, if not next to crosslane.js. */
  wasm?: WasmSource;
  /** Also load the kernel engine (a second, larger module: the kernel interpreter and the WGSL
   *  front end), so that `runKernel` answers synchronously. Only kernels need it. */
  kernels?: boolean;
  /** Where the kernel engine's .wasm is, if not next to crosslane.js. */
  kernelWasm?: WasmSource;
}
/** Loads the library's wasm module once (later calls return the same promise); with
 *  `{ kernels: true }` the kernel engine too. Every function but `runKernel` needs it. */
export declare function init(options?: WasmSource | InitOptions): Promise<void>;
/** Whether `init()` has finished. */
export declare function isReady(): boolean;
/** Whether the kernel engine has loaded (`init({ kernels: true })` or a first `runKernel`). */
export declare function kernelsReady(): boolean;
/** One operation call; throws `CrosslaneError` for input the CLI refuses with exit 2. */
export declare function runOp(request: OpRequest): OpResult;
/** Every operation's reference entry, or one dialect's. */
export declare function listOps(dialect?: Dialect | string): RefEntry[];
/** Runs a kernel snippet on the caller's thread, under its ceilings (64 KiB of source, 10^6
 *  units of work, 1 MiB, 500 ms of running): returns or throws within about a second. A parse or
 *  launch error throws (`field` = `source`, with line:column). Needs the kernel engine: after
 *  `await init({ kernels: true })` it returns the trace; before, it loads the engine and returns
 *  a Promise of the trace (so `await runKernel(…)` works in both cases, and its errors then
 *  reject the promise). */
export declare function runKernel(source: string, launch?: Launch, options?: { worker?: false }): KernelTrace | Promise<KernelTrace>;
/** The worker form: runs in a worker of its own under the page's ceilings, loading the engine
 *  there; `signal` cancels. */
export declare function runKernel(source: string, launch: Launch | undefined, options: CallOptions & { worker: true }): Promise<KernelTrace>;
/** The odd-even merge network on `n` keys (1..=2^16 on the caller's thread), or on
 *  `options.values`. */
export declare function sortNetwork(n?: number, options?: SortOptions & { worker?: false }): SortReport;
/** The worker form, up to 2^20 keys: a promise; `signal` cancels. */
export declare function sortNetwork(n: number | undefined, options: SortOptions & CallOptions & { worker: true }): Promise<SortReport>;
/** The same, with the options object as the only argument: `sortNetwork({ n: 16, seed: 3 })`. */
export declare function sortNetwork(options: SortOptions & { worker?: false }): SortReport;
/** The worker form with the options object as the only argument. */
export declare function sortNetwork(options: SortOptions & CallOptions & { worker: true }): Promise<SortReport>;
/** Deepest nesting of an argument, checked before it is converted. */
export declare const MAX_INPUT_DEPTH: number;
/** Most values in one argument, all levels together. */
export declare const MAX_INPUT_VALUES: number;
/** Most characters of one text field. */
export declare const MAX_TEXT_CHARS: number;
/** Most characters of kernel source crossing into the module at all. */
export declare const MAX_SOURCE_CHARS: number;
/** A scenario as the playground's permalink text (`v1.…`). */
export declare function encodePermalink(scenario: Scenario): string;
/** The scenario behind a permalink, given alone or as a playground URL. */
export declare function decodePermalink(text: string): Scenario;
