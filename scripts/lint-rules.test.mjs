/**
 * The architecture rules hold because lint fails, not by discipline: these cases lint small snippets
 * as if they sat in real files of the repository and check what the workspace configuration reports.
 */
import { describe, expect, it } from '@jest/globals';
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function ruleIdsOf(code, filePath) {
  const [result] = await eslint.lintText(code, { filePath: `${root}/${filePath}` });
  return result.messages.map((message) => message.ruleId);
}

const IN_CART_FEATURE = 'mfe-storefront/src/features/cart/pages/LintFixture.tsx';

describe('feature boundaries', () => {
  it('reports a storefront feature importing another feature', async () => {
    const code = "import { ProductsPage } from '../../products/pages/ProductsPage';\nexport const page = ProductsPage;\n";
    expect(await ruleIdsOf(code, IN_CART_FEATURE)).toContain('import-x/no-restricted-paths');
  });

  it('reports a shell feature importing app-level code', async () => {
    const code = "import { ROUTE_TABLE } from '../../app/routeTable';\nexport const table = ROUTE_TABLE;\n";
    expect(await ruleIdsOf(code, 'shell/src/features/contact/LintFixture.ts')).toContain('import-x/no-restricted-paths');
  });

  it("accepts imports of shared, packages and the feature's own folder", async () => {
    const code = [
      "import { shopAtom } from '@finishline/shared';",
      "import { ExpiredSession } from '@finishline/shared/react';",
      "import { useAtom } from 'jotai';",
      "import { BillSummary } from '../components/BillSummary';",
      'export const parts = [shopAtom, ExpiredSession, useAtom, BillSummary];',
      '',
    ].join('\n');
    expect(await ruleIdsOf(code, IN_CART_FEATURE)).toEqual([]);
  });

  it('lets App.tsx compose features', async () => {
    const code = "import { CartPage } from './features/cart/pages/CartPage';\nexport const page = CartPage;\n";
    expect(await ruleIdsOf(code, 'mfe-storefront/src/LintFixture.tsx')).toEqual([]);
  });
});

describe('local storage only through the storage module', () => {
  it.each([
    ["localStorage.setItem('bibId', '1');"],
    ["export const bib = window.localStorage.getItem('bibId');"],
    ["export const bib = globalThis.localStorage.getItem('bibId');"],
  ])('reports %s in a feature', async (code) => {
    const ids = await ruleIdsOf(`${code}\n`, IN_CART_FEATURE);
    expect(ids.some((id) => id === 'no-restricted-globals' || id === 'no-restricted-properties')).toBe(true);
  });

  it('reports it in shared code outside the storage module too', async () => {
    expect(await ruleIdsOf("export const token = localStorage.getItem('session_token');\n", 'shared/src/api/LintFixture.ts')).toContain(
      'no-restricted-globals',
    );
  });

  it('accepts the storage module', async () => {
    const code = "import { localStore, STORAGE_KEYS } from '@finishline/shared';\nexport const bib = localStore.get(STORAGE_KEYS.bibId);\n";
    expect(await ruleIdsOf(code, IN_CART_FEATURE)).toEqual([]);
  });
});

describe('settings are read only in the API configuration', () => {
  it('reports process.env read in an API feature', async () => {
    const code = 'export const concurrency = Number(process.env.SUPPLY_CONCURRENCY ?? 2);\n';
    expect(await ruleIdsOf(code, 'api/src/features/supply/LintFixture.ts')).toContain('no-restricted-properties');
  });

  it('reports it in the entry points too', async () => {
    expect(await ruleIdsOf("export const engine = process.env['BIB_ENGINE'];\n", 'api/src/LintFixture.ts')).toContain('no-restricted-properties');
  });

  it('accepts the configuration module', async () => {
    expect(await ruleIdsOf("export const level = process.env.LOG_LEVEL ?? 'info';\n", 'api/src/config/config.ts')).toEqual([]);
  });
});

describe('the API roles import only downward: pipeline -> features -> models', () => {
  it('reports a feature importing the pipeline', async () => {
    const code = "import { startSupplyWorker } from '../../pipeline/photos';\nexport const start = startSupplyWorker;\n";
    expect(await ruleIdsOf(code, 'api/src/features/supply/LintFixture.ts')).toContain('api-boundaries/role-layers');
  });

  it('reports a model importing a feature or the pipeline', async () => {
    const feature = "import { queuePhotosForFaces } from '../../features/faces';\nexport const queue = queuePhotosForFaces;\n";
    expect(await ruleIdsOf(feature, 'api/src/models/bibs/LintFixture.ts')).toContain('api-boundaries/role-layers');
    const pipeline = "import { startFaceIndexer } from '../../pipeline/faces';\nexport const start = startFaceIndexer;\n";
    expect(await ruleIdsOf(pipeline, 'api/src/models/faces/LintFixture.ts')).toContain('api-boundaries/role-layers');
  });

  it('accepts the pipeline importing features and models, and a feature importing a model and the queue', async () => {
    const pipeline =
      "import { queuePhotosForFaces } from '../features/faces';\nimport { createBibReader } from '../models/bibs';\nexport const parts = [queuePhotosForFaces, createBibReader];\n";
    expect(await ruleIdsOf(pipeline, 'api/src/pipeline/LintFixture.ts')).toEqual([]);
    const feature =
      "import { faceDetector } from '../../models/faces/detector';\nimport { PHOTO_QUEUE } from '../../queue/queues';\nexport const parts = [faceDetector, PHOTO_QUEUE];\n";
    expect(await ruleIdsOf(feature, 'api/src/features/faces/LintFixture.ts')).toEqual([]);
  });
});

describe('no import cycles in the API', () => {
  // A cycle is found by reading the imported files, so these cases use real files: the fixture folder
  // holds api/src/features/{orders,payment} with index.ts entries, orders calling payment. Linting with
  // the workspace's configuration and that folder as the base puts them where `api/src/**` applies.
  const fixture = `${root}/scripts/lint/fixtures/apiCycle`;
  const fixtureEslint = new ESLint({ cwd: fixture, overrideConfigFile: `${root}/eslint.config.mjs` });
  const PAYMENT_FORM = `${fixture}/api/src/features/payment/paymentForm.ts`;

  async function fixtureRuleIds(code) {
    const [result] = await fixtureEslint.lintText(code, { filePath: PAYMENT_FORM });
    return result.messages.map((message) => message.ruleId);
  }

  it('reports payment importing a value back from orders, which imports payment', async () => {
    const code = "import { placeOrder } from '../orders';\nexport const paymentFormOf = () => placeOrder('R1', 1).form;\n";
    expect(await fixtureRuleIds(code)).toContain('import-x/no-cycle');
  });

  it.each([["import type { PlacedOrder } from '../orders';"], ["import { type PlacedOrder } from '../orders';"]])(
    'accepts a type-only back-import: %s',
    async (line) => {
      const code = `${line}\nexport const paymentFormOf = (order: PlacedOrder) => ({ txnid: order.ref });\n`;
      expect(await fixtureRuleIds(code)).toEqual([]);
    },
  );

  it('finds the fixture as stored free of cycles (payment imports orders for a type only)', async () => {
    const results = await fixtureEslint.lintFiles(['api/src']);
    expect(results).toHaveLength(4);
    expect(results.flatMap((result) => result.messages.map((message) => message.ruleId))).toEqual([]);
  });
});
