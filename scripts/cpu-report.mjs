// Reads `npm run test:cpu`'s lines (CPU_OUT or its default) and prints the CPU per folder and the
// files that cost most: `node scripts/cpu-report.mjs [file.jsonl] [top]`.
import fs from 'node:fs';

const file = process.argv[2] ?? process.env.CPU_OUT ?? '/tmp/shotgen-cpu-per-file.jsonl';
const top = Number(process.argv[3] ?? 25);
const rows = fs
  .readFileSync(file, 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line))
  .map((r) => ({ ...r, name: r.file.split('/test/').pop(), cpu: r.fork + r.children }));
const sum = (rs) => rs.reduce((a, r) => a + r.cpu, 0);
console.log(
  `${rows.length} files, ${sum(rows).toFixed(0)} CPU-s (forks ${rows.reduce((a, r) => a + r.fork, 0).toFixed(0)}, children ${rows.reduce((a, r) => a + r.children, 0).toFixed(0)})`,
);
const folders = new Map();
for (const r of rows) {
  const folder = r.name.includes('/') ? r.name.split('/')[0] : '.';
  folders.set(folder, [...(folders.get(folder) ?? []), r]);
}
for (const [folder, rs] of [...folders].sort((a, b) => sum(b[1]) - sum(a[1])))
  console.log(`${folder.padEnd(14)} ${sum(rs).toFixed(1).padStart(7)}`);
console.log();
for (const r of rows.sort((a, b) => b.cpu - a.cpu).slice(0, top))
  console.log(
    `${r.name.padEnd(52)} wall ${r.wall.toFixed(1).padStart(6)}  fork ${r.fork.toFixed(1).padStart(6)}  children ${r.children.toFixed(1).padStart(6)}`,
  );
