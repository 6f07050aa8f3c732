// Generates src/lib/api.gen.ts, the API's TypeScript types, from the OpenAPI
// snapshot the Go tests freeze (shared/httpapi/openapidoc/openapi.json: the document
// the server serves at /api/openapi.json).
//
// The generated file is committed rather than built on the fly: it is then
// there for the editor, vitest and svelte-check with no step first, and an API
// change shows up in review as a change of the types. Drift cannot slip by:
// `--check` (run by `npm run check`, which `make test` and `make lint` run)
// fails unless regenerating gives the committed file byte for byte.
import { readFileSync, writeFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';

const snapshot = new URL('../../shared/httpapi/openapidoc/openapi.json', import.meta.url);
const target = new URL('../src/lib/api.gen.ts', import.meta.url);

const header = `// GENERATED FILE — do not edit. openapi-typescript (the version pinned in
// package.json) made it from shared/httpapi/openapidoc/openapi.json. After an API
// change: go test ./shared/app -run OpenAPISnapshot -update, then
// npm run gen:api (in frontend/). npm run check fails while it is stale.

`;

const ast = await openapiTS(snapshot, {
  // Runtime arrays of every enum (magazineRegionKindValues, ...).
  enumValues: true,
  // minItems = maxItems = 4 makes a bbox the tuple [number, number, number, number].
  arrayLength: true,
  // huma omits fields that only have a schema default (ErrorModel.type): optional.
  defaultNonNullable: false,
  silent: true,
});
const generated = header + astToString(ast);

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(target, 'utf8');
  } catch {
    // missing: reported below as stale
  }
  if (committed !== generated) {
    console.error('src/lib/api.gen.ts is not what shared/httpapi/openapidoc/openapi.json generates: run npm run gen:api');
    process.exit(1);
  }
} else {
  writeFileSync(target, generated);
}
