/**
 * What a client command tells its user while it works, on stderr (stdout holds the result): a
 * redrawn progress bar on a terminal, plain lines otherwise or with --json, so logs stay readable.
 */
import type { Job } from '@shotgen/client';

export interface Reporter {
  /** A step worth a line of its own: "created app …", "uploaded …". */
  line(text: string): void;
  /** The job as last polled. */
  job(job: Job): void;
  /** Ends the bar's line, if one is drawn. */
  end(): void;
}

const BAR_WIDTH = 24;

export function createReporter(opts: { json: boolean; stream?: NodeJS.WriteStream }): Reporter {
  const stream = opts.stream ?? process.stderr;
  const tty = stream.isTTY === true && !opts.json;
  let barShown = false;
  let lastLine = '';
  const clearBar = () => {
    if (barShown) stream.write('\r\x1b[2K');
    barShown = false;
  };
  const line = (text: string) => {
    clearBar();
    stream.write(`${text}\n`);
  };
  return {
    line,
    job(job) {
      const p = job.progress;
      if (tty && job.status === 'running' && p) {
        const filled = Math.round((BAR_WIDTH * p.done) / p.total);
        stream.write(`\r\x1b[2Krendering [${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${p.done}/${p.total} slides`);
        barShown = true;
        return;
      }
      const text = `job ${job.id}: ${job.status}${p ? ` ${p.done}/${p.total} slides` : ''}`;
      // Plain lines repeat nothing: a poll that changed nothing prints nothing.
      if (text !== lastLine) line(text);
      lastLine = text;
    },
    end: clearBar,
  };
}
