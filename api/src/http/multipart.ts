import type { FastifyRequest } from 'fastify';
import qs from 'qs';
import { assertInputWithinBounds } from './inputGuard';
import { badRequest } from './envelope';

/** At most this many fields in one form; the spec's forms have fewer than twenty. */
const MAX_FIELDS = 100;

export interface FormInput {
  /** The fields, with bracket names nested as the spec's forms send them (event_bib_pairs[0][event_id]). */
  fields: Record<string, unknown>;
  /** Files of the named file fields, read whole (the multipart file limit bounds them). */
  files: Map<string, { data: Buffer; filename: string; mimetype: string }>;
}

/**
 * The input of a route that takes the spec's multipart forms and also JSON or URL-encoded bodies.
 * Multipart fields are not parsed before the handler, so they get the same bounds here as every
 * other body (inputGuard); files other than the named ones are drained and ignored.
 */
export async function readForm(request: FastifyRequest, fileFields: string[] = []): Promise<FormInput> {
  const files: FormInput['files'] = new Map();
  if (!request.isMultipart()) {
    const body = request.body;
    return { fields: body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {}, files };
  }
  const flat: Array<[string, string]> = [];
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      if (flat.length >= MAX_FIELDS) throw badRequest('The request has too many fields.');
      flat.push([part.fieldname, String(part.value)]);
    } else if (fileFields.includes(part.fieldname) && !files.has(part.fieldname)) {
      const data = await part.toBuffer();
      files.set(part.fieldname, { data, filename: part.filename, mimetype: part.mimetype });
    } else {
      part.file.resume();
    }
  }
  assertInputWithinBounds(Object.fromEntries(flat));
  // qs nests bracket names into objects (never arrays: `selected_photos[6]` stays keyed by 6), without
  // prototype keys, two levels deep at most. A schema that wants a list reads the numbered keys in order.
  const fields = qs.parse(new URLSearchParams(flat).toString(), { depth: 2, parseArrays: false, parameterLimit: MAX_FIELDS, allowPrototypes: false });
  return { fields, files };
}
