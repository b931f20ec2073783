// Types of dist/crosslane-elements.js: importing it registers <crosslane-op>, <crosslane-kernel>
// and <crosslane-sort>. Each fires `crosslane-change` (bubbling, composed) after every render.
import type { OpResult } from './crosslane.js';

/** <crosslane-op dialect op lanes active values type theme playground PARAM…> */
export declare class CrosslaneOp extends HTMLElement {
  /** The current result, shaped like runOp's; null before the first render or on an error. */
  readonly result: OpResult | null;
}
/** <crosslane-kernel src="FILE.cu" source="ESCAPED TEXT" blocks threads-per-block lanes entry step theme
 *  playground>: the kernel from `src` (fetched; same origin or CORS), else the `source`
 *  attribute, else the text content. `data-state`: pending, ready, error or fallback. */
export declare class CrosslaneKernel extends HTMLElement {
  /** The kernel text (the element's text, common indentation removed). */
  readonly source: string;
}
/** <crosslane-sort n seed values step theme playground> */
export declare class CrosslaneSort extends HTMLElement {}

/** `detail` of `crosslane-change`: a runOp result (crosslane-op), a stepper position
 *  (kernel, sort), or an error. */
export type CrosslaneChangeDetail =
  | OpResult
  | { position: number; total: number; caption: string; lines: string[] }
  | { error: { field: string | null; message: string } };

declare global {
  interface HTMLElementTagNameMap {
    'crosslane-op': CrosslaneOp;
    'crosslane-kernel': CrosslaneKernel;
    'crosslane-sort': CrosslaneSort;
  }
  interface HTMLElementEventMap {
    'crosslane-change': CustomEvent<CrosslaneChangeDetail>;
  }
}
