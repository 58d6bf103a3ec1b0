import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import postcss, { type AtRule } from 'postcss';
import type { Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';
import {
  checkBundle,
  CORE_GLOBALS,
  layerOrder,
  layersIn,
  readCoreStyles,
  stylesheetFor,
  stylesImportOf,
} from './mantine-css-per-component.ts';

const require = createRequire(import.meta.url);
const coreDir = path.dirname(require.resolve('@mantine/core/styles.layer.css'));
const core = readCoreStyles();

/** The top-level nodes of a stylesheet's layer blocks as text, comments dropped, per layer name. */
function rulesByLayer(css: string): Map<string, string[]> {
  const root = postcss.parse(css);
  root.walkComments((comment) => {
    comment.remove();
  });
  const layers = new Map<string, string[]>();
  for (const node of root.nodes) {
    if (node.type !== 'atrule' || node.name !== 'layer' || !(node as AtRule).nodes) continue;
    layers.set(node.params, [...(layers.get(node.params) ?? []), ...(node as AtRule).nodes!.map(String)]);
  }
  return layers;
}

const fullRules = rulesByLayer(fs.readFileSync(path.join(coreDir, 'styles.layer.css'), 'utf8')).get('mantine')!;
const stylesheetOf = (name: string) => stylesheetFor(path.join(coreDir, 'styles', `${name}.layer.css`), core)!;

describe('Mantine core styles per component', () => {
  it('are the rules of the full styles.layer.css (rem values), each file its own part, all parts in order', () => {
    const all: string[] = [];
    for (const name of core.order) {
      const layers = rulesByLayer(stylesheetOf(name));
      expect([...layers.keys()], name).toEqual([`mantine.${name}`]);
      all.push(...layers.get(`mantine.${name}`)!);
    }
    expect(all).toEqual(fullRules);
    expect(core.order.length).toBe(
      fs.readdirSync(path.join(coreDir, 'styles')).filter((f) => f.endsWith('.layer.css')).length,
    );
  });

  it('differ from Mantine’s per-component files where those carry px instead of rem', () => {
    const pxFile = fs.readFileSync(path.join(coreDir, 'styles', 'ScrollArea.layer.css'), 'utf8');
    expect(rulesByLayer(pxFile).get('mantine')!.join('\n')).toContain('--scrollarea-scrollbar-size: 12px');
    const ours = rulesByLayer(stylesheetOf('ScrollArea')).get('mantine.ScrollArea')!.join('\n');
    expect(ours).toContain('--scrollarea-scrollbar-size: calc(0.75rem * var(--mantine-scale))');
    expect(ours).not.toContain('12px');
    // Of every component whose file differs from the full file's part, ours is the full file's part.
    let differing = 0;
    for (const name of core.order) {
      const px = rulesByLayer(fs.readFileSync(path.join(coreDir, 'styles', `${name}.layer.css`), 'utf8')).get(
        'mantine',
      )!;
      const mine = rulesByLayer(stylesheetOf(name)).get(`mantine.${name}`)!;
      if (px.join() !== mine.join()) differing++;
    }
    expect(differing).toBeGreaterThan(20);
  });

  it('declares every Mantine sublayer in the first stylesheet (baseline), in the full file’s order', () => {
    expect(core.order.slice(0, 3)).toEqual(['baseline', 'global', 'default-css-variables']);
    expect(CORE_GLOBALS.every((name) => core.order.includes(name))).toBe(true);
    const baseline = stylesheetOf('baseline');
    expect(layersIn(baseline)).toEqual(layerOrder(core).map((name) => `mantine.${name}`));
    expect(layerOrder(core).slice(-5)).toEqual(['carousel', 'notifications', 'dates', 'dropzone', 'charts']);
  });

  it('serves the other packages whole, in their own sublayer, with their rules unchanged', () => {
    const file = require.resolve('@mantine/dates/styles.layer.css');
    const ours = rulesByLayer(stylesheetFor(file, core)!);
    expect([...ours.keys()]).toEqual(['mantine.dates']);
    expect(ours.get('mantine.dates')).toEqual(rulesByLayer(fs.readFileSync(file, 'utf8')).get('mantine'));
    expect(() => stylesheetFor(require.resolve('@mantine/core/styles.layer.css'), core)).toThrow(/by hand/);
    expect(stylesheetFor('/work/app/src/ui/global.css', core)).toBeUndefined();
    expect(() => stylesheetFor(require.resolve('@mantine/charts/styles.css'), core)).toThrow(/unlayered/);
    expect(() => stylesheetFor(path.join(coreDir, 'styles', 'Button.css'), core)).toThrow(/unlayered/);
  });
});

describe('class-name modules', () => {
  const esm = path.join(coreDir, 'esm', 'components');
  it('import their component’s stylesheet (core) or their package’s (the others)', () => {
    expect(stylesImportOf(path.join(esm, 'Button', 'Button.module.mjs'))).toBe('@mantine/core/styles/Button.layer.css');
    expect(stylesImportOf('/x/node_modules/@mantine/dates/esm/components/Day/Day.module.mjs')).toBe(
      '@mantine/dates/styles.layer.css',
    );
    expect(stylesImportOf(path.join(esm, 'Button', 'Button.mjs'))).toBeUndefined();
    expect(() => stylesImportOf('/x/node_modules/@mantine/spotlight/esm/Spotlight.module.mjs')).toThrow(
      /WHOLE_PACKAGES/,
    );
  });

  it('of every core component have a stylesheet', () => {
    const modules = fs
      .readdirSync(path.join(coreDir, 'esm'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.module.mjs'));
    expect(modules.length).toBeGreaterThan(90);
    for (const module of modules) {
      const cssImport = stylesImportOf(path.join(coreDir, 'esm', module))!;
      expect(stylesheetFor(path.join(coreDir, cssImport.slice('@mantine/core/'.length)), core)).toBeTruthy();
    }
  });
});

describe('checkBundle', () => {
  const button = `${coreDir}/esm/components/Button/Button.module.mjs`;
  const order = layerOrder(core);
  const first = `@layer ${order.map((name) => `mantine.${name}`).join(',')};@layer mantine.baseline{a{b:c}}`;
  const chunk = (fileName: string, moduleIds: string[], css: string[], imports: string[] = [], isEntry = false) =>
    ({
      type: 'chunk',
      fileName,
      moduleIds,
      imports,
      isEntry,
      viteMetadata: { importedCss: new Set(css), importedAssets: new Set() },
    }) as unknown as Rolldown.OutputChunk;
  const asset = (fileName: string, source: string) =>
    ({ type: 'asset', fileName, source }) as unknown as Rolldown.OutputAsset;
  const bundle = (...outputs: (Rolldown.OutputChunk | Rolldown.OutputAsset)[]) =>
    Object.fromEntries(outputs.map((output) => [output.fileName, output])) as Rolldown.OutputBundle;

  it('accepts a component whose styles its chunk or a statically imported chunk loads', () => {
    const css = asset('common.css', '@layer mantine.Button{.m_77c9d27d{a:b}}');
    const built = bundle(
      chunk('index.js', [], ['index.css'], [], true),
      asset('index.css', first),
      chunk('common.js', [], ['common.css']),
      css,
      chunk('page.js', [button], [], ['common.js']),
    );
    expect(checkBundle(built, order)).toEqual([]);
  });

  it('reports a component without its styles, rules outside a sublayer and a missing layer order', () => {
    const built = bundle(
      chunk('index.js', [], ['index.css'], [], true),
      asset('index.css', '@layer mantine.baseline{a{b:c}}'),
      chunk('page.js', [button], ['page.css']),
      asset('page.css', '@layer mantine{.m_77c9d27d{a:b}}@layer mantine.Other{x{y:z}}'),
    );
    expect(checkBundle(built, order).sort()).toEqual([
      'index.js: its first stylesheet does not start with the order of the Mantine layers',
      'page.css: Mantine rules outside a sublayer',
      'page.css: undeclared layers mantine, mantine.Other',
      'page.js: Button.module.mjs without its styles (@mantine/core/styles/Button.layer.css)',
    ]);
  });
});
