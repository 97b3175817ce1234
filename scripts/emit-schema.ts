// Prints the GraphQL SDL into schema/schema.graphql (or to stdout with --stdout); a test fails when it is stale.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { printSchema } from 'graphql';
import { buildGraphqlSchema } from '../src/graphql/schema.ts';

const sdl = `${printSchema(await buildGraphqlSchema())}\n`;
if (process.argv.includes('--stdout')) process.stdout.write(sdl);
else writeFileSync(path.join(import.meta.dirname, '../schema/schema.graphql'), sdl);
