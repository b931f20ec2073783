// crosslane sort worker: the page's own (first) wasm module, loaded again in a module worker,
// walks the sort view's large networks (src/worker/sort.rs) so that the page keeps answering.
// It needs no kernel engine, and the page has already downloaded this module (HTTP cache).
//
// Protocol (src/views/sort/worker.rs): the page posts {sort: SortJob JSON, id} and gets
// {sort: Result JSON, id} back; {warm: job} walks without answering, so that a spare worker has
// its loops optimized before a walk is asked of it. {ready: true} says the wasm has loaded,
// {failed: message} that it could not.
//
// scripts/build-web writes this file into dist/ with the placeholders replaced by the hashed
// names of the page's wasm-bindgen glue and module.
import initWasm, { worker_sort } from './__CROSSLANE_GLUE__';

const ready = initWasm({ module_or_path: new URL('./__CROSSLANE_WASM__', import.meta.url) });
ready.then(
  () => self.postMessage({ ready: true }),
  (e) => self.postMessage({ failed: String(e && e.message ? e.message : e) }),
);

self.onmessage = async (event) => {
  const { id, sort, warm } = event.data ?? {};
  if (typeof sort !== 'string' && typeof warm !== 'string') return;
  try {
    await ready;
  } catch {
    return;
  }
  if (typeof sort === 'string') {
    self.postMessage({ sort: worker_sort(sort), id });
    return;
  }
  worker_sort(warm);
};
