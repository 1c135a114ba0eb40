// The API's layering rule, run through the workspace's real eslint.config.mjs on fixture sources
// placed (by file path only) inside api/src: what it reports and what it lets through.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from '@jest/globals';
import { ESLint } from 'eslint';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: repoRoot });
const RULE = 'api-boundaries/feature-imports';

/** The layering messages ESLint gives for `code` as if it were the file at `filePath`. */
async function boundaryMessages(filePath, code) {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, filePath) });
  return result.messages.filter((m) => m.ruleId === RULE || m.fatal).map((m) => m.message);
}

describe('API features import each other only through index.ts', () => {
  test.each([
    ["import { buildBill } from '../cart/bill';\nexport const bill = buildBill;\n", 'api/src/features/x/fixture.ts'],
    ["import type { OrderRow } from '../orders/orderStore';\nexport type Row = OrderRow;\n", 'api/src/features/x/fixture.ts'],
    ["export { insertOrder } from '../orders/orderStore';\n", 'api/src/features/x/fixture.ts'],
    ["import { buildBill } from '../../features/cart/bill.ts';\nexport const bill = buildBill;\n", 'api/src/features/x/fixture.ts'],
    ["import { buildBill } from '../../cart/bill';\nexport const bill = buildBill;\n", 'api/src/features/x/nested/fixture.ts'],
    ["export const load = () => import('../search/bibSearch');\n", 'api/src/features/x/fixture.ts'],
  ])('reports %j in %s', async (code, filePath) => {
    const messages = await boundaryMessages(filePath, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/reaches into the (cart|orders|search) feature\. Import what it offers from '(\.\.\/)+(cart|orders|search)' \(its index\.ts\)/);
  });

  test('accepts its own folder, another feature through index.ts, the rules, the registry and shared', async () => {
    const code = [
      "import { buildBill } from '../cart';",
      "import { findEvent } from '../events/index';",
      "import { findOrderByRef } from '../orders/index.ts';",
      "import { helper } from './helper';",
      "import { assertBibsReleased } from '../../rules/privacy';",
      "import type { Feature } from '../index';",
      "import { AppError } from '../../http/envelope';",
      "import { UNLABELED_BIB } from '@finishline/shared/pure';",
      'export const used = [buildBill, findEvent, findOrderByRef, helper, assertBibsReleased, AppError, UNLABELED_BIB];',
      'export type Used = Feature;',
      '',
    ].join('\n');
    expect(await boundaryMessages('api/src/features/x/fixture.ts', code)).toEqual([]);
    expect(await boundaryMessages('api/src/features/x/nested/fixture.ts', "import { helper } from '../helper';\nexport const used = helper;\n")).toEqual([]);
  });

  test('the cross-feature rules import no feature', async () => {
    const messages = await boundaryMessages('api/src/rules/fixture.ts', "import { findEvent } from '../features/events';\nexport const used = findEvent;\n");
    expect(messages).toEqual(["api/src/rules/ holds rules every feature may use, so it imports no feature ('../features/events')."]);
  });

  test('outside api/src the rule does not apply', async () => {
    expect(await boundaryMessages('api/test/fixture.ts', "import { buildBill } from '../src/features/cart/bill';\nexport const used = buildBill;\n")).toEqual(
      [],
    );
  });

  test('the API as it is keeps the rule', async () => {
    const results = await eslint.lintFiles(['api/src']);
    const broken = results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId === RULE).map((m) => `${path.relative(repoRoot, r.filePath)}:${m.line} ${m.message}`),
    );
    expect(broken).toEqual([]);
  });
});
