/**
 * Overall time limits for the test runners. A run that hangs (a server that never closes, a browser
 * that never answers) must fail with a message instead of eating CI's 90 minutes in silence.
 * Each command runs in its own process group, so the kill reaches Jest's workers, Playwright's
 * browsers and the servers the journeys started, not just the top process.
 */
import { spawn } from 'node:child_process';

/** Minutes from the environment variable `name`, or the default; the deadline is measured from now. */
export function deadlineFromEnv(name, defaultMinutes) {
  const minutes = Number(process.env[name] ?? defaultMinutes);
  if (!Number.isFinite(minutes) || minutes <= 0) throw new Error(`${name} must be a positive number of minutes, got "${process.env[name]}"`);
  return { name, minutes, at: Date.now() + minutes * 60_000 };
}

const GRACE_MS = 15_000;

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is gone already
  }
}

/**
 * Runs `node args...` until it exits or the deadline passes; resolves to its exit status (1 when it
 * was killed). On the deadline the whole group gets SIGTERM, then SIGKILL after a grace period.
 */
export function runUntil(deadline, label, args, options = {}) {
  return new Promise((resolve) => {
    const remaining = deadline.at - Date.now();
    if (remaining <= 0) {
      console.error(`\n${label}: not started, the overall limit of ${deadline.minutes} min (${deadline.name}) is used up.`);
      resolve(1);
      return;
    }
    const child = spawn(process.execPath, args, { stdio: 'inherit', detached: true, ...options });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      console.error(
        `\n${label}: stopped after exceeding the overall limit of ${deadline.minutes} min (${deadline.name}); ` +
          'something hangs or the machine is far slower than expected. Raise the limit only if the run is genuinely that slow.',
      );
      killGroup(child, 'SIGTERM');
      setTimeout(() => killGroup(child, 'SIGKILL'), GRACE_MS).unref();
    }, remaining);
    // Ctrl-C or a CI cancel stops the group too (it does not share our terminal's process group).
    const forward = (signal) => {
      killGroup(child, signal);
      process.exit(130);
    };
    process.once('SIGINT', forward);
    process.once('SIGTERM', forward);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      // Whatever the top process left behind (a Jest worker, a browser) goes with it.
      killGroup(child, 'SIGKILL');
      resolve(timedOut ? 1 : (code ?? (signal ? 1 : 0)));
    });
  });
}
