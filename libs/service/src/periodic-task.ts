/**
 * Runs `work` at start and then every `intervalMs`, never two runs at once. A failed run goes to
 * `onError` and the next one comes as planned. `stop()` cancels the schedule and waits for a run
 * in flight, so shutdown never cuts one short.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly intervalMs: number,
    private readonly work: () => Promise<unknown>,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => void this.runNow(), this.intervalMs);
    // The schedule alone does not keep the process alive.
    this.timer.unref();
    void this.runNow();
  }

  /** Runs now, or joins the run in flight. */
  runNow(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.running ??= this.work()
      .then(() => undefined, this.onError)
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }
}
