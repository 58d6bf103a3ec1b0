import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import postcss, { type AtRule, type ChildNode } from 'postcss';
import type { Plugin, Rolldown } from 'vite';

const require = createRequire(import.meta.url);

/**
 * Mantine packages whose CSS comes as one file (`@mantine/<name>/styles.layer.css`), loaded with the first of the
 * package's components that the build uses; in this order after @mantine/core (Mantine's documented import order).
 */
export const WHOLE_PACKAGES = ['carousel', 'notifications', 'dates', 'dropzone', 'charts'] as const;
/** @mantine/core's global styles (no component): the first stylesheet (`shell-styles.ts`) imports them. */
export const CORE_GLOBALS = ['baseline', 'default-css-variables', 'global'] as const;

/** The cascade layer of one Mantine stylesheet: a sublayer of `mantine`, e.g. `mantine.Button`. */
const layerOf = (name: string) => `mantine.${name}`;

const packageDir = (name: string) => path.dirname(require.resolve(`@mantine/${name}/styles.layer.css`));

/** A node's identity within a stylesheet: rules by selector, at-rules by name, parameters and content. */
function keyOf(node: ChildNode): string {
  if (node.type === 'rule') return `R:${node.selector}`;
  if (node.type === 'atrule') return `A:${node.name} ${node.params}{${(node.nodes ?? []).map(keyOf).join('|')}}`;
  if (node.type === 'decl') return `D:${node.prop}`;
  return 'C';
}

/** The top-level nodes inside the single `@layer mantine { … }` of a Mantine stylesheet, comments dropped. */
function layerContent(css: string, file: string): ChildNode[] {
  const root = postcss.parse(css, { from: file });
  root.walkComments((comment) => {
    comment.remove();
  });
  const [layer, ...rest] = root.nodes;
  if (rest.length > 0 || layer?.type !== 'atrule' || layer.name !== 'layer' || layer.params !== 'mantine') {
    throw new Error(`${file}: expected a single "@layer mantine { … }"`);
  }
  return (layer as AtRule).nodes ?? [];
}

export interface CoreStyles {
  /** Stylesheet names (`baseline`, …, `Button`, …) in the order of Mantine's full `styles.layer.css`. */
  order: string[];
  /** Per name: its rules as they are in `styles.layer.css` (the rem values), in that file's order. */
  rules: Map<string, ChildNode[]>;
}

/**
 * @mantine/core's full `styles.layer.css`, cut into its per-component stylesheets. Mantine builds the full file by
 * concatenating the per-component files, but in 9.x those (`styles/<Name>.layer.css`) carry px values where the full
 * file has `calc(<rem> * var(--mantine-scale))`. Here each per-component file only marks where its part of the full
 * file lies (the same selectors in the same order, found as one contiguous run); the rules themselves are the full
 * file's. Throws if the full file is not exactly the concatenation of the per-component files.
 */
export function readCoreStyles(dir = packageDir('core')): CoreStyles {
  const fullFile = path.join(dir, 'styles.layer.css');
  const full = layerContent(fs.readFileSync(fullFile, 'utf8'), fullFile);
  const fullKeys = full.map(keyOf);
  const parts: { name: string; start: number; length: number }[] = [];
  for (const file of fs.readdirSync(path.join(dir, 'styles'))) {
    if (!file.endsWith('.layer.css')) continue;
    const partFile = path.join(dir, 'styles', file);
    const keys = layerContent(fs.readFileSync(partFile, 'utf8'), partFile).map(keyOf);
    const starts: number[] = [];
    for (let start = 0; start + keys.length <= fullKeys.length; start++) {
      if (keys.every((key, i) => fullKeys[start + i] === key)) starts.push(start);
    }
    if (starts.length !== 1) throw new Error(`${partFile}: found ${starts.length} times in ${fullFile}`);
    parts.push({ name: file.slice(0, -'.layer.css'.length), start: starts[0], length: keys.length });
  }
  parts.sort((a, b) => a.start - b.start);
  let next = 0;
  for (const part of parts) {
    if (part.start !== next) throw new Error(`${fullFile}: rules ${next}–${part.start} belong to no component`);
    next = part.start + part.length;
  }
  if (next !== full.length) throw new Error(`${fullFile}: rules from ${next} on belong to no component`);
  return {
    order: parts.map((part) => part.name),
    rules: new Map(parts.map((part) => [part.name, full.slice(part.start, part.start + part.length)])),
  };
}

