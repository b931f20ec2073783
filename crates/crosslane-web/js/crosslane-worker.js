// crosslane kernel worker: the kernel engine module (crates/crosslane-web-kernel, the second of
// the page's two wasm modules), loaded in a module worker when the kernel view first asks, runs
// the kernel interpreter so that no kernel, link or launch can block the page.
//
// Protocol (crates/crosslane-web/src/worker/): the page posts {id, json} with a Request as JSON;
// the worker answers {id, reply} (a Reply as JSON) and, during a run, {id, progress: steps}
// about every 100 ms, which the page's watchdog takes as the heartbeat. A run is interpreted in
// slices of about 150 ms (worker_running() says it goes on); between two slices the worker
// reads its messages, so {cancel: id} stops run `id` where it is and its answer is the frame
// after the last step run (the steps run so far are kept). {ready: true} says the wasm has
// loaded; {failed: message} that it could not (the page then runs the interpreter itself).
// Requests are answered one at a time, in order. (The sort view has a worker of its own,
// crosslane-sort-worker.js, on the page's first module.)
//
// scripts/build-web writes this file into dist/ with the placeholders replaced by the hashed
// names of the kernel engine's wasm-bindgen glue and module.
import initWasm, { worker_request, worker_running } from './__CROSSLANE_KERNEL_GLUE__';

const ready = initWasm({ module_or_path: new URL('./__CROSSLANE_KERNEL_WASM__', import.meta.url) });
ready.then(
  () => self.postMessage({ ready: true }),
  (e) => self.postMessage({ failed: String(e && e.message ? e.message : e) }),
);

// Runs the page has cancelled (by request id).
const cancelled = new Set();
// Requests wait for the one before them: a run's slices yield to the event loop (to hear a
// cancel), and no other request may run between them.
let queue = Promise.resolve();
const yieldToMessages = () => new Promise((resolve) => setTimeout(resolve, 0));

async function answer(id, json) {
  const progress = (steps) => self.postMessage({ id, progress: steps });
  let reply = worker_request(json, progress, false);
  while (worker_running()) {
    await yieldToMessages();
    reply = worker_request(json, progress, cancelled.has(id));
  }
  cancelled.delete(id);
  self.postMessage({ id, reply });
}

self.onmessage = async (event) => {
  const { id, json, cancel } = event.data ?? {};
  if (typeof cancel === 'number') {
    cancelled.add(cancel);
    return;
  }
  if (typeof json !== 'string') return;
  try {
    await ready;
  } catch {
    return;
  }
  // A trap in the wasm is thrown again outside the queue: the page's worker.onerror hears it.
  queue = queue.then(() => answer(id, json)).catch((e) => setTimeout(() => { throw e; }));
};
