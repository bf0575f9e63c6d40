import { createRequire } from 'node:module';

/** An arbitrary minute-aligned origin shared by every server: virtual cron time starts there. */
const ORIGIN_MS = Date.UTC(2020, 0, 1);

/** The part of pg-boss 10's Timekeeper (src/timekeeper.js) the tick replaces. */
interface TimekeeperLike {
  config: { tickSeconds?: number; cronMonitorIntervalSeconds: number };
  clockSkew: number;
  stopped: boolean;
  manager: { insert(jobs: object[]): Promise<unknown> };
  getSchedules(): Promise<{ name: string; cron: string; timezone: string; data: unknown; options: object }[]>;
  shouldSendIt(cron: string, tz: string): boolean;
  cron(): Promise<void>;
}

let installed = false;

/**
 * pg-boss's schedules are minute-grained: its timekeeper sends a schedule's job when the cron time fell
 * within the last 60 s, under a 60-second singleton slot. With `tickSeconds` (pg-boss constructor option,
 * JOBS_TICK_SECONDS) below 60, that instance's cron clock runs 60/tick times faster: a cron minute lasts one
 * tick, the slot is one tick, so an every-minute schedule fires every tick (an hourly one every 60 ticks).
 * For tests and demos: cluster tests then see several scheduled "minutes" in seconds, through pg-boss's own
 * timekeeper, cron lock and send-it queue. An instance without `tickSeconds` (or 60) is left to pg-boss.
 * Installed once per process on pg-boss's Timekeeper class; throws if pg-boss changed the methods it wraps.
 */
export function installTick(): void {
  if (installed) return;
  const require = createRequire(import.meta.url);
  const Timekeeper = require('pg-boss/src/timekeeper.js') as {
    prototype: TimekeeperLike;
    QUEUES?: { SEND_IT: string };
  };
  // The cron-parser pg-boss itself uses (4.x; the app's own is 5.x).
  const cronParser = createRequire(require.resolve('pg-boss/src/timekeeper.js'))('cron-parser') as {
    parseExpression(
      cron: string,
      options: { tz: string; currentDate: Date },
    ): { prev(): { getTime(): number } };
  };
  const proto = Timekeeper.prototype;
  const sendIt = Timekeeper.QUEUES?.SEND_IT;
  if (typeof proto.shouldSendIt !== 'function' || typeof proto.cron !== 'function' || !sendIt)
    throw new Error('pg-boss Timekeeper changed: JOBS_TICK_SECONDS cannot be applied');
  const { shouldSendIt, cron } = proto;
  const tickOf = (self: TimekeeperLike) => {
    const tick = self.config.tickSeconds;
    return tick && tick < 60 ? tick : null;
  };
  proto.shouldSendIt = function (this: TimekeeperLike, expression, tz) {
    const tick = tickOf(this);
    if (!tick) return shouldSendIt.call(this, expression, tz);
    const now = Date.now() + this.clockSkew;
    const virtualNow = ORIGIN_MS + (now - ORIGIN_MS) * (60 / tick);
    const prev = cronParser.parseExpression(expression, { tz, currentDate: new Date(virtualNow) }).prev();
    return (virtualNow - prev.getTime()) / 1000 < 60;
  };
  proto.cron = async function (this: TimekeeperLike) {
    const tick = tickOf(this);
    if (!tick) return cron.call(this);
    // pg-boss's cron() with the tick for its 60-second singleton slot.
    const scheduled = (await this.getSchedules())
      .filter((s) => this.shouldSendIt(s.cron, s.timezone))
      .map(({ name, data, options }) => ({
        name: sendIt,
        data: { name, data, ...options },
        singletonKey: name,
        singletonSeconds: tick,
      }));
    if (scheduled.length > 0 && !this.stopped) await this.manager.insert(scheduled);
  };
  installed = true;
}
