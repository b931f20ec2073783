//! The kernel view's markup: the editor, its argument fields, budgets and panels, which
//! `build` looks up by id.

/// The view's HTML, put into its section once when the view mounts.
pub(super) const TEMPLATE: &str = r#"
<div class="kernel-layout">
  <div class="kernel-left">
    <div class="kernel-toolbar">
      <label for="kernel-examples">example</label>
      <select id="kernel-examples"></select>
    </div>
    <div class="kernel-editor">
      <div id="kernel-gutter" class="kernel-gutter" aria-hidden="true"></div>
      <div class="kernel-code">
        <pre id="kernel-highlight" aria-hidden="true"></pre>
        <textarea id="kernel-source" spellcheck="false" wrap="off" autocapitalize="off"
          autocomplete="off" aria-label="kernel source"></textarea>
      </div>
    </div>
    <p id="kernel-error" role="alert" hidden></p>
    <fieldset class="kernel-launch">
      <legend>launch</legend>
      <div class="kernel-fields">
        <div class="field"><label for="kernel-entry">kernel</label><select id="kernel-entry"></select></div>
        <div class="field"><label for="kernel-blocks">blocks</label><input id="kernel-blocks" type="text" inputmode="numeric" placeholder="1"></div>
        <div class="field"><label for="kernel-threads">threads per block</label><input id="kernel-threads" type="text" inputmode="numeric" placeholder="auto"></div>
        <div class="field"><label for="kernel-lanes">lanes per warp</label><input id="kernel-lanes" type="text" inputmode="numeric" placeholder="auto"></div>
        <div class="field field-row"><label for="kernel-dialect">dialect</label><select id="kernel-dialect"></select></div>
        <div class="field field-row field-defines"><label for="kernel-defines">defines</label><input id="kernel-defines" type="text" spellcheck="false" placeholder="-DNAME=1 -UNAME" title="macros defined (-DNAME[=VALUE], or NAME[=VALUE]) and undefined (-UNAME) after the dialect's predefined ones, as clang -D/-U"></div>
        <div class="field field-row"><label for="kernel-overrides">overrides</label><input id="kernel-overrides" type="text" spellcheck="false" placeholder="WGSL: WG=64 SCALE=1.5" title="values of a WGSL shader's override declarations, NAME=VALUE (or @id's number=VALUE), as the CLI's --override; empty: each override's initializer"></div>
      </div>
      <p id="kernel-dialect-from" class="hint"></p>
      <p id="kernel-args-stale" class="hint" role="status" hidden>from the previous kernel</p>
      <div id="kernel-args" class="kernel-fields" aria-label="kernel arguments"></div>
      <p id="kernel-fill-hint" class="hint"></p>
      <details class="kernel-budgets"><summary>budgets</summary>
      <div class="kernel-fields">
        <div class="field"><label for="kernel-max-work">max work</label><input id="kernel-max-work" type="text" inputmode="numeric"></div>
        <div class="field"><label for="kernel-max-memory">max memory (bytes)</label><input id="kernel-max-memory" type="text" inputmode="numeric"></div>
        <div class="field"><label for="kernel-max-depth">max depth</label><input id="kernel-max-depth" type="text" inputmode="numeric"></div>
        <div class="field"><label for="kernel-max-tokens">max tokens</label><input id="kernel-max-tokens" type="text" inputmode="numeric"></div>
        <div class="field"><label for="kernel-max-code">max code</label><input id="kernel-max-code" type="text" inputmode="numeric"></div>
        <div class="field"><label for="kernel-max-diagnostics">max diagnostics</label><input id="kernel-max-diagnostics" type="text" inputmode="numeric"></div>
      </div>
      </details>
      <p id="kernel-geometry" class="hint"></p>
    </fieldset>
    <section class="kernel-panel" aria-labelledby="kernel-diag-title">
      <h2 id="kernel-diag-title">diagnostics</h2>
      <ul id="kernel-diagnostics"></ul>
    </section>
  </div>
  <div class="kernel-right">
    <section class="kernel-panel">
      <div class="kernel-controls">
        <button type="button" id="kernel-reset" title="back to the launch (memory edits kept)">reset</button>
        <button type="button" id="kernel-back" title="one step back">◀ back</button>
        <button type="button" id="kernel-step" title="one statement of one warp">step ▶</button>
        <button type="button" id="kernel-run" title="run to the end or a limit">run ▶▶</button>
        <button type="button" id="kernel-cancel" title="stop the run where it is (the steps run so far are kept)" hidden>cancel</button>
        <input type="range" id="kernel-slider" min="0" max="0" value="0" step="1" aria-label="step in the trace">
        <span id="kernel-position"></span>
      </div>
      <p id="kernel-status" role="status"></p>
      <div id="kernel-mask" aria-label="active mask"></div>
    </section>
    <section class="kernel-panel" aria-labelledby="kernel-canvas-title">
      <div class="section-head"><h2 id="kernel-canvas-title">cross-lane call</h2><p id="kernel-op-caption"></p></div>
      <div class="kernel-stage" tabindex="0" role="region" aria-label="cross-lane call drawing (scrolls sideways)"><canvas id="kernel-canvas" role="img" aria-label="cross-lane call" aria-describedby="kernel-vars"></canvas><div id="kernel-tooltip" role="tooltip" hidden></div></div>
    </section>
    <section class="kernel-panel" aria-labelledby="kernel-vars-title">
      <div class="section-head"><h2 id="kernel-vars-title">lanes</h2><select id="kernel-warp-pick" aria-label="warp shown"></select><p id="kernel-warp" class="hint"></p></div>
      <div class="table-wrap"><table id="kernel-vars"></table></div>
    </section>
    <section class="kernel-panel" aria-labelledby="kernel-memory-title">
      <div class="section-head"><h2 id="kernel-memory-title">memory</h2><p id="kernel-memory-error" role="alert" hidden></p></div>
      <p id="kernel-memory-note" class="hint" role="status" hidden></p>
      <div class="table-wrap"><table id="kernel-memory"></table></div>
    </section>
  </div>
</div>
"#;
