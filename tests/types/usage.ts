// A small program against the library's declarations, as a tool builder and a docs author would
// write it; `tsc -p tests/types` must accept it, and the @ts-expect-error lines prove the types
// are not `any`.
import {
  init, runOp, listOps, runKernel, sortNetwork, encodePermalink, decodePermalink, CrosslaneError,
  type OpResult, type LaneResult, type RefEntry, type KernelTrace, type SortReport, type Scenario,
} from '../../crates/crosslane-web/js/crosslane.js';
import type { CrosslaneOp } from '../../crates/crosslane-web/js/crosslane-elements.js';

async function main(): Promise<void> {
  await init();
  const r: OpResult = runOp({ dialect: 'ascend', op: 'asc_shfl_xor', params: { lane_mask: 1, width: '16' } });
  const lane0: LaneResult = r.results[0];
  const from: number | null = lane0.from;
  const undefinedLanes = r.results.filter((x) => x.value === null && x.source === 'undefined').length;
  const warnings: string[] = r.diagnostics.filter((d) => d.level === 'warning').map((d) => `${d.message} (${d.rule})`);
  const ops: RefEntry[] = listOps('cuda');
  const names: string[] = ops.flatMap((e) => e.params.map((p) => `${e.name}.${p.name} ${p.range}`));
  // Before init({ kernels: true }) the engine loads first: a Promise; awaited either way.
  const trace: KernelTrace = await runKernel('__global__ void k() {}', { blocks: 1, threads_per_block: 32 });
  const lines: number[] = trace.steps.map((s) => s.line);
  const report: SortReport = sortNetwork(16, { seed: 3 });
  const sorted: boolean = report.ok;
  // The worker form: a promise, cancelled through an AbortSignal.
  const stop = new AbortController();
  const later: Promise<KernelTrace> = runKernel('__global__ void k() {}', { max_work: 5000000 }, { worker: true, signal: stop.signal });
  const big: Promise<SortReport> = sortNetwork(1 << 20, { worker: true });
  stop.abort();
  console.log(await later.catch((e: unknown) => e), (await big).ok);
  const scenario: Scenario = { version: 1, view: { op: { dialect: 'cuda', op: '__shfl_xor_sync', params: { lane_mask: '1' } } } };
  const link: string = encodePermalink(scenario);
  const back: Scenario = decodePermalink(`https://example.org/#${link}`);
  try {
    runOp({ dialect: 'cuda', op: '__shfl_sync', params: { width: 0 } });
  } catch (e) {
    if (e instanceof CrosslaneError) {
      const field: string = e.field;
      const reason: string = e.reason;
      console.log(field, reason);
    }
  }
  const el = document.querySelector('crosslane-op');
  const shown: OpResult | null = el ? el.result : null;
  const typed: CrosslaneOp | null = el;
  el?.addEventListener('crosslane-change', (e) => console.log(e.detail));
  console.log(from, undefinedLanes, warnings, names, lines, sorted, back, shown, typed);

  // @ts-expect-error: `op` is required.
  runOp({ dialect: 'cuda' });
  // @ts-expect-error: parameters are numbers or text.
  runOp({ dialect: 'cuda', op: '__shfl_sync', params: { src_lane: true } });
  // @ts-expect-error: results are lane objects, not numbers.
  const wrong: number = r.results[0];
  // @ts-expect-error: a scenario carries version 1.
  encodePermalink({ version: 2, view: scenario.view });
  console.log(wrong);
}

void main();
