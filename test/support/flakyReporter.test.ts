// The retry only reports: vitest run with this repository's vitest.config.ts on a test that fails on its first try.
// Under CI it is tried again, named as flaky, and the run fails; without CI it has one try and fails.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './server.ts';

const project = mkdtempSync(path.join(tmpdir(), 'flaky-reporter-test-'));
const marker = path.join(project, 'tried');
symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'));
mkdirSync(path.join(project, 'test'));
writeFileSync(
  path.join(project, 'test/flaky.test.ts'),
  `import { existsSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';

it('passes on its second try', () => {
  const first = !existsSync(${JSON.stringify(marker)});
  writeFileSync(${JSON.stringify(marker)}, '');
  expect(first, 'the first try').toBe(false);
});

it('passes every time', () => {
  expect(1 + 1).toBe(2);
});
`,
);
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** `vitest run` in the project with the repository's configuration; CI set or not. */
function vitest(ci: boolean): { code: number | null; output: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
  delete env.CI;
  delete env.VITEST;
  if (ci) env.CI = 'true';
  const run = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', project, '--config', path.join(ROOT, 'vitest.config.ts')], {
    cwd: project,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: run.status, output: run.stdout + run.stderr };
}

describe('a test that fails on its first try', () => {
  it('fails the run without CI, tried once', () => {
    rmSync(marker, { force: true });
    const { code, output } = vitest(false);
    expect(code, output).toBe(1);
    expect(output).toMatch(/Tests\s+1 failed \| 1 passed \(2\)/);
    expect(output).not.toContain('FLAKY');
    expect(existsSync(marker)).toBe(true);
  }, 60_000);

  it('is tried again under CI, named as flaky with its first error, and still fails the run', () => {
    rmSync(marker, { force: true });
    const { code, output } = vitest(true);
    expect(code, output).toBe(1);
    // vitest itself counts it as passed; the reporter's lines and the exit code say otherwise.
    expect(output).toMatch(/Tests\s+2 passed \(2\)/);
    expect(output).toContain('1 test(s) passed only when tried again, so the run fails:');
    expect(output).toContain(' FLAKY test/flaky.test.ts > passes on its second try\n   first try: the first try: expected true to be false');
  }, 60_000);

  it('leaves a run whose tests pass at their first try green under CI', () => {
    writeFileSync(marker, '');
    const { code, output } = vitest(true);
    expect(code, output).toBe(0);
    expect(output).not.toContain('FLAKY');
  }, 60_000);
});
