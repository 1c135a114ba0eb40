// Runs every Jest project; then, when TEST_DATABASE_URL is given, the API suite again on that
// PostgreSQL server so the production database path is tested too. Both passes together must end
// within JEST_TIME_LIMIT_MINUTES (default 45: CI has 90 minutes for type check, lint, Jest and the
// journeys; on one worker the two passes came near 30 minutes on a two-core machine), else the run
// is stopped with a message saying so.
//
// Workers: one per core (at least two) unless the caller names its own. Jest's default, cores - 1,
// is one worker on two cores, and the API suites spend much of their time waiting on sockets,
// PGlite and the reader's child processes: on two cores the first pass took 7.5 minutes on two
// workers. Each suite has its own database (PGlite in memory, or its own schema on the server).
import os from 'node:os';
import { deadlineFromEnv, runUntil } from './time-limit.mjs';

const jestBin = new URL('../node_modules/jest/bin/jest.js', import.meta.url).pathname;
const baseArgs = ['--experimental-vm-modules', jestBin, '--ci'];
const extra = process.argv.slice(2);
const namesWorkers = extra.some((arg) => /^(-w|--maxWorkers|-i|--runInBand)(=|$)/.test(arg));
const workers = namesWorkers ? [] : [`--maxWorkers=${Math.max(2, os.availableParallelism())}`];
const deadline = deadlineFromEnv('JEST_TIME_LIMIT_MINUTES', 45);

async function run(label, args, env) {
  console.log(`\n=== Jest: ${label} ===`);
  // The caller's arguments (test paths, -t) go before --selectProjects: after it, Jest would read
  // the paths as project names and run the whole API suite.
  const status = await runUntil(deadline, `Jest (${label})`, [...baseArgs, ...workers, ...extra, ...args], {
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
