// The shared package reaches its run-time singletons only by package name (docs/architecture.md,
// "The shared contract"): checked through the workspace's real eslint.config.mjs on fixture sources.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from '@jest/globals';
import { ESLint } from 'eslint';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: repoRoot });

async function importMessages(filePath, code) {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, filePath) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports' || m.fatal).map((m) => m.message);
}

describe('shared code reaches the run-time contract only through @finishline/shared/runtime', () => {
  test.each([
    ["import { get } from '../api/client';\nexport const load = get;\n", 'shared/src/pricing/fixture.ts'],
    ["import { get } from './client';\nexport const load = get;\n", 'shared/src/api/fixture.ts'],
    ["import { shopAtom } from '../state/shopStore';\nexport const atom = shopAtom;\n", 'shared/src/react/fixture.ts'],
    ["import { getRuntimeConfig } from '../runtime/runtimeConfig';\nexport const config = getRuntimeConfig;\n", 'shared/src/api/fixture.ts'],
    ["export * from './runtime';\n", 'shared/src/fixture.ts'],
  ])('reports %j in %s', async (code, filePath) => {
    const messages = await importMessages(filePath, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain("Import the run-time singletons from '@finishline/shared/runtime'");
  });

  test('accepts the package name, type-only imports and pure modules', async () => {
    const code = [
      "import { get } from '@finishline/shared/runtime';",
      "import type { ShopState } from '../state/shopStore';",
      "import { STORAGE_KEYS } from '../storageKeys';",
      'export const uses: [typeof get, ShopState | null, typeof STORAGE_KEYS] = [get, null, STORAGE_KEYS];',
      '',
    ].join('\n');
    expect(await importMessages('shared/src/api/fixture.ts', code)).toEqual([]);
  });
});
