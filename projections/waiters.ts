// Read-your-writes: writes waiting for the projections to pass a log position, for the runner and its followers alike.

export interface PositionWaiters {
  /** Resolves true once `passed(position)` reaches `target`, or false after `timeoutMs` or when all are settled. */
  wait(target: number, timeoutMs: number): Promise<boolean>;
  /** Lets every write waiting for `position` or before it go on. */
  passed(position: number): void;
  /** Ends every wait with false (the runner closes). */
  abandon(): void;
  readonly waiting: number;
}

export function positionWaiters(): PositionWaiters {
  const waiters = new Set<{ position: number; settle: (reached: boolean) => void }>();
  return {
    wait(target, timeoutMs) {
      return new Promise((resolve) => {
        const waiter = {
          position: target,
          settle: (reached: boolean) => {
            clearTimeout(timer);
            waiters.delete(waiter);
            resolve(reached);
          },
        };
        const timer = Number.isFinite(timeoutMs) ? setTimeout(() => waiter.settle(false), timeoutMs) : undefined;
        waiters.add(waiter);
      });
    },
    passed(position) {
      for (const waiter of waiters) if (waiter.position <= position) waiter.settle(true);
    },
    abandon() {
      for (const waiter of waiters) waiter.settle(false);
    },
    get waiting() {
      return waiters.size;
    },
  };
}
