/** The bar at the top of every `decidekit view` page: back to the list, and where the page is. */
import { shownStoreLocation } from '../../core/store-url.js';
import { escapeHtml } from '../html/html-escape.js';
import type { ViewLinks } from '../../core/view/view-links.js';

/** The nav bar's style, inlined in its own tag so the shared page style stays as it is. */
const NAV_STYLE =
  '<style>nav.view{display:flex;gap:1rem;align-items:baseline;font-size:.9rem;margin-bottom:.6rem;border-bottom:1px solid var(--line);padding-bottom:.4rem}' +
  'nav.view a{color:inherit}nav.view .muted{margin-left:auto}@media print{nav.view{display:none}}' +
  '#changed .dist{white-space:normal;overflow-wrap:anywhere}#changed td:nth-child(n+5){min-width:12rem}#changed td:nth-child(-n+2){white-space:normal;overflow-wrap:anywhere;min-width:8rem}' +
  'a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible{outline:2px solid var(--heat);outline-offset:2px}</style>';

export function renderViewNav(links: ViewLinks, here: string, storePath: string): string {
  return (
    `${NAV_STYLE}<nav class="view" aria-label="decidekit view"><a href="${escapeHtml(links.index)}">All runs, audits and probes</a>` +
    `<span>${escapeHtml(here)}</span><span class="muted">store <code>${escapeHtml(shownStoreLocation(storePath))}</code></span></nav>`
  );
}

/** A link when the page exists, else the text alone. */
export function linkOr(href: string | null, text: string): string {
  return href === null ? escapeHtml(text) : `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;
}
