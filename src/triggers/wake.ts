// The sleep of a delivery worker's loop, cut short by wake() (a NOTIFY, a free slot, a retry coming due); a wake while
// the loop is busy makes its next sleep return at once, so no wake-up is lost.
export class Waker {
  private wakeUp: (() => void) | null = null;
  private pending = false;

  wake(): void {
    this.pending = true;
    this.wakeUp?.();
  }

  sleep(ms: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = null;
        this.pending = false;
        done();
      };
    });
  }
}
