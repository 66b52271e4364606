/** The page `decidekit view` answers with when a page cannot be shown: what failed, in words. */
import { escapeHtml } from '../html/html-escape.js';
import { renderPage } from '../html/html-page.js';
import type { ViewLinks } from '../../core/view/view-links.js';
import { renderViewNav } from './view-nav.js';

export function renderViewError(links: ViewLinks, storePath: string, title: string, message: string): string {
  return renderPage({
    title: `decidekit view: ${title}`,
    body: `${renderViewNav(links, title, storePath)}<main><h1>${escapeHtml(title)}</h1><p class="warn" id="view-error">${escapeHtml(message)}</p></main>`,
  });
}