/** Rules as the content of one sublayer: `@layer mantine.<name> { … }`. */
const inLayer = (name: string, nodes: ChildNode[]) =>
  `@layer ${layerOf(name)} {\n${nodes.map((node) => node.toString()).join('\n\n')}\n}\n`;

/** Every Mantine sublayer in cascade order: core's global styles and components, then the other packages. */
export const layerOrder = (core: CoreStyles) => [...core.order, ...WHOLE_PACKAGES];

/**
 * The stylesheet the plugin serves for a Mantine CSS file (`@mantine/core/styles/<Name>.layer.css` or
 * `@mantine/<package>/styles.layer.css`), or undefined for any other file. `baseline` (the first Mantine stylesheet
 * of the page) starts with the order of all sublayers, so the cascade is that of Mantine's full file whichever chunk's
 * CSS arrives first; with `everything` (the dev server, whose pre-bundled Mantine cannot be followed per component) it
 * also carries all other Mantine styles.
 */
export function stylesheetFor(id: string, core: CoreStyles, everything = false): string | undefined {
  const file = id.split('?')[0].replaceAll('\\', '/');
  const component = /\/node_modules\/@mantine\/core\/styles\/([^/]+)\.layer\.css$/.exec(file)?.[1];
  if (component) {
    const rules = core.rules.get(component);
    if (!rules) throw new Error(`No rules of ${component} in @mantine/core/styles.layer.css`);
    if (component !== 'baseline') return inLayer(component, rules);
    const order = `@layer ${layerOrder(core).map(layerOf).join(', ')};\n`;
    if (!everything) return order + inLayer(component, rules);
    const rest = [...core.rules].map(([name, nodes]) => inLayer(name, nodes));
    return order + rest.join('') + WHOLE_PACKAGES.map((name) => wholePackage(name)).join('');
  }
  if (/\/node_modules\/@mantine\/[^/]+\/styles(\/[^/]+)?\.css$/.test(file) && !file.endsWith('.layer.css')) {
    // Unlayered, it would win over the app's own styles and every sublayer.
    throw new Error(`${file}: import no unlayered Mantine CSS (the plugin adds each component's styles)`);
  }
  const name = /\/node_modules\/@mantine\/([^/]+)\/styles\.layer\.css$/.exec(file)?.[1];
  if (name === 'core')
    throw new Error('@mantine/core/styles.layer.css: import no Mantine CSS by hand (see shell-styles.ts)');
  if (name) return wholePackage(name);
  return undefined;
}

function wholePackage(name: string): string {
  if (!(WHOLE_PACKAGES as readonly string[]).includes(name)) {
    throw new Error(`@mantine/${name}: add it to WHOLE_PACKAGES in mantine-css-per-component.ts`);
  }
  const file = path.join(packageDir(name), 'styles.layer.css');
  return inLayer(name, layerContent(fs.readFileSync(file, 'utf8'), file));
}

/**
 * The import that brings a Mantine class-name module's styles (`@mantine/<package>/esm/…/<Name>.module.mjs`, the
 * `classes` object of a component): the component's stylesheet for @mantine/core, the package's for the others.
 */
export function stylesImportOf(id: string): string | undefined {
  const match = /\/node_modules\/@mantine\/([^/]+)\/esm\/(?:.*\/)?([^/]+)\.module\.mjs$/.exec(
    id.split('?')[0].replaceAll('\\', '/'),
  );
  if (!match) return undefined;
  const [, name, component] = match;
  if (name === 'core') return `@mantine/core/styles/${component}.layer.css`;
  if (!(WHOLE_PACKAGES as readonly string[]).includes(name)) {
    throw new Error(`@mantine/${name}: add it to WHOLE_PACKAGES in mantine-css-per-component.ts`);
  }
  return `@mantine/${name}/styles.layer.css`;
}

/** The Mantine sublayer a class-name module needs (`Button`, `dates`, …). */
const layerNameOfImport = (cssImport: string) =>
  /@mantine\/core\/styles\/([^/]+)\.layer\.css$/.exec(cssImport)?.[1] ?? /@mantine\/([^/]+)\//.exec(cssImport)![1];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The cascade layers a stylesheet names, in the order of their first appearance (statements and blocks). */
