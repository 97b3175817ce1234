// Writes schema/schema.graphql and schema/openapi.json (or prints the SDL with --stdout); tests fail when either is stale.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { printSchema } from 'graphql';
import { buildGraphqlSchema } from '../src/graphql/schema.ts';
import { openApiJson } from '../src/openapi/document.ts';

const sdl = `${printSchema(await buildGraphqlSchema())}\n`;
const schemaDir = path.join(import.meta.dirname, '../schema');
if (process.argv.includes('--stdout')) process.stdout.write(sdl);
else {
  writeFileSync(path.join(schemaDir, 'schema.graphql'), sdl);
  writeFileSync(path.join(schemaDir, 'openapi.json'), openApiJson());
}
