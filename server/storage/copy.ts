import crypto from 'node:crypto';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { JOB_FILES_PREFIX, type FileStorage } from './types.ts';

export interface CopyReport {
  /** Objects written to the target in this run. */
  copied: number;
  /** Objects the target already held, byte for byte (a resumed run skips them). */
  skipped: number;
  bytes: number;
  /** CSV job files (`jobs/`) removed from the source while the run went on: not failures. */
  gone: number;
  /** Keys that could not be copied or did not verify, with the reason. */
  failed: { key: string; reason: string }[];
}

/**
 * Copies every object of `from` to `to` (assets, backups and CSV job files alike, so a finished export still
 * downloads and a queued import still runs after the switch; staged uploads are not objects yet) and
 * verifies each: the target's size and SHA-256 must equal the source's, read back from the target after the
 * write. Resumable: an object the target already holds with the same size and hash is skipped, anything
 * else is (re)written, so a run stopped half way is finished by running it again. Sources stay as they are.
 * Example: `const report = await copyStorage(local, postgres, { log: console.log })`.
 */
export async function copyStorage(
  from: FileStorage,
  to: FileStorage,
  { log = () => undefined }: { log?: (line: string) => void } = {},
): Promise<CopyReport> {
  const report: CopyReport = { copied: 0, skipped: 0, bytes: 0, gone: 0, failed: [] };
  for await (const item of from.list()) {
    try {
      const there = await to.stat(item.key);
      if (there && there.size === item.size) {
        const [a, b] = await Promise.all([hashOf(from, item.key), hashOf(to, item.key)]);
        if (a.sha === b.sha && a.size === item.size) {
          report.skipped += 1;
          continue;
        }
      }
      const hash = crypto.createHash('sha256');
      let size = 0;
      const source = await from.open(item.key);
      const tap = new Transform({
        transform(chunk: Buffer, _enc, done) {
          hash.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      });
      const written = to.put(item.key, tap);
      written.catch(() => source.stream.destroy());
      await Promise.all([
        pipeline(source.stream, tap).catch((e: unknown) => tap.destroy(e as Error)),
        written,
      ]);
      const sent = hash.digest('hex');
      const back = await hashOf(to, item.key);
      if (size !== item.size || back.size !== size || back.sha !== sent) {
        throw new Error(
          `verification failed (size ${item.size} -> ${back.size}, sha256 ${sent} -> ${back.sha})`,
        );
      }
      report.copied += 1;
      report.bytes += size;
      log(`copied ${item.key} (${size} bytes, sha256 ${sent.slice(0, 12)}…)`);
    } catch (error) {
      // Job files come and go while servers run (an import's upload goes once it ran, exports after a day).
      if (item.key.startsWith(JOB_FILES_PREFIX) && !(await from.stat(item.key).catch(() => null))) {
        report.gone += 1;
        log(`gone ${item.key} (a job file removed meanwhile)`);
        continue;
      }
      const reason = error instanceof Error ? error.message : String(error);
      report.failed.push({ key: item.key, reason });
      log(`FAILED ${item.key}: ${reason}`);
    }
  }
  return report;
}

/** SHA-256 and size of a stored object, read through. */
export async function hashOf(storage: FileStorage, key: string): Promise<{ sha: string; size: number }> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  const { stream } = await storage.open(key);
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha: hash.digest('hex'), size };
}
