// Types for graphql-depth-limit, which ships none: the one function the GraphQL limits use.
declare module 'graphql-depth-limit' {
  import type { ValidationRule } from 'graphql';

  export default function depthLimit(maxDepth: number, options?: { ignore?: (string | RegExp | ((name: string) => boolean))[] }, callback?: (depths: Record<string, number>) => void): ValidationRule;
}
