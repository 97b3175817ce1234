// zod building blocks shared by the response schemas of several capabilities (src/*/wire.ts).
import { z } from 'zod';

/** Every time the service answers is written by `Date.prototype.toISOString`: UTC, milliseconds, `Z`. */
export const timestamp = z.iso.datetime().describe('ISO 8601 date-time (UTC)');

/** An object a client sent whose fields the service keeps as they were sent. */
export const storedObject = z.record(z.string(), z.unknown());

/** A URL as stored: checked on the way in, answered as text (no `format`, so old values never fail a client's check). */
export const urlText = z.string();
