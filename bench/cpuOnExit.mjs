// Preloaded into a benchmarked child process (`node --import`): prints its CPU time (user + system) on exit, a figure
// that moves much less than wall time when other work shares the machine, and its peak resident memory. Threads the
// process starts (a rebuild's split replay) are given the same flags: they leave the report to the process, whose
// figures count every thread's.
import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    process.stderr.write(`\ncpu time: ${Math.round((user + system) / 1000)} ms, peak resident memory: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB\n`);
  });
}
