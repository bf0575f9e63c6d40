import { activities } from './activities.ts';
import { assets } from './assets.ts';
import type { Resource } from './define.ts';
import { departments } from './departments.ts';
import { dictionaries } from './dictionaries.ts';
import { roles } from './roles.ts';
import { staff } from './staff.ts';
import { users } from './users.ts';

/**
 * The registry both the server and the client import (like Payload's `collections: [...]`).
 * Add a resource by writing `resources/<name>.ts` and listing it here.
 */
export const resources: Resource[] = [departments, roles, users, staff, dictionaries, assets, activities];
