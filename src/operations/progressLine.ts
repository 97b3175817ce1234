// A progress bar on stderr for long operator commands: done/total, rate and time left, redrawn in place on a terminal.

const WIDTH = 24;
/** Redraws at most this often; off a terminal (a log file), prints a line this often times ten. */
const REDRAW_MS = 250;

const seconds = (s: number) => (s >= 3600 ? `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min` : s >= 60 ? `${Math.floor(s / 60)} min ${Math.round(s % 60)} s` : `${Math.round(s)} s`);

/** The line for `done` of `total` units since `startedMs`: bar, counts, units per second, estimated time left. */
export function progressText(label: string, unit: string, done: number, total: number, startedMs: number, nowMs = Date.now()): string {
  const fraction = total > 0 ? Math.min(1, done / total) : 1;
  const filled = Math.round(fraction * WIDTH);
  const elapsed = Math.max(0.001, (nowMs - startedMs) / 1000);
  const rate = done / elapsed;
  const left = rate > 0 ? (total - done) / rate : Infinity;
  const eta = fraction >= 1 ? 'done' : Number.isFinite(left) ? `ETA ${seconds(left)}` : 'ETA –';
  return `${label} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${done.toLocaleString('en')} / ${total.toLocaleString('en')} ${unit}, ${Math.round(rate).toLocaleString('en')} ${unit}/s, ${eta}`;
}

export function progressLine(label: string, unit: string, stream: NodeJS.WriteStream = process.stderr) {
  let last = 0;
  const interval = stream.isTTY ? REDRAW_MS : REDRAW_MS * 10;
  return {
    update(done: number, total: number, startedMs: number) {
      const now = Date.now();
      if (now - last < interval && done < total) return;
      last = now;
      const text = progressText(label, unit, done, total, startedMs, now);
      stream.write(stream.isTTY ? `\r${text}\x1b[K` : `${text}\n`);
    },
    end() {
      if (stream.isTTY) stream.write('\n');
    },
  };
}
