/**
 * Worker threads run the sibling module of the caller: `x-worker.ts` under tsx or vitest (the
 * thread then needs tsx's loader too), `x-worker.js` in the compiled dist/.
 */
export function workerFile(callerUrl: string, basename: string): { filename: string; execArgv: string[] } {
  const fromSource = callerUrl.endsWith('.ts');
  const filename = new URL(`./${basename}${fromSource ? '.ts' : '.js'}`, callerUrl).href;
  return { filename, execArgv: fromSource ? ['--import', 'tsx'] : [] };
}
