// Reads a query string into flat keys as the spec writes them (`filter[created][from]`); `name[]` keys repeat into arrays.
import type { Context } from 'koa';

export function rawQuery(ctx: Context): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(ctx.querystring)) {
    if (key.endsWith('[]')) {
      const list = result[key];
      result[key] = Array.isArray(list) ? [...list, value] : [value];
    } else {
      result[key] = value;
    }
  }
  return result;
}
