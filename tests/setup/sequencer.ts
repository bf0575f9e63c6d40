import fs from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const POSTGRES_ONLY = /skipIf\(\s*!process\.env\.DATABASE_URL\s*\)/;

/**
 * Vitest's order (failed first, then longest by the results cache, unknown and larger files first), except
 * that under `npm run test:pg` the files with PostgreSQL-only tests come first. The cache holds their
 * durations from `npm test`, where they are skipped, so they would run last although they are the longest
 * (second servers, a pg-boss minute), leaving one worker idle at the end.
 */
export class PostgresFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    if (!process.env.DATABASE_URL) return sorted;
    const first = new Set(sorted.filter((f) => POSTGRES_ONLY.test(fs.readFileSync(f.moduleId, 'utf8'))));
    return [...first, ...sorted.filter((f) => !first.has(f))];
  }
}
