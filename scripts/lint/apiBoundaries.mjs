// ESLint rules for the API's layering (docs/architecture.md, "The API's layers").
// feature-imports: a file in api/src/features/<a>/ imports its own folder, another feature only
// through that feature's public `index.ts`, and the cross-feature rules in api/src/rules/; a file in
// api/src/rules/ imports no feature.
// role-layers: the roles stack pipeline -> features -> models: a feature never imports the pipeline
// (it sends jobs through api/src/queue/), and models/ (the BIB reader, the face detector, their child
// processes) imports neither features nor the pipeline; the queue imports neither either.
// The import is resolved against the file's folder, so every spelling of a path ('../b/x',
// '../../features/b/x', a nested folder) is judged by where it lands.
import path from 'node:path';

/** Where a file sits in the API: its source root, and the feature it belongs to or 'rules'. */
function placeOf(filename) {
  const match = /^(.*\/api\/src)\/(?:features\/([^/]+)\/|(rules)\/)/.exec(filename.split(path.sep).join('/'));
  if (!match) return null;
  return { sourceRoot: match[1], feature: match[2] ?? null, isRule: Boolean(match[3]) };
}

/** The feature an import lands in and the module inside it ('' for the folder itself), or null. */
function featureTarget(sourceRoot, fromFile, specifier) {
  const resolved = path.posix.resolve(path.posix.dirname(fromFile), specifier);
  const inSource = path.posix.relative(sourceRoot, resolved);
  const match = /^features\/([^/]+)(?:\/(.*))?$/.exec(inSource);
  if (!match) return null;
  return { feature: match[1], module: (match[2] ?? '').replace(/\.(ts|js|mjs)$/, '') };
}

const featureImports = {
  meta: {
    type: 'problem',
    docs: { description: "API features import each other only through the other feature's index.ts; rules import no feature." },
    schema: [],
    messages: {
      internal:
        "'{{specifier}}' reaches into the {{feature}} feature. Import what it offers from '{{entry}}' (its index.ts), or move a rule both features need to api/src/rules/.",
      ruleImportsFeature: "api/src/rules/ holds rules every feature may use, so it imports no feature ('{{specifier}}').",
    },
  },
  create(context) {
    const place = placeOf(context.filename);
    if (!place) return {};
    const fromFile = context.filename.split(path.sep).join('/');

    function check(node, source) {
      if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const target = featureTarget(place.sourceRoot, fromFile, source.value);
      // Not in a feature folder: the registry features/index.ts, http, db, rules, shared ...
      if (!target || target.feature === 'index.ts' || target.feature === 'index') return;
      if (place.isRule) {
        context.report({ node: source, messageId: 'ruleImportsFeature', data: { specifier: source.value } });
        return;
      }
      if (target.feature === place.feature) return;
      if (target.module === '' || target.module === 'index') return;
      const entry = path.posix.relative(path.posix.dirname(fromFile), `${place.sourceRoot}/features/${target.feature}`);
      context.report({ node: source, messageId: 'internal', data: { specifier: source.value, feature: target.feature, entry } });
    }

    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source.type === 'Literal' ? node.source : null),
    };
  },
};

/** The top folder of api/src a path lies in ('features', 'pipeline', 'models', ...), or null outside it. */
function layerOf(sourceRoot, file) {
  const inSource = path.posix.relative(sourceRoot, file);
  if (inSource.startsWith('..')) return null;
  return inSource.split('/')[0];
}

/** What each layer may not import, and why. */
const FORBIDDEN = {
  features: { pipeline: 'features answer HTTP and never import the pipeline: send a job through api/src/queue/queues.ts' },
  models: {
    features: 'models/ (the BIB reader, the face detector) imports no feature: pass what it needs in',
    pipeline: 'models/ (the BIB reader, the face detector) imports no pipeline code',
  },
  queue: { features: 'the queue imports no feature', pipeline: 'the queue imports no pipeline code' },
};

const roleLayers = {
  meta: {
    type: 'problem',
    docs: { description: 'The API roles import only downward: pipeline -> features -> models.' },
    schema: [],
    messages: { upward: "'{{specifier}}': {{why}} (docs/architecture.md)." },
  },
  create(context) {
    const fromFile = context.filename.split(path.sep).join('/');
    const match = /^(.*\/api\/src)\//.exec(fromFile);
    if (!match) return {};
    const sourceRoot = match[1];
    const forbidden = FORBIDDEN[layerOf(sourceRoot, fromFile)];
    if (!forbidden) return {};
    function check(node, source) {
      if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const target = layerOf(sourceRoot, path.posix.resolve(path.posix.dirname(fromFile), source.value));
      const why = target && forbidden[target];
      if (why) context.report({ node: source, messageId: 'upward', data: { specifier: source.value, why } });
    }
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source.type === 'Literal' ? node.source : null),
    };
  },
};

export const apiBoundaries = { meta: { name: 'api-boundaries' }, rules: { 'feature-imports': featureImports, 'role-layers': roleLayers } };
