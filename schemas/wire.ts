import * as z from 'zod';

/**
 * Building blocks of the wire shapes in schemas/ (answers the server sends and the client reads). These
 * describe, they do not parse requests: an id is a string of digits, a time an ISO 8601 string.
 */
export const wireId = z.string().regex(/^\d+$/);
export const wireTime = z.string().meta({ format: 'date-time' });
