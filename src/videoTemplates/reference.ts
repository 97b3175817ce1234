// `template: {id}` in video settings names a template of the same organization; anything else is a 422.
import type { ReadStore } from '../infrastructure/readStore/port.ts';
import { invalid } from '../shared/errors.ts';
import { findVideoTemplate } from './readModel.ts';

/**
 * Checks the template a video settings body names. Bodies that are not shaped like one are left to the
 * settings schema, so a malformed body answers that schema's errors rather than this check's.
 */
export async function checkVideoTemplateReference(read: ReadStore, organizationId: number, body: unknown, location = 'template.id') {
  const template = typeof body === 'object' && body !== null ? (body as { template?: unknown }).template : undefined;
  const id = typeof template === 'object' && template !== null ? (template as { id?: unknown }).id : undefined;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) return;
  if (!(await findVideoTemplate(read, organizationId, id))) throw invalid([{ location, message: 'names no video settings template of this organization' }]);
}
