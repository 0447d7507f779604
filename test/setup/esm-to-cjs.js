// Jest transform for the packages published only as ES modules (see jest.config.js). Node itself loads
// them from CommonJS with require(esm); Jest's module loader cannot, so each file is compiled to CommonJS
// here, `import()` becomes `require()`, and `import.meta` is given the values it has when Node loads the file as a module.
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const { transformSync, version } = require('esbuild');

const IMPORT_META = {
  'import.meta.url': '__importMetaUrl',
  'import.meta.dirname': '__dirname',
  'import.meta.filename': '__filename',
  'import.meta.resolve': '__importMetaResolve',
};
const PRELUDE =
  "var __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" +
  "var __importMetaResolve = (specifier) => require('node:url').pathToFileURL(require.resolve(specifier)).href;";

// A change to this file invalidates what Jest cached of its earlier output.
const SELF = readFileSync(__filename);

module.exports = {
  getCacheKey(source, path) {
    return createHash('sha256').update(version).update(SELF).update(path).update(source).digest('hex');
  },
  process(source, path) {
    const { code, map } = transformSync(source, {
      loader: 'js',
      format: 'cjs',
      target: 'node20',
      platform: 'node',
      sourcefile: path,
      sourcemap: 'inline',
      define: IMPORT_META,
      // import() inside Jest's loader needs --experimental-vm-modules; as require() it needs nothing.
      supported: { 'dynamic-import': false },
      banner: PRELUDE,
      logLevel: 'silent',
    });
    return { code, map };
  },
};
