// Runs every Jest project; then, when TEST_DATABASE_URL is given, the API suite again on that
// PostgreSQL server so the production database path is tested too. Both passes together must end
// within JEST_TIME_LIMIT_MINUTES (default 40: CI has 90 minutes for type check, lint, Jest and the
// journeys; the two passes come near 30 minutes on a two-core machine, and went over it beside
// other work), else the run is stopped with a message saying so.
import { deadlineFromEnv, runUntil } from './time-limit.mjs';

const jestBin = new URL('../node_modules/jest/bin/jest.js', import.meta.url).pathname;
const baseArgs = ['--experimental-vm-modules', jestBin, '--ci'];
const extra = process.argv.slice(2);
const deadline = deadlineFromEnv('JEST_TIME_LIMIT_MINUTES', 40);

async function run(label, args, env) {
  console.log(`\n=== Jest: ${label} ===`);
  // The caller's arguments (test paths, -t) go before --selectProjects: after it, Jest would read
  // the paths as project names and run the whole API suite.
  const status = await runUntil(deadline, `Jest (${label})`, [...baseArgs, ...extra, ...args], {
    env: { ...process.env, NODE_NO_WARNINGS: '1', ...env },
  });
  if (status !== 0) process.exit(status);
}

await run('all projects (API on embedded PGlite)', [], { FINISHLINE_TEST_DB: 'pglite' });
if (process.env.TEST_DATABASE_URL) {
  await run(`API on PostgreSQL server (${process.env.TEST_DATABASE_URL.replace(/\/\/[^@]*@/, '//')})`, ['--selectProjects', 'api'], {
    FINISHLINE_TEST_DB: 'postgres',
  });
} else {
  console.log('\nTEST_DATABASE_URL not set: the API suite ran on PGlite only.');
}
