// Names, after the run, every test that failed and then passed when tried again (CI tries a failed test once more,
// see vitest.config.ts), and fails the run for it: the retry tells a flaky test from a broken one, it never makes a
// run green. A test that needs its second try is a finding to mend, not a pass to forget.
import type { Reporter, TestCase } from 'vitest/node';

export default class FlakyReporter implements Reporter {
  private readonly flaky: TestCase[] = [];

  onTestCaseResult(testCase: TestCase): void {
    if (testCase.diagnostic()?.flaky) this.flaky.push(testCase);
  }

  onTestRunEnd(): void {
    if (this.flaky.length === 0) return;
    const lines = this.flaky.map((testCase) => {
      const firstError = testCase.result().errors?.[0]?.message?.split('\n')[0] ?? '';
      return ` FLAKY ${testCase.module.moduleId.replace(`${process.cwd()}/`, '')} > ${testCase.fullName}${firstError ? `\n   first try: ${firstError}` : ''}`;
    });
    process.stdout.write(`\n${this.flaky.length} test(s) passed only when tried again, so the run fails:\n${lines.join('\n')}\n`);
    // vitest never sets a zero exit code itself: this one stands however the tests ended.
    process.exitCode = 1;
  }
}
