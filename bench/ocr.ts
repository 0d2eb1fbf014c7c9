/**
 * `npx tsx bench/ocr.ts`: OCR CPU per screen on the reading thread (src/screens/ocr-worker.ts),
 * against the budget of 1 s a screen. Five 1290×2796 app screens drawn with the renderer's
 * fonts; the figure is the process's CPU (the ONNX thread included) per screen after a warm-up.
 */
import read from '../src/screens/ocr-worker.ts';
import { appScreenPng } from '../test/support/app-screens.ts';

const screens = ['Budgets', 'Receipts', 'Goals', 'Reports', 'Bills'].map((title) =>
  appScreenPng({ title, rows: ['Groceries $420 of $500', 'Rent $1,200', 'Dining out $85 left'] }),
);
await read(screens[0]); // loads the models (~0.3 s CPU once per thread)
const start = process.cpuUsage();
const t0 = performance.now();
for (const s of screens) await read(s);
const cpu = process.cpuUsage(start);
const perScreen = (cpu.user + cpu.system) / 1000 / screens.length;
console.log(
  `OCR CPU per screen: ${perScreen.toFixed(0)} ms (wall ${((performance.now() - t0) / screens.length).toFixed(0)} ms), budget 1000 ms: ${perScreen <= 1000 ? 'ok' : 'OVER'}`,
);
