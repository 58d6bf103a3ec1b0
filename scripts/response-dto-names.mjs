// Names of the contracts' response schemas (DTOs), for the web's lint rule "response types come from src/api"
// (docs/conventions.md, „DTO types in the web“). Derived, not listed by hand, so a new response schema is covered
// after `npm run gen:api`:
// 1. the generated OpenAPI document names every schema the API uses; a schema reached from a response and not
//    from a request (parameters, body; zod's input variant is named `<id>Input`) is a response DTO;
// 2. the contracts give each such schema its id with `.meta({ id })`; the exported name is usually the id, but not
//    always (`Favourite` is `FavoriteProduct`), so the `export const <Name> = … .meta({ id: '<Id>' })` pairs are read
//    from packages/contracts/src.
import fs from 'node:fs';
import path from 'node:path';

/** Every `$ref` target name below a node of the OpenAPI document. */
function refsIn(node, out = new Set()) {
  if (Array.isArray(node)) for (const n of node) refsIn(n, out);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.add(value.split('/').pop());
      else refsIn(value, out);
    }
  }
  return out;
}

/** Schema ids that only responses use. */
export function responseSchemaIds(openapi) {
  const schemas = openapi.components?.schemas ?? {};
  const closure = (names) => {
    const seen = new Set();
    const stack = [...names];
    while (stack.length) {
      const name = stack.pop();
      if (seen.has(name)) continue;
      seen.add(name);
      stack.push(...refsIn(schemas[name]));
    }
    return seen;
  };
  const responses = new Set();
  const requests = new Set();
  for (const item of Object.values(openapi.paths ?? {})) {
    for (const operation of Object.values(item)) {
      if (!operation || typeof operation !== 'object') continue;
      refsIn(operation.responses, responses);
      refsIn(operation.requestBody, requests);
      refsIn(operation.parameters, requests);
    }
  }
  const answered = closure(responses);
  const asked = closure(requests);
  return [...answered].filter((id) => !asked.has(id) && !asked.has(`${id}Input`)).sort();
}

/** Exported constant name of each `.meta({ id })` in the given source texts (id → name). */
export function exportNamesByMetaId(sources) {
  const names = new Map();
  for (const source of sources) {
    const meta = /\.meta\(\{\s*id:\s*['"]([A-Za-z0-9_]+)['"]/g;
    for (let m = meta.exec(source); m; m = meta.exec(source)) {
      const before = source.slice(0, m.index);
      const declaration = /export const ([A-Za-z0-9_]+)\b/g;
      let name = null;
      for (let d = declaration.exec(before); d; d = declaration.exec(before)) name = d[1];
      if (name) names.set(m[1], name);
    }
  }
  return names;
}

function sourcesBelow(dir) {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => fs.readFileSync(path.join(e.parentPath, e.name), 'utf8'));
}

/** The names a web feature must not import from `@shk/contracts`: response DTOs (ids and their export names). */
export function responseDtoNames(root) {
  const openapi = JSON.parse(fs.readFileSync(path.join(root, 'apps/web/src/api/openapi.json'), 'utf8'));
  const exportNames = exportNamesByMetaId(sourcesBelow(path.join(root, 'packages/contracts/src')));
  const names = new Set();
  for (const id of responseSchemaIds(openapi)) {
    names.add(id);
    if (exportNames.has(id)) names.add(exportNames.get(id));
  }
  return [...names].sort();
}
