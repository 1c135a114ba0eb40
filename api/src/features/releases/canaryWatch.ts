import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../../config/config';
import type { AppContext } from '../../context';
import { deliverMail, enqueueMail } from '../../mail/outbox';
import { ratesSince, type ReleaseRates } from './clientReports';

/**
 * The canary watch. While a remote's canary runs (`pnpm release <remote> --canary N`), its errors
 * per page view are compared with the current release's over the same minutes (since the canary
 * started); once the canary has its minimum of views and its rate is past the current one's by more
 * than the remote's threshold, it is rolled back here, by the release script's own code (the same
 * rewrite of runtime-config.json as `pnpm rollback`), the team gets a mail through the outbox and
 * `pnpm releases` a line. Runs as a queue job every minute and right after a batch with errors.
 * It also writes the error rates `pnpm releases` shows. Needs the folder the release script writes
 * (RELEASES_DIR, RUNTIME_CONFIG_FILE); an API that cannot see it watches nothing.
 */

/** The minutes `pnpm releases` shows the error rates of. */
export const RATES_WINDOW_MINUTES = 60;

interface CanaryState {
  version: string;
  share: number;
  since: string;
  maxErrorRate: number;
  minViews: number;
}

interface ReleaseRecord {
  remotes: Record<string, { live: string; canary?: CanaryState | null; history: Array<{ version: string }> }>;
}

/** What the watch uses of scripts/releases.mjs. */
interface ReleaseScript {
  readRecord(releasesDir: string): ReleaseRecord;
  rollbackCanary(remote: string, version: string, reason: string, options: { env: Record<string, string> }): CanaryState | null;
  errorRatesFile(releasesDir: string): string;
}

let script: Promise<ReleaseScript> | null = null;
const releaseScript = () => (script ??= import(pathToFileURL(path.join(REPO_ROOT, 'scripts', 'releases.mjs')).href) as Promise<ReleaseScript>);

export interface CanaryVerdict {
  remote: string;
  canary: string;
  current: string;
  rates: { canary: ReleaseRates; current: ReleaseRates };
  rolledBack: boolean;
  reason: string;
}

const per100 = ({ views, errors }: ReleaseRates) => (views > 0 ? (100 * errors) / views : 0);

/** Whether the canary is past its threshold, and why, in words for the mail and `pnpm releases`. */
export function judgeCanary(
  canary: CanaryState,
  current: string,
  rates: { canary: ReleaseRates; current: ReleaseRates },
): { rollBack: boolean; reason: string } {
  const canaryRate = per100(rates.canary);
  const currentRate = per100(rates.current);
  const reason =
    `${canaryRate.toFixed(1)} errors per 100 page views (${rates.canary.errors} in ${rates.canary.views}) against ${currentRate.toFixed(1)} for ${current} ` +
    `(${rates.current.errors} in ${rates.current.views}) since ${canary.since}; the threshold is ${canary.maxErrorRate} more, after ${canary.minViews} views`;
  return { rollBack: rates.canary.views >= canary.minViews && canaryRate - currentRate > canary.maxErrorRate, reason };
}

async function tellTheTeam(ctx: AppContext, remote: string, canary: CanaryState, current: string, reason: string): Promise<void> {
  const id = await enqueueMail(
    ctx.db,
    {
      to: ctx.config.releases.alertAddress,
      tag: 'canary_rollback',
      subject: `Finishline: the ${remote} canary ${canary.version} rolled itself back`,
      text:
        `The ${remote} canary ${canary.version} (${canary.share}% of visitors) was rolled back by itself: ${reason}.\n\n` +
        `Every visitor now gets ${current}. See \`pnpm releases\`; the error samples are in client_error_samples (kept for ${ctx.config.releases.sampleRetentionDays} days).`,
    },
    { dedupeKey: `canary-rollback:${remote}:${canary.version}:${canary.since}` },
  );
  if (id !== null) await deliverMail({ db: ctx.db, mailer: ctx.mailer, retrySeconds: ctx.config.mail.retrySeconds }, id);
}

/** The watch in progress in this process: a second one waits for it (one rollback, its mail written, before the next judges). */
let inFlight: Promise<unknown> = Promise.resolve();

/** Judges every running canary (rolling back the ones past their threshold) and writes the error rates. */
export function watchCanaries(ctx: AppContext, log: (message: string) => void = () => undefined): Promise<CanaryVerdict[]> {
  const run = inFlight.then(() => watchOnce(ctx, log));
  inFlight = run.catch(() => undefined);
  return run;
}

async function watchOnce(ctx: AppContext, log: (message: string) => void): Promise<CanaryVerdict[]> {
  const { releasesDir, runtimeConfigFile } = ctx.config.releases;
  if (!fs.existsSync(runtimeConfigFile) || !fs.existsSync(releasesDir)) return [];
  const releases = await releaseScript();
  const record = releases.readRecord(releasesDir);
  const env = { RELEASES_DIR: releasesDir, RUNTIME_CONFIG_FILE: runtimeConfigFile };
  const verdicts: CanaryVerdict[] = [];
  const shown: Record<string, Record<string, ReleaseRates>> = {};
  const windowStart = new Date(Date.now() - RATES_WINDOW_MINUTES * 60_000);

  for (const [remote, state] of Object.entries(record.remotes)) {
    const canary = state.canary;
    shown[remote] = await ratesSince(ctx.db, remote, canary ? [state.live, canary.version] : [state.live], windowStart);
    if (!canary) continue;
    const since = await ratesSince(ctx.db, remote, [state.live, canary.version], new Date(canary.since));
    const rates = { canary: since[canary.version], current: since[state.live] };
    const { rollBack, reason } = judgeCanary(canary, state.live, rates);
    const ended = rollBack ? releases.rollbackCanary(remote, canary.version, `by itself: ${reason}`, { env }) : null;
    if (ended) {
      log(`canary watch: ${remote} ${canary.version} rolled back: ${reason}`);
      await tellTheTeam(ctx, remote, canary, state.live, reason);
    }
    verdicts.push({ remote, canary: canary.version, current: state.live, rates, rolledBack: ended !== null, reason });
  }
  const ratesFile = releases.errorRatesFile(releasesDir);
  const draft = `${ratesFile}.${process.pid}.tmp`;
  fs.writeFileSync(draft, `${JSON.stringify({ updatedAt: new Date().toISOString(), windowMinutes: RATES_WINDOW_MINUTES, remotes: shown }, null, 2)}\n`);
  fs.renameSync(draft, ratesFile);
  return verdicts;
}

/** After a batch with errors: the watch runs at once (at most every few seconds per process), not only on its minute. */
const SOON_MS = 3000;
let lastSoon = 0;
export function watchCanariesSoon(ctx: AppContext, log: (message: string) => void): void {
  const now = Date.now();
  if (now - lastSoon < SOON_MS) return;
  lastSoon = now;
  watchCanaries(ctx, log).catch((error: unknown) => log(`canary watch: ${String(error)}`));
}
