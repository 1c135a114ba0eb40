import { API_ROUTES } from '@finishline/shared/pure';
import type { Feature } from '../index';
import { readOutbox, type StoredMail } from '../../mail/mailer';
import { sendOk } from '../../http/envelope';
import { loopbackOnly } from '../../security/loopback';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function filterMails(mails: StoredMail[], query: { to?: string; tag?: string }): StoredMail[] {
  const to = query.to?.trim().toLowerCase();
  return mails.filter((m) => (!to || m.to.toLowerCase() === to) && (!query.tag || m.tag === query.tag)).reverse();
}

function renderPage(mails: StoredMail[]): string {
  const items = mails
    .map(
      (m) => `<article class="mail" data-to="${escapeHtml(m.to)}" data-tag="${escapeHtml(m.tag)}">
  <header><strong>${escapeHtml(m.subject)}</strong><span>${escapeHtml(m.sentAt)}</span></header>
  <div class="meta">To ${escapeHtml(m.to)} · ${escapeHtml(m.tag)}</div>
  <pre>${escapeHtml(m.text)}</pre>
</article>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Outbox (development)</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;padding:16px;background:#f6f7f9;color:#1d2129}
h1{font-size:20px}.mail{background:#fff;border:1px solid #e5e6eb;border-radius:8px;padding:12px;margin:12px 0}
.mail header{display:flex;justify-content:space-between;gap:8px;flex-wrap:wrap}.meta{color:#666;font-size:13px;margin:4px 0}
pre{white-space:pre-wrap;word-break:break-word;margin:8px 0 0;font-size:14px}
</style></head><body>
<h1>Outbox (development): ${mails.length} mail${mails.length === 1 ? '' : 's'}, newest first</h1>
<p>Mails are written here instead of being sent because no SMTP server is configured. Filter with ?to=address or ?tag=kind.</p>
${items || '<p>No mail yet.</p>'}
</body></html>`;
}

/**
 * Development pages: the outbox as HTML (and JSON for tests). Registered only while the outbox
 * mailer is active, DEV_PAGES is not switched off and NODE_ENV is not production, and answered only
 * on loopback connections: the outbox holds sign-in codes and download links.
 */
export const devtoolsRoutes: Feature = async (app, { ctx }) => {
  const outboxDir = ctx.mailer.outboxDir;
  if (!outboxDir || !ctx.config.security.devPages) return;
  app.addHook('onRequest', loopbackOnly);

  app.get<{ Querystring: { to?: string; tag?: string } }>(API_ROUTES.devOutbox, async (request, reply) => {
    const mails = filterMails(await readOutbox(outboxDir), request.query);
    return reply.header('Content-Type', 'text/html; charset=utf-8').header('Cache-Control', 'no-store').send(renderPage(mails));
  });

  app.get<{ Querystring: { to?: string; tag?: string } }>(API_ROUTES.devOutboxJson, async (request, reply) => {
    return sendOk(reply, filterMails(await readOutbox(outboxDir), request.query));
  });
};
