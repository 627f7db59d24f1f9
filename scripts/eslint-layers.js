// ESLint plugin that enforces the layer table of docs/architecture.md:
//
// | folder        | may import                                                              |
// |---------------|-------------------------------------------------------------------------|
// | engine/       | nothing outside engine/ (no packages, no Node builtins)                 |
// | engine/cli/   | engine/, Node builtins                                                  |
// | hardware/     | engine/, serialport, Node builtins                                      |
// | hardware/ shared | engine/ only (pure): the hardware facts the screens need too,        |
// |               | e.g. hardware/lineSettings.ts (SHARED_HARDWARE below)                   |
// | protocol/     | engine/, hardware/ shared; type-only imports of hardware/ and           |
// |               | journal/findings (pure: no packages, no Node builtins; what the         |
// |               | programs and renderer/ share)                                           |
// | journal/      | Node builtins only: the one journal codec (grammar, seal, reader);      |
// |               | type-only imports of engine/messages (a finding's reason in keys)       |
// | replay/       | engine/, protocol/, journal/ (pure): records replayed into a session    |
// | net/          | Node builtins only: the HTTP guards both servers use                    |
// | replication/  | journal/, protocol/, pg, Node builtins: the station→floor wire          |
// | station/      | protocol/, engine/, hardware/, journal/, replay/, replication/, Node    |
// |               | builtins: the station's core (never electron, floor/, its adapters)     |
// | station/electron/ | station/, net/ and what station/ may, electron: the Electron adapter |
// | station/web/  | station/, net/ and what station/ may (never electron): browser mode     |
// | floor/        | protocol/, engine/, journal/, replay/, net/, replication/, pg, Node     |
// |               | builtins (never station/, hardware/, electron, serialport, vue)         |
// | renderer/     | protocol/, engine/ (not engine/cli/), vue, pinia, vue-i18n; its tests   |
// |               | (*.test.ts, renderer/testing/) also station/testing/inProcessApi.ts     |
// |               | alone: the real kernel in-process (RENDERER_TEST_HARNESS below); the    |
// |               | screens never import renderer/testing/                                  |
// | system/, e2e/ | everything (tests that run the station and the floor together)          |
//
// Test files (*.test.ts, *.spec.ts) may also import the test tools and Node builtins, but they
// still may not cross into another layer.
//
// Relative specifiers are resolved with path arithmetic only, so the rule works on files that do
// not exist yet (ESLint's lintText) and needs no module resolver.

import { isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root: this file lives in <root>/scripts/. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** @typedef {'engine' | 'engine/cli' | 'protocol' | 'hardware' | 'hardware/shared' | 'journal' | 'replay' | 'net' | 'replication' | 'station' | 'station/electron' | 'station/web' | 'floor' | 'renderer' | 'system' | 'e2e'} Layer */

/**
 * The files of hardware/ that hold facts the screens need as well (through protocol/): pure, like
 * the engine, so protocol/ may import their values while hardware/ keeps them (the layer table
 * stays acyclic: hardware/ never imports protocol/). Repo-relative, without the extension.
 */
export const SHARED_HARDWARE = ['hardware/lineSettings'];

/**
 * @typedef {object} Policy
 * @property {readonly Layer[]} layers folders this layer may import from
 * @property {boolean} node whether Node builtins (fs, node:fs, ...) are allowed
 * @property {'none' | 'any'} packages whether npm packages are allowed at all
 * @property {readonly string[]} deniedPackages packages (or `@scope/*`) never allowed here
 * @property {readonly RegExp[]} typeOnlyFrom repo-relative paths that may be imported with `import type`
 */

/** What the floor and the station's wire to it never load: the console's window, its screens and its serial ports. */
const PROGRAM_DENIED = ['electron', '@electron/*', 'serialport', '@serialport/*', 'vue', 'pinia', 'vue-i18n', '@vue/*', '@intlify/*'];

/** @type {Policy} */
const EVERYTHING = {
  layers: ['engine', 'engine/cli', 'protocol', 'hardware', 'hardware/shared', 'journal', 'replay', 'net', 'replication', 'station', 'station/electron', 'station/web', 'floor', 'renderer', 'system', 'e2e'],
  node: true,
  packages: 'any',
  deniedPackages: [],
  typeOnlyFrom: [],
};

/** @type {Record<Layer, Policy>} */
export const POLICIES = {
  engine: { layers: ['engine'], node: false, packages: 'none', deniedPackages: [], typeOnlyFrom: [] },
  'engine/cli': {
    layers: ['engine', 'engine/cli'],
    node: true,
    packages: 'none',
    deniedPackages: [],
    typeOnlyFrom: [],
  },
  'hardware/shared': { layers: ['hardware/shared', 'engine'], node: false, packages: 'none', deniedPackages: [], typeOnlyFrom: [] },
  protocol: {
    layers: ['protocol', 'engine', 'hardware/shared'],
    node: false,
    packages: 'none',
    deniedPackages: [],
    typeOnlyFrom: [/^hardware\//, /^journal\/findings(?:\.ts)?$/],
  },
  hardware: {
    layers: ['hardware', 'hardware/shared', 'engine'],
    node: true,
    packages: 'any',
    deniedPackages: ['electron', 'vue', 'pinia', 'vue-i18n', '@vue/*', '@intlify/*'],
    typeOnlyFrom: [],
  },
  journal: { layers: ['journal'], node: true, packages: 'none', deniedPackages: [], typeOnlyFrom: [/^engine\/messages(?:\/index|\/message|\/keys)?(?:\.ts)?$/] },
  replay: { layers: ['replay', 'journal', 'protocol', 'engine'], node: false, packages: 'none', deniedPackages: [], typeOnlyFrom: [] },
  net: { layers: ['net'], node: true, packages: 'none', deniedPackages: [], typeOnlyFrom: [] },
  replication: {
    layers: ['replication', 'journal', 'protocol', 'engine'],
    node: true,
    packages: 'any',
    deniedPackages: PROGRAM_DENIED,
    typeOnlyFrom: [],
  },
  // The station's core (service, journal, floor link, the command boundary): Electron-free, so
  // browser mode and the tests run it as the dealer's window does.
  station: {
    layers: ['station', 'protocol', 'engine', 'hardware', 'hardware/shared', 'journal', 'replay', 'replication'],
    node: true,
    packages: 'any',
    deniedPackages: ['electron', '@electron/*', 'vue', 'pinia', 'vue-i18n', '@vue/*', '@intlify/*'],
    typeOnlyFrom: [],
  },
  'station/electron': {
    layers: ['station/electron', 'station', 'protocol', 'engine', 'hardware', 'hardware/shared', 'journal', 'replay', 'net', 'replication'],
    node: true,
    packages: 'any',
    deniedPackages: ['vue', 'pinia', 'vue-i18n', '@vue/*', '@intlify/*'],
    typeOnlyFrom: [],
  },
  'station/web': {
    layers: ['station/web', 'station', 'protocol', 'engine', 'hardware', 'hardware/shared', 'journal', 'replay', 'net', 'replication'],
    node: true,
    packages: 'any',
    deniedPackages: ['electron', '@electron/*', 'vue', 'pinia', 'vue-i18n', '@vue/*', '@intlify/*'],
    typeOnlyFrom: [],
  },
  floor: {
    layers: ['floor', 'protocol', 'engine', 'journal', 'replay', 'net', 'replication'],
    node: true,
    packages: 'any',
    deniedPackages: PROGRAM_DENIED,
    typeOnlyFrom: [],
  },
  renderer: {
    layers: ['renderer', 'protocol', 'engine'],
    node: false,
    packages: 'any',
    deniedPackages: ['electron', 'serialport', '@serialport/*', '@electron/*'],
    typeOnlyFrom: [],
  },
  system: EVERYTHING,
  e2e: EVERYTHING,
};

/** Packages a test file may import in any layer. */
export const TEST_PACKAGES = ['vitest', 'fast-check', '@vue/test-utils', 'happy-dom', '@playwright/test'];

const TEST_FILE = /\.(?:test|spec)\.[cm]?[jt]sx?$/;

/**
 * The one module of station/ the renderer's tests (its *.test.ts files and their helpers in
 * renderer/testing/) may import: the station's real kernel started in-process and offered as the
 * preload's API, so a screen test sees the service's own answers. Nothing else of station/.
 */
export const RENDERER_TEST_HARNESS = /^station\/testing\/inProcessApi(?:\.ts)?$/;

/**
 * The layer a repo-relative path (forward slashes) belongs to, or null outside every layer.
 * @param {string} rel
 * @returns {Layer | null}
 */
export function layerOf(rel) {
  if (rel === 'engine/cli' || rel.startsWith('engine/cli/')) return 'engine/cli';
  if (rel === 'station/electron' || rel.startsWith('station/electron/')) return 'station/electron';
  if (rel === 'station/web' || rel.startsWith('station/web/')) return 'station/web';
  if (SHARED_HARDWARE.includes(rel.replace(/\.[cm]?[jt]s$/, ''))) return 'hardware/shared';
  const top = rel.split('/')[0];
  switch (top) {
    case 'engine':
    case 'protocol':
    case 'hardware':
    case 'journal':
    case 'replay':
    case 'net':
    case 'replication':
    case 'station':
    case 'floor':
    case 'renderer':
    case 'system':
    case 'e2e':
      return top;
    default:
      return null;
  }
}

/**
 * Package name of a bare specifier: `a/b` → `a`, `@s/a/b` → `@s/a`.
 * @param {string} specifier
 */
function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/**
 * @param {string} name
 * @param {readonly string[]} patterns names or `@scope/*`
 */
function matchesPackage(name, patterns) {
  return patterns.some((p) => (p.endsWith('/*') ? name.startsWith(p.slice(0, -1)) : name === p));
}

/**
 * Why importing `specifier` from the repo-relative file `fromRel` breaks the layer table, or null
 * when it is allowed.
 * @param {string} fromRel repo-relative path of the importing file (forward slashes)
 * @param {string} specifier the module specifier as written
 * @param {boolean} typeOnly whether the import is erased at compile time (`import type`)
 * @returns {string | null}
 */
export function violation(fromRel, specifier, typeOnly) {
  const layer = layerOf(fromRel);
  if (layer === null) return null;
  const policy = POLICIES[layer];
  const isTest = TEST_FILE.test(fromRel);
  const spec = specifier.replace(/[?#].*$/, '');

  if (spec.startsWith('.') || spec.startsWith('/')) {
    const base = path.posix.dirname(fromRel);
    const target = spec.startsWith('/')
      ? path.posix.relative(ROOT.split(path.sep).join('/'), spec)
      : path.posix.normalize(path.posix.join(base, spec));
    if (target.startsWith('../') || target === '..') {
      return `${layer}/ may not import '${specifier}': it resolves outside the repository`;
    }
    // The tests' helpers (renderer/testing/) reach the station's kernel: the screens never import them.
    if (layer === 'renderer' && !isTest && !fromRel.startsWith('renderer/testing/') && target.startsWith('renderer/testing/')) {
      return `renderer/ may not import '${specifier}': renderer/testing/ is for the renderer's tests (it reaches station/testing/), not the screens`;
    }
    const targetLayer = layerOf(target);
    if (targetLayer !== null && policy.layers.includes(targetLayer)) return null;
    if (layer === 'renderer' && (isTest || fromRel.startsWith('renderer/testing/')) && RENDERER_TEST_HARNESS.test(target)) return null;
    if (typeOnly && policy.typeOnlyFrom.some((re) => re.test(target))) return null;
    const where = targetLayer === null ? `'${target}' (outside every layer)` : `${targetLayer}/`;
    const allowed = policy.layers.map((l) => `${l}/`).join(', ');
    return `${layer}/ may not import '${specifier}' (${where}); it may import only from ${allowed}`;
  }

  if (isBuiltin(spec)) {
    if (policy.node || isTest) return null;
    return `${layer}/ may not import the Node builtin '${specifier}'${
      layer === 'engine' ? ' (the engine is pure; only engine/cli/ may use Node)' : ''
    }`;
  }

  const name = packageName(spec);
  if (isTest && matchesPackage(name, TEST_PACKAGES)) return null;
  if (policy.packages === 'none') {
    return `${layer}/ may not import the package '${name}': it is pure and imports no package`;
  }
  if (matchesPackage(name, policy.deniedPackages)) {
    return `${layer}/ may not import the package '${name}'`;
  }
  return null;
}

/**
 * @typedef {import('eslint').Rule.RuleModule} RuleModule
 * @typedef {import('eslint').Rule.Node} RuleNode
 */

/** @type {RuleModule} */
const boundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'Enforce the import table between the layers of docs/architecture.md' },
    schema: [],
    messages: { layer: '{{reason}} (layer table: docs/architecture.md)' },
  },
  create(context) {
    const file = context.physicalFilename;
    const rel = path.relative(ROOT, file).split(path.sep).join('/');
    if (rel.startsWith('../') || path.isAbsolute(rel) || layerOf(rel) === null) return {};

    /**
     * @param {RuleNode | import('estree').Node} node
     * @param {unknown} source
     * @param {boolean} typeOnly
     */
    function check(node, source, typeOnly) {
      /** @type {string | undefined} */
      let specifier;
      if (source && typeof source === 'object' && 'type' in source) {
        const s = /** @type {{ type: string, value?: unknown, expressions?: unknown[], quasis?: { value: { cooked?: string | null } }[] }} */ (
          source
        );
        if (s.type === 'Literal' && typeof s.value === 'string') specifier = s.value;
        else if (s.type === 'TemplateLiteral' && s.expressions?.length === 0) {
          specifier = s.quasis?.[0]?.value.cooked ?? undefined;
        }
      }
      if (specifier === undefined) return;
      const reason = violation(rel, specifier, typeOnly);
      if (reason !== null) {
        context.report({ node: /** @type {import('estree').Node} */ (node), messageId: 'layer', data: { reason } });
      }
    }

    /**
     * Whether an import/export declaration is erased by TypeScript.
     * @param {any} node
     */
    function isTypeOnly(node) {
      if (node.importKind === 'type' || node.exportKind === 'type') return true;
      const specifiers = /** @type {any[] | undefined} */ (node.specifiers);
      return (
        Array.isArray(specifiers) &&
        specifiers.length > 0 &&
        specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type')
      );
    }

    return {
      ImportDeclaration(node) {
        check(node, node.source, isTypeOnly(node));
      },
      ExportNamedDeclaration(node) {
        if (node.source) check(node, node.source, isTypeOnly(node));
      },
      ExportAllDeclaration(node) {
        check(node, node.source, isTypeOnly(node));
      },
      ImportExpression(node) {
        check(node, node.source, false);
      },
      CallExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments.length === 1) {
          check(node, node.arguments[0], false);
        }
      },
      /** TypeScript `import x = require('y')`. @param {any} node */
      TSImportEqualsDeclaration(node) {
        if (node.moduleReference?.type === 'TSExternalModuleReference') {
          check(node, node.moduleReference.expression, node.importKind === 'type');
        }
      },
      /** TypeScript `typeof import('y')` in a type position. @param {any} node */
      TSImportType(node) {
        const arg = node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument;
        check(node, arg, true);
      },
    };
  },
};

/** @type {import('eslint').ESLint.Plugin} */
const plugin = {
  meta: { name: 'chip-race-layers', version: '1.0.0' },
  rules: { boundaries },
};

export default plugin;
