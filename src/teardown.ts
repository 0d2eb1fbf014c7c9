/**
 * One list of what to stop, in what order, used both when a start fails half-way and by close():
 * each part is registered right after it starts, so a failed start stops exactly what had
 * started, and the two paths can no longer drift apart.
 *
 * Stages run in order; the steps of a stage run together. A step that fails does not keep the
 * others from running: every failure is collected and reported once at the end.
 */

/** In order: stop taking work and finish it, flush what is owed, release resources, then connections. */
export const STAGES = ['intake', 'flush', 'resources', 'notifications', 'database'] as const;
export type Stage = (typeof STAGES)[number];

interface Step {
  stage: Stage;
  name: string;
  /** Given the time left for in-flight work (0 on a failed start). */
  stop: (timeoutMs: number) => unknown;
}

export class Teardown {
  private readonly steps: Step[] = [];
  private running: Promise<void> | null = null;

  add(stage: Stage, name: string, stop: (timeoutMs: number) => unknown): void {
    this.steps.push({ stage, name, stop });
  }

  /** Runs once; later calls get the first run's outcome. Rejects with every failure, named. */
  run(timeoutMs: number): Promise<void> {
    this.running ??= (async () => {
      const failures: Error[] = [];
      for (const stage of STAGES) {
        await Promise.all(
          this.steps
            .filter((s) => s.stage === stage)
            .map(async (s) => {
              try {
                await s.stop(timeoutMs);
              } catch (error) {
                failures.push(new Error(`stopping ${s.name} failed: ${(error as Error)?.message ?? String(error)}`, { cause: error }));
              }
            }),
        );
      }
      if (failures.length === 1) throw failures[0];
      if (failures.length > 1) throw new AggregateError(failures, failures.map((f) => f.message).join('; '));
    })();
    return this.running;
  }
}
