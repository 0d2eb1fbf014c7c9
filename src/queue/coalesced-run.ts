/**
 * A loop that many events may ask to run (a NOTIFY, a poll timer, a finished task): asks that
 * arrive while it runs fold into one more run after it, never a second loop beside it. The job
 * worker claims its queue this way.
 */
export class CoalescedRun {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly run: () => Promise<void>,
    private readonly onError: (error: unknown) => void,
    private readonly enabled: () => boolean = () => true,
  ) {}

  wake(): void {
    if (!this.enabled()) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run()
      .catch(this.onError)
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Resolves when no run is under way (for a stop). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }
}
