import { parseDocument } from 'htmlparser2';
import { isTag, isText, type ChildNode } from 'domhandler';

// Apple's buy pages write display values as HTML fragments, for example a capacity of
// `256<small>GB</small><as-footnote ...><sup ...><span class="visuallyhidden">&nbsp;Footnote&nbsp;
// </span>1</sup></as-footnote>` and a model of `iPhone&nbsp;17&nbsp;Pro\n<span
// class="form-label-small">6.3-inch display...</span>` (the Australian capture,
// ../shared/reference/apple/captures/au-buy-iphone-17-productSelectionData-2025-09-11.json).
// They are read with htmlparser2, a parser that runs anywhere (no Node built-ins), never with
// regular expressions over the markup.

// Footnote markers and text meant for screen readers are not part of a name.
const SKIPPED_TAGS = new Set(['as-footnote', 'sup', 'script', 'style', 'template']);
const HIDDEN_CLASS = 'visuallyhidden';
// The small label under a model's name on Pro pages ("6.3-inch display").
const SUB_LABEL_CLASS = 'form-label-small';

/** A name as people type it: NFKC (which turns U+00A0 into a space), runs of spaces collapsed. */
export function normalizeProductName(name: string): string {
  return name.normalize('NFKC').replace(/\s+/g, ' ').trim();
}

function hasClass(node: ChildNode, className: string): boolean {
  if (!isTag(node)) return false;
  return (node.attribs.class ?? '').split(/\s+/).includes(className);
}

/** The visible text of nodes, leaving out footnotes, hidden text and `skippedClass` elements. */
function collectText(nodes: readonly ChildNode[], skippedClass: string | undefined): string {
  let text = '';
  for (const node of nodes) {
    if (isText(node)) {
      text += node.data;
    } else if (isTag(node)) {
      if (SKIPPED_TAGS.has(node.name) || hasClass(node, HIDDEN_CLASS)) continue;
      if (skippedClass !== undefined && hasClass(node, skippedClass)) continue;
      // A block boundary is a word boundary; inline tags (<small>GB</small>) are not.
      const isBlock = ['br', 'div', 'p', 'li'].includes(node.name);
      text += `${isBlock ? ' ' : ''}${collectText(node.children, skippedClass)}${isBlock ? ' ' : ''}`;
    }
  }
  return text;
}

function containsClass(nodes: readonly ChildNode[], className: string): boolean {
  return nodes.some(
    (node) => isTag(node) && (hasClass(node, className) || containsClass(node.children, className)),
  );
}

/** The text a display value shows ("256GB"), entities decoded, spaces normalised; null if empty. */
export function readDisplayText(fragment: string): string | null {
  const text = normalizeProductName(collectText(parseDocument(fragment).children, undefined));
  return text === '' ? null : text;
}

/**
 * The model name a screen-size display value carries before its small size label ("iPhone 17
 * Pro" of `iPhone&nbsp;17&nbsp;Pro\n<span class="form-label-small">6.3-inch display</span>`), or
 * null when the value has no such label (a plain size such as "11-inch" names no model).
 */
export function readModelTitle(fragment: string): string | null {
  const nodes = parseDocument(fragment).children;
  if (!containsClass(nodes, SUB_LABEL_CLASS)) return null;
  const title = normalizeProductName(collectText(nodes, SUB_LABEL_CLASS));
  return title === '' ? null : title;
}
