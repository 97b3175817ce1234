// The one mapping between wire names (snake_case) and TypeScript names (camelCase), for top-level fields.

const toCamel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const toSnake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Renames the top-level keys; nested objects are wire-shaped values and stay as they are. */
export const camelKeys = <T extends object>(wire: Record<string, unknown>): T =>
  Object.fromEntries(Object.entries(wire).map(([key, value]) => [toCamel(key), value])) as T;

export const snakeKeys = (value: object): Record<string, unknown> =>
  Object.fromEntries(Object.entries(value).map(([key, inner]) => [toSnake(key), inner]));

type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
/** The camelCase twin of a wire-shaped object type. */
export type CamelKeys<T> = { [K in keyof T as Camel<K & string>]: T[K] };
