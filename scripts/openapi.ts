/** npm run openapi: write the served OpenAPI document (default BASE_PATH) to openapi.json. */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { openapiDocument, openapiText } from '../src/http/openapi-document.ts';

const target = fileURLToPath(new URL('../openapi.json', import.meta.url));
await writeFile(target, openapiText(await openapiDocument()));
console.log(`wrote ${target}`);
