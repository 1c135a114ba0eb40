// ESLint rule for the API's layering (docs/architecture.md, "The API's layers"). A file in
// api/src/features/<a>/ imports its own folder, another feature only through that feature's public
// `index.ts`, and the cross-feature rules in api/src/rules/; a file in api/src/rules/ imports no
// feature. The import is resolved against the file's folder, so every spelling of a path
// ('../b/x', '../../features/b/x', a nested folder) is judged by where it lands.
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

export const apiBoundaries = { meta: { name: 'api-boundaries' }, rules: { 'feature-imports': featureImports } };
