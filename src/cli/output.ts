/** How the CLI prints: JSON with --json, otherwise a readable object or table. */
export type Printable = { kind: 'object'; value: object; text?: string } | { kind: 'table'; value: object[] };

const cell = (v: unknown): string => (v instanceof Date ? v.toISOString() : v === null || v === undefined ? '-' : String(v));

export function printResult(result: Printable, json: boolean): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(result.value)}\n`);
    return;
  }
  if (result.kind === 'object') {
    process.stdout.write(`${result.text ?? JSON.stringify(result.value, null, 2)}\n`);
    return;
  }
  if (result.value.length === 0) {
    process.stdout.write('(none)\n');
    return;
  }
  const columns = Object.keys(result.value[0]);
  const rows = result.value.map((r) => columns.map((c) => cell((r as Record<string, unknown>)[c])));
  const widths = columns.map((c, i) => Math.max(c.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  process.stdout.write(`${[line(columns), ...rows.map(line)].join('\n')}\n`);
}
