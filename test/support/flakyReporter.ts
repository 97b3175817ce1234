// Names, after the run, every test that failed and then passed when tried again (CI tries a failed test once more,
// see vitest.config.ts), and fails the run for it: the retry tells a flaky test from a broken one, it never makes a
// run green. A test that needs its second try is a finding to mend, not a pass to forget.
import type { Reporter, TestCase } from 'vitest/node';

/** Lines of a flaky test's first error shown. */
const ERROR_LINES = 8;

export default class FlakyReporter implements Reporter {
  private readonly flaky: TestCase[] = [];

  onTestCaseResult(testCase: TestCase): void {
    if (testCase.diagnostic()?.flaky) this.flaky.push(testCase);
  }

  onTestRunEnd(): void {
    if (this.flaky.length === 0) return;
    const lines = this.flaky.map((testCase) => {
      // A few lines of it: a property test's first line says only that it failed, the next ones say on what.
      const firstError = (testCase.result().errors?.[0]?.message ?? '').split('\n').filter((line) => line.trim() !== '').slice(0, ERROR_LINES).map((line) => line.slice(0, 400));
      return ` FLAKY ${testCase.module.moduleId.replace(`${process.cwd()}/`, '')} > ${testCase.fullName}${firstError.length > 0 ? `\n   first try: ${firstError.join('\n     ')}` : ''}`;
    });
    process.stdout.write(`\n${this.flaky.length} test(s) passed only when tried again, so the run fails:\n${lines.join('\n')}\n`);
    // vitest never sets a zero exit code itself: this one stands however the tests ended.
    process.exitCode = 1;
  }
}