export function layersIn(css: string): string[] {
  const names = new Set<string>();
  for (const match of css.matchAll(/@layer\s+([^{;]+)[{;]/g)) {
    for (const name of match[1].split(',')) names.add(name.trim());
  }
  return [...names];
}

/**
 * Checks a finished build: every chunk that contains a Mantine class-name module loads (its own CSS or that of a
 * chunk it imports statically) a stylesheet with that component's sublayer; no Mantine rule sits outside a sublayer
 * (it would win over all of them); and the entry's first stylesheet names all sublayers in Mantine's order before
 * anything else (the minifier may turn the order statement into several, merged with the blocks: the order of first
 * appearance is what the cascade uses). Returns the problems found (empty: all well).
 */
export function checkBundle(bundle: Rolldown.OutputBundle, order: string[]): string[] {
  const problems: string[] = [];
  const expected = order.map(layerOf);
  const css = new Map<string, string>();
  for (const output of Object.values(bundle)) {
    if (output.type === 'asset' && output.fileName.endsWith('.css')) css.set(output.fileName, String(output.source));
  }
  for (const [fileName, source] of css) {
    if (/@layer\s+mantine\s*\{/.test(source)) problems.push(`${fileName}: Mantine rules outside a sublayer`);
    const unknown = layersIn(source).filter((name) => name.startsWith('mantine') && !expected.includes(name));
    if (unknown.length > 0) problems.push(`${fileName}: undeclared layers ${unknown.join(', ')}`);
  }
  const chunks = new Map(
    Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [[output.fileName, output] as const] : [])),
  );
  const cssOf = (fileName: string) => [...(chunks.get(fileName)?.viteMetadata?.importedCss ?? [])];
  for (const chunk of chunks.values()) {
    const loaded = new Set<string>();
    const visit = (fileName: string) => {
      if (loaded.has(fileName)) return;
      loaded.add(fileName);
      for (const next of chunks.get(fileName)?.imports ?? []) visit(next);
    };
    visit(chunk.fileName);
    const sheets = [...loaded].flatMap(cssOf).map((fileName) => css.get(fileName) ?? '');
    for (const id of chunk.moduleIds) {
      const cssImport = stylesImportOf(id);
      if (!cssImport) continue;
      const layer = new RegExp(`@layer\\s+${escapeRegExp(layerOf(layerNameOfImport(cssImport)))}\\s*\\{`);
      if (!sheets.some((sheet) => layer.test(sheet))) {
        problems.push(`${chunk.fileName}: ${path.basename(id)} without its styles (${cssImport})`);
      }
    }
    if (chunk.isEntry) {
      const first = layersIn(css.get(cssOf(chunk.fileName)[0] ?? '') ?? '');
      if (first.slice(0, expected.length).join() !== expected.join()) {
        problems.push(`${chunk.fileName}: its first stylesheet does not start with the order of the Mantine layers`);
      }
    }
  }
  return problems;
}

/**
 * Mantine's CSS follows its components: each class-name module of a Mantine component that the build includes
 * imports that component's stylesheet (for @mantine/core: the component's part of the full `styles.layer.css`, with
 * its rem values; for the other packages: the package's `styles.layer.css`), so Vite puts the CSS into the chunk that
 * carries the component's code: the first page loads the CSS of the components it uses, not all of Mantine's.
 * Each stylesheet is a sublayer of `mantine` (`@layer mantine.Button`), declared in the order of Mantine's full file
 * by the first stylesheet, so the cascade does not depend on which chunk loads first, and the app's own (unlayered)
 * styles win as before. The build fails if a chunk lacks a component's styles (`checkBundle`).
 */
export function mantineCssPerComponent(): Plugin {
  let core: CoreStyles | undefined;
  let serve = false;
  return {
    name: 'shk-mantine-css-per-component',
    enforce: 'pre',
    configResolved(config) {
      serve = config.command === 'serve';
    },
    load(id) {
      if (!id.includes('@mantine')) return undefined;
      core ??= readCoreStyles();
      return stylesheetFor(id, core, serve);
    },
    transform(code, id) {
      // The dev server pre-bundles Mantine (no per-module transform); there `baseline` carries all styles.
      if (serve || !id.includes('@mantine')) return undefined;
      const cssImport = stylesImportOf(id);
      if (!cssImport) return undefined;
      // Appended: imports are hoisted, and the existing lines (and their source map) stay where they are.
      return { code: `${code}\nimport ${JSON.stringify(cssImport)};\n`, map: null };
    },
    writeBundle(_options, bundle) {
      core ??= readCoreStyles();
      const problems = checkBundle(bundle, layerOrder(core));
      if (problems.length > 0) this.error(`Mantine styles per component:\n${problems.join('\n')}`);
    },
  };
}
