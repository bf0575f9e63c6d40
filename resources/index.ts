import type { Resource } from './define.ts';

/**
 * The registry both the server and the client import (like Payload's `collections: [...]`).
 * Add a resource by writing `resources/<name>.ts` and listing it here.
 */
export const resources: Resource[] = [];
