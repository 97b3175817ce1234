import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

describe('webhook settings', () => {
  it('default to https-only public destinations, 5 s to 6 h backoff over 3 days, 10 s per attempt', () => {
    const loaded = loadConfig({});
    expect(loaded.ok && loaded.config).toMatchObject({
      WEBHOOKS_ALLOW_PRIVATE: false,
      WEBHOOK_RETRY_INITIAL_MS: 5_000,
      WEBHOOK_RETRY_MAX_MS: 21_600_000,
      WEBHOOK_RETRY_WINDOW_MS: 259_200_000,
      WEBHOOK_TIMEOUT_MS: 10_000,
    });
  });

  it('read their variables', () => {
    const loaded = loadConfig({ WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_INITIAL_MS: '200', WEBHOOK_RETRY_MAX_MS: '1000', WEBHOOK_RETRY_WINDOW_MS: '60000', WEBHOOK_TIMEOUT_MS: '500' });
    expect(loaded.ok && loaded.config).toMatchObject({
      WEBHOOKS_ALLOW_PRIVATE: true,
      WEBHOOK_RETRY_INITIAL_MS: 200,
      WEBHOOK_RETRY_MAX_MS: 1_000,
      WEBHOOK_RETRY_WINDOW_MS: 60_000,
      WEBHOOK_TIMEOUT_MS: 500,
    });
  });

  it.each([
    [{ WEBHOOKS_ALLOW_PRIVATE: 'yes' }, 'Invalid configuration: WEBHOOKS_ALLOW_PRIVATE must be true or false (got "yes")'],
    [{ WEBHOOK_RETRY_INITIAL_MS: '0' }, 'Invalid configuration: WEBHOOK_RETRY_INITIAL_MS must be at least 1 (got "0")'],
    [{ WEBHOOK_RETRY_MAX_MS: '90000000' }, 'Invalid configuration: WEBHOOK_RETRY_MAX_MS must be at most 86400000 (got "90000000")'],
    [{ WEBHOOK_RETRY_WINDOW_MS: 'three days' }, 'Invalid configuration: WEBHOOK_RETRY_WINDOW_MS must be a whole number (got "three days")'],
    [{ WEBHOOK_TIMEOUT_MS: '60001' }, 'Invalid configuration: WEBHOOK_TIMEOUT_MS must be at most 60000 (got "60001")'],
  ])('refuse %j in one line naming the variable', (env, message) => {
    expect(loadConfig(env)).toEqual({ ok: false, message });
  });
});
