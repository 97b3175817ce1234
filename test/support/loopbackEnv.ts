// The environment the tests and the benchmarks start the service with: loopback on a free port, its own data dir, one key.
export function loopbackEnv(dataDir: string, apiKey: string, options: { rateLimit: number; generation: boolean }): Record<string, string> {
  const rateLimit = String(options.rateLimit);
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/root',
    // Another install of the engines (scripts/install-tools.sh with TOOLS_DIR) is the one the service then uses.
    ...(process.env.TOOLS_DIR ? { TOOLS_DIR: process.env.TOOLS_DIR } : {}),
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    BOOTSTRAP_API_KEY: apiKey,
    RATE_LIMIT_GET: rateLimit,
    RATE_LIMIT_OTHER: rateLimit,
    RATE_LIMIT_PUBLIC: rateLimit,
    RATE_LIMIT_ANALYTICS: rateLimit,
    GENERATION_ENABLED: String(options.generation),
  };
}
