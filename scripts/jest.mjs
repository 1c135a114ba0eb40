// Runs every Jest project; then, when TEST_DATABASE_URL is given, the API suite again on that
// PostgreSQL server so the production database path is tested too.
import { spawnSync } from 'node:child_process';

const jestBin = new URL('../node_modules/jest/bin/jest.js', import.meta.url).pathname;
const baseArgs = ['--experimental-vm-modules', jestBin, '--ci'];
const extra = process.argv.slice(2);

function run(label, args, env) {
  console.log(`\n=== Jest: ${label} ===`);
  const result = spawnSync(process.execPath, [...baseArgs, ...args, ...extra], {
    stdio: 'inherit',
    env: { ...process.env, NODE_NO_WARNINGS: '1', ...env },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run('all projects (API on embedded PGlite)', [], { FINISHLINE_TEST_DB: 'pglite' });
if (process.env.TEST_DATABASE_URL) {
  run(`API on PostgreSQL server (${process.env.TEST_DATABASE_URL.replace(/\/\/[^@]*@/, '//')})`, ['--selectProjects', 'api'], {
    FINISHLINE_TEST_DB: 'postgres',
  });
} else {
  console.log('\nTEST_DATABASE_URL not set: the API suite ran on PGlite only.');
}
