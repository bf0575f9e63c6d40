/**
 * The opened database a handle stands for. Request and hook wrappers are `Object.create(db)` with a method
 * or two replaced (readSettlingAuth in core/principal.ts, engine/hook-runtime.ts); the object of the chain
 * that owns `kind` is the database itself. Per-database state (the auth cache, the collations read once)
 * is keyed by it, so a wrapper shares it.
 *
 * @example
 * cache.get(databaseOf(db));
 */
export function databaseOf<T extends object>(db: T): T {
  for (let o: object | null = db; o; o = Object.getPrototypeOf(o) as object | null)
    if (Object.hasOwn(o, 'kind')) return o as T;
  return db;
}
