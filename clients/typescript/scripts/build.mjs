// Compile src/ to dist/. tsc emits no .d.ts for a .d.ts input, so the generated schema is copied
// beside the declarations that import it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(dir, 'tsconfig.json')], { stdio: 'inherit', cwd: dir });
fs.copyFileSync(path.join(dir, 'src', 'schema.d.ts'), path.join(dir, 'dist', 'schema.d.ts'));
