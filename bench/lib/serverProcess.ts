import { spawn, type ChildProcess } from 'node:child_process';

/** A server process answering 200 on /api/health. */
export interface RunningServer {
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Milliseconds from spawning to the first 200 on /api/health. */
  wallMs: number;
  /** SIGTERM, then waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Spawns `command args` (a server listening on 127.0.0.1:`port`) and polls GET /api/health until it answers
 * 200, as a deploy's health check does (a barrier would need the server's cooperation). Throws, after
 * stopping nothing (it has exited), with its output when the process exits first.
 */
export async function startServerProcess(options: {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  port: number;
  /** Polling interval, ms (default 20). */
  every?: number;
}): Promise<RunningServer> {
  const started = performance.now();
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
  };
  try {
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`${options.args.join(' ')} exited (${child.exitCode}):\n${output.slice(-4000)}`);
      const status = await fetch(`http://127.0.0.1:${options.port}/api/health`).then(
        (res) => res.status,
        () => 0,
      );
      if (status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, options.every ?? 20));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { child, output: () => output, wallMs: performance.now() - started, stop };
}
