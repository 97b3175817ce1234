// Limits on GraphQL operations, so no one request can keep the API busy or build a huge answer: text nesting, tokens, depth, aliases and a cost budget, all checked before execution.
import type { ApolloServerPlugin } from '@apollo/server';
import depthLimit from 'graphql-depth-limit';
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import { BREAK, GraphQLError, getNullableType, isListType, visit, type DocumentNode, type GraphQLSchema, type ValidationRule } from 'graphql';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../content/wire.ts';
import { textProblem } from '../http/jsonScan.ts';
import { MAX_JSON_DEPTH } from '../http/limits.ts';

export const GRAPHQL_LIMITS = {
  /** Brackets, braces and parentheses open at once in the query text: bounds the parser's recursion. */
  maxTextNesting: 64,
  /** Lexical tokens in one document: bounds parsing and validation work (the introspection query has about 200). */
  maxTokens: 3000,
  /** Fields selected, fragments expanded: Apollo's own guard against fragments that multiply. */
  maxRecursiveSelections: 2000,
  /** Nested selections below the operation (introspection fields are not counted). */
  maxDepth: 10,
  maxAliases: 30,
  /** Estimated work and answer size: one full page of 100 items with bodies and segments costs about 31,000. */
  maxCost: 50_000,
} as const;

/** Fields that can carry up to 100 kB each cost as much as a hundred small ones. */
const FIELD_COST: Record<string, number> = { 'ContentItem.body': 100, 'ContentItem.segments': 100, 'ContentItem.metadata': 10 };
/** Unpaginated lists inside an item (its audio and video files) hold a few entries. */
const NESTED_LIST_ITEMS = 5;

const refusal = (message: string, code: string, errors?: { location: string; message: string }[]) =>
  new GraphQLError(message, { extensions: { code, status: 400, ...(errors ? { errors } : {}), http: { status: 400 } } });

/** The answer for query text nested deeper than the parser may safely go, or null. A flat scan, no recursion. */
export function queryTextProblem(query: unknown): GraphQLError | null {
  if (typeof query !== 'string') return null;
  if (!nestsDeeper(query, GRAPHQL_LIMITS.maxTextNesting)) return null;
  return refusal(`The query nests brackets more than ${GRAPHQL_LIMITS.maxTextNesting} levels deep`, 'QUERY_TOO_NESTED');
}

function nestsDeeper(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '#') {
      while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
    } else if (c === '"' && text.startsWith('"""', i)) {
      i = blockStringEnd(text, i + 3);
    } else if (c === '"') {
      for (i++; i < text.length && text[i] !== '"' && text[i] !== '\n'; i++) if (text[i] === '\\') i++;
    } else if (c === '{' || c === '[' || c === '(') {
      if (++depth > max) return true;
    } else if (c === '}' || c === ']' || c === ')') {
      depth--;
    }
  }
  return false;
}

/** Index of the last quote of a block string that starts at `from`; `\"""` does not end it. */
function blockStringEnd(text: string, from: number): number {
  for (let at = text.indexOf('"""', from); at >= 0; at = text.indexOf('"""', at + 1)) {
    if (text[at - 1] !== '\\') return at + 2;
  }
  return text.length;
}

/** Refuses documents with more aliased fields than the limit, fragments included. */
export const maxAliasesRule: ValidationRule = (context) => {
  let aliases = 0;
  return {
    Field(node) {
      if (node.alias && ++aliases === GRAPHQL_LIMITS.maxAliases + 1) {
        context.reportError(new GraphQLError(`The operation uses more than ${GRAPHQL_LIMITS.maxAliases} aliases`, { nodes: [node] }));
      }
    },
  };
};

/** Run after the specification's rules, so the depth counter never meets an unknown or cyclic fragment. */
export const limitValidationRules: ValidationRule[] = [depthLimit(GRAPHQL_LIMITS.maxDepth), maxAliasesRule];

const pageSize = (pagination: unknown) => {
  const limit = (pagination as { limit?: unknown } | null | undefined)?.limit;
  return typeof limit === 'number' && Number.isInteger(limit) ? Math.min(Math.max(limit, 1), MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;
};

/**
 * Each field costs one (or its weight); a list multiplies what it selects by the items it can return.
 * Introspection answers are as large as the schema, whatever the data, so their lists are not multiplied.
 */
const estimateCost: ComplexityEstimator = ({ type, field, args, childComplexity }) => {
  const own = FIELD_COST[`${type.name}.${field.name}`] ?? 1;
  const introspection = type.name.startsWith('__') || field.name.startsWith('__');
  if (introspection || !isListType(getNullableType(field.type)) || childComplexity === 0) return own + childComplexity;
  const paginated = field.args.some((arg) => arg.name === 'pagination');
  return own + (paginated ? pageSize(args.pagination) : NESTED_LIST_ITEMS) * childComplexity;
};

/** Literals get the checks of JSON bodies: nesting, NUL or lone surrogates in text, numbers too large to be finite. */
function literalProblem(document: DocumentNode): string | null {
  let problem: string | null = null;
  let depth = 0;
  const container = {
    enter() {
      if (++depth <= MAX_JSON_DEPTH) return undefined;
      problem = `An input value nests more than ${MAX_JSON_DEPTH} levels deep`;
      return BREAK;
    },
    leave() {
      depth--;
    },
  };
  const checkNumber = (node: { value: string }) => {
    if (Number.isFinite(Number(node.value))) return undefined;
    problem = `The number ${node.value.length > 20 ? `${node.value.slice(0, 20)}…` : node.value} is too large to be finite`;
    return BREAK;
  };
  visit(document, {
    StringValue(node) {
      const found = textProblem(node.value);
      if (!found) return undefined;
      problem = `A string ${found}`;
      return BREAK;
    },
    IntValue: checkNumber,
    FloatValue: checkNumber,
    ObjectValue: container,
    ListValue: container,
  });
  return problem;
}

/** Checks every resolved operation's literals and cost before it runs; over budget answers 400 without running. */
export function operationLimitsPlugin(schema: GraphQLSchema): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
          const literal = literalProblem(document);
          if (literal) throw refusal(literal, 'BAD_USER_INPUT');
          let cost: number;
          try {
            cost = getComplexity({ schema, query: document, variables: request.variables ?? {}, operationName: request.operationName, estimators: [estimateCost] });
          } catch (error) {
            throw refusal(error instanceof Error ? error.message : 'The operation cannot be costed', 'BAD_USER_INPUT');
          }
          if (cost > GRAPHQL_LIMITS.maxCost) {
            throw refusal(`The operation would cost ${cost}, over the budget of ${GRAPHQL_LIMITS.maxCost}: ask for fewer items, fields or aliases`, 'QUERY_TOO_COSTLY');
          }
        },
      };
    },
  };
}
