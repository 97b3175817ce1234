// Preloaded into a benchmarked child process (`node --import`): prints its CPU time (user + system) on exit, a figure
// that moves much less than wall time when other work shares the machine, and its peak resident memory.
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`\ncpu time: ${Math.round((user + system) / 1000)} ms, peak resident memory: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB\n`);
});
