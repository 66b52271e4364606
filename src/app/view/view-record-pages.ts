/** `decidekit view`'s audit and probe pages (`/audits/ID`, `/probes/ID`), read from the store. */
import { DecidekitError } from '../../core/errors.js';
import type { ViewLinks } from '../../core/view/view-links.js';
import { withStore } from '../../store/open-store.js';
import { renderProbeHtml } from '../../reports/probe/probe-html.js';
import { renderAuditPage } from '../../reports/view/view-audit.js';
import { renderViewNav } from '../../reports/view/view-nav.js';

const READ_ONLY = { mustExist: true, readOnly: true } as const;

const ASKED_BY = { command: 'view' } as const;

export function viewAuditPage(storePath: string, prefix: string, links: ViewLinks): string {
  const run = withStore(storePath, READ_ONLY, (s) => {
    const id = s.resolveId(prefix, 'audit', ASKED_BY);
    const found = s.audits.get(id);
    if (found === null)
      throw new DecidekitError('unknown_run', `unknown audit: ${id} disappeared from ${s.path} while reading`);
    return found;
  });
  return renderAuditPage(run, renderViewNav(links, `Audit ${run.id}`, storePath));
}

export function viewProbePage(storePath: string, prefix: string, links: ViewLinks): string {
  const run = withStore(storePath, READ_ONLY, (s) => {
    const id = s.resolveId(prefix, 'probe', ASKED_BY);
    const found = s.probes.get(id);
    if (found === null)
      throw new DecidekitError('unknown_run', `unknown probe: ${id} disappeared from ${s.path} while reading`);
    return found;
  });
  // The probe's own page, with the nav bar at the top of its body.
  return renderProbeHtml(run).replace('<body>\n', `<body>\n${renderViewNav(links, `Probe ${run.id}`, storePath)}\n`);
}
