// Preloaded into a benchmarked child process (`node --import`): prints its CPU time (user + system) on exit, a figure
// that moves much less than wall time when other work shares the machine.
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`\ncpu time: ${Math.round((user + system) / 1000)} ms\n`);
});
