import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { ROOT, startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const gql = async (query: string, variables: Record<string, unknown> = {}, key?: string | null) =>
  server.request('POST', '/graphql', { body: { query, variables }, key });

const CONTENT_FIELDS = 'id legacy_id type status title source_id tags published audio { id url } segments';

describe('GraphQL admin API', () => {
  it('creates, reads, lists, updates and deletes content through the same rules as REST', async () => {
    const created = await gql(
      `mutation($input: JSONObject!) { createContent(project_id: 1, input: $input) { ${CONTENT_FIELDS} } }`,
      { input: { title: 'From GraphQL', body: '<p>Hello</p>', source_id: 'gql-1', tags: ['g'] } },
    );
    expect(created.status).toBe(200);
    expect(created.body.errors).toBeUndefined();
    const item = created.body.data.createContent;
    expect(item).toMatchObject({ type: 'auto_segment', status: 'queued', title: 'From GraphQL', source_id: 'gql-1', audio: [], segments: [] });

    const rest = await server.request('GET', `/v1/projects/1/content/${item.id}`);
    expect(rest.body.title).toBe('From GraphQL');

    const listed = await gql(`{ contents(project_id: 1, filter: { source_id: "gql-1" }, order: { by: "created", dir: "asc" }, pagination: { limit: 5 }) { id } }`);
    expect(listed.body.data.contents).toEqual([{ id: item.id }]);

    const updated = await gql(`mutation { updateContent(project_id: 1, id: "gql-1", input: { title: "Renamed" }) { title } }`);
    expect(updated.body.data.updateContent).toEqual({ title: 'Renamed' });
    expect((await server.request('GET', `/v1/projects/1/content/${item.id}`)).body.title).toBe('Renamed');

    const deleted = await gql(`mutation { deleteContent(project_id: 1, id: "${item.id}") }`);
    expect(deleted.body.data.deleteContent).toBe(true);
    expect((await server.request('GET', `/v1/projects/1/content/${item.id}`)).status).toBe(404);
  });

  it('reports validation failures with the REST locations', async () => {
    await gql(`mutation { createContent(project_id: 1, input: { body: "<p>a</p>", source_id: "gql-dup" }) { id } }`);
    const duplicate = await gql(`mutation { createContent(project_id: 1, input: { body: "<p>a</p>", source_id: "gql-dup", title: "${'t'.repeat(501)}" }) { id } }`);
    expect(duplicate.body.errors[0]).toMatchObject({
      message: 'Invalid request body',
      extensions: { code: 'INVALID', status: 422, errors: [{ location: 'title', message: 'must have at most 500 characters' }] },
    });
    const filter = await gql(`{ contents(project_id: 1, filter: { statuses: ["done"] }) { id } }`);
    expect(filter.body.errors[0].extensions.errors).toEqual([
      { location: 'filter[statuses][].0', message: 'must be one of: draft, queued, processing, processed, skipped, error' },
    ]);
    const missing = await gql(`{ content(project_id: 1, id: "nope") { id } }`);
    expect(missing.body.errors[0]).toMatchObject({ message: 'Not Found', extensions: { code: 'NOTFOUND', status: 404 } });
  });

  it('reads and updates projects', async () => {
    const projects = await gql('{ projects { id name language_data content_total_count } }');
    expect(projects.body.data.projects[0]).toMatchObject({ id: 1, name: 'Default project', language_data: { code: 'en_US' } });
    const updated = await gql('mutation { updateProject(id: 1, input: { pause_after_segments_seconds: 2 }) { pause_after_segments_seconds } }');
    expect(updated.body.data.updateProject.pause_after_segments_seconds).toBe(2);
    const invalid = await gql('mutation { updateProject(id: 1, input: { pause_after_segments_seconds: 9 }) { id } }');
    expect(invalid.body.errors[0].extensions.errors).toEqual([{ location: 'pause_after_segments_seconds', message: 'must be less than or equal to 3' }]);
  });

  it('needs an API key like REST', async () => {
    const reply = await gql('{ projects { id } }', {}, null);
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ code: 401, message: 'Unauthorized' });
  });

  it('keeps schema/schema.graphql in step with the code', () => {
    const committed = readFileSync(path.join(ROOT, 'schema/schema.graphql'), 'utf8');
    const printed = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/emit-schema.ts', '--stdout'], { cwd: ROOT, encoding: 'utf8' });
    expect(printed, 'schema/schema.graphql is stale: run npm run schema').toBe(committed);
  });
});
