import { describe, expect, it } from 'vitest';
import { gadgets } from '../../../tests/fixtures/gadgets.ts';
import type { Anchor } from './anchors.ts';
import { planPage, type PlanInputs } from './plan.ts';
import { parseListQuery, type RawQuery } from './query.ts';
import type { Total } from './totals.ts';

/**
 * The list planner alone: which statement a page is read with, the total it reports and what it leaves to
 * remember, for each way of asking (the integration tests engine-keyset and engine-page-anchors prove the
 * rows those plans read against a real database).
 */
const exact = (total: number): Total => ({ total, isEstimate: false, isCapped: false });
const nothingKnown: PlanInputs = { cursor: null, total: null, anchors: null };

function plan(raw: RawQuery, known: Partial<PlanInputs> = {}) {
  return planPage(gadgets, parseListQuery(gadgets, raw), { ...nothingKnown, ...known });
}

function anchor(pos: number, next: boolean | null = true, system: Anchor['system'] = 'start'): Anchor {
  return { system, pos, keys: [String(pos), String(pos)], next };
}

describe('planPage', () => {
  it('the first page: in order from the start, one row more, counted beside it (or not, for a short like)', () => {
    const read = { isReversed: false, from: null, offset: 0, count: 20, more: null };
    expect(plan({ size: '20' })).toEqual({
      page: 1,
      read,
      plainRead: null,
      total: { kind: 'count' },
      remember: null,
    });
    expect(plan({ size: '20', q: 'b' }).total).toEqual({ kind: 'seen' });
  });

  it('after a cursor: from its keys, its page, the total it carries', () => {
    const cursor = { keys: ['7', '9'], page: 4, total: exact(300) };
    const p = plan({ size: '20', page: '50' }, { cursor });
    expect(p.page).toBe(4);
    expect(p.read).toEqual({
      isReversed: false,
      from: { keys: ['7', '9'], source: 'cursor' },
      offset: 0,
      count: 20,
      more: null,
    });
    expect(p.total).toEqual({ kind: 'known', total: exact(300) });
    expect(plan({ size: '20', q: 'b' }, { cursor }).total).toEqual({ kind: 'seen' });
  });

  it('a page in the first half walks from the start; in the second half of an exact total, from the end', () => {
    const near = plan({ size: '20', page: '3' }, { total: exact(1000) });
    expect(near.read).toEqual({ isReversed: false, from: null, offset: 40, count: 20, more: null });
    expect(near.total).toEqual({ kind: 'known', total: exact(1000) });
    // Page 45 of 1,000 rows: rows 880..899, 100 rows after them.
    const far = plan({ size: '20', page: '45' }, { total: exact(1000) });
    expect(far.read).toEqual({ isReversed: true, from: null, offset: 100, count: 20, more: true });
    // The last page is short and nothing follows it.
    const last = plan({ size: '30', page: '34' }, { total: exact(1000) });
    expect(last.read).toEqual({ isReversed: true, from: null, offset: 0, count: 10, more: false });
  });

  it('an estimated total counts the second half from the end; a capped one or a page past the end from the start', () => {
    const estimate = { total: 1000, isEstimate: true, isCapped: false };
    const p = plan({ size: '20', page: '45' }, { total: estimate, anchors: [] });
    expect(p.read).toEqual({ isReversed: true, from: null, offset: 100, count: 20, more: true });
    expect(p.remember).toBeNull();
    const capped = { total: 10_000, isEstimate: false, isCapped: true };
    expect(plan({ size: '20', page: '400' }, { total: capped }).read.offset).toBe(7980);
    expect(plan({ size: '20', page: '60' }, { total: exact(1000) }).read).toEqual({
      isReversed: false,
      from: null,
      offset: 1180,
      count: 20,
      more: null,
    });
  });

  it('a short like is not counted: its deep pages walk from the start and report what was seen', () => {
    const p = plan({ size: '20', page: '10', q: 'b' });
    expect(p.read).toEqual({ isReversed: false, from: null, offset: 180, count: 20, more: null });
    expect(p.total).toEqual({ kind: 'seen' });
  });

  it('starts from the nearest anchor ahead or behind, keeping the plain read to fall back on', () => {
    const total = exact(100_000);
    // Page 200 of 25: rows 4975..4999.
    const raw = { size: '25', page: '200' };
    const behind = plan(raw, { total, anchors: [anchor(4000), anchor(4970)] });
    expect(behind.read).toMatchObject({ isReversed: false, offset: 5, more: null });
    expect(behind.read.from).toEqual({ keys: ['4970', '4970'], source: 'anchor' });
    expect(behind.plainRead).toEqual({ isReversed: false, from: null, offset: 4975, count: 25, more: null });
    const ahead = plan(raw, { total, anchors: [anchor(4970), anchor(5001, null)] });
    // Backward from row 5001: whether rows follow the page is known (row 5001 does).
    expect(ahead.read).toMatchObject({ isReversed: true, offset: 2, count: 25, more: true });
    // An anchor on the page's last row that does not know what follows cannot answer `more`.
    const unknown = plan(raw, { total, anchors: [anchor(4999, null)] });
    expect(unknown.read.from).toBeNull();
    expect(unknown.plainRead).toBeNull();
    // Anchors counted from the end do not place a page counted from the start.
    expect(plan(raw, { total, anchors: [anchor(4975, true, 'end')] }).read.from).toBeNull();
  });

  it('the plain way wins a tie; the page is remembered when its plain read walks 1,000 rows or more', () => {
    const total = exact(100_000);
    const tie = plan({ size: '25', page: '2' }, { total, anchors: [anchor(0)] });
    expect(tie.read.from).toBeNull();
    expect(tie.remember).toBeNull();
    const deep = plan({ size: '25', page: '41' }, { total, anchors: [] });
    expect(deep.remember).toEqual({ system: 'start', at: 1000 });
    expect(plan({ size: '25', page: '40' }, { total, anchors: [] }).remember).toBeNull();
    // No anchors may be kept for this query (null): nothing to remember.
    expect(plan({ size: '25', page: '41' }, { total }).remember).toBeNull();
  });

  it('a counted page past the first cannot be planned without its total', () => {
    expect(() => plan({ size: '20', page: '501' })).toThrow(/needs its total/);
  });

  it('a page ending within the count cap is read from the start first, counted after (issue 37)', () => {
    const p = plan({ size: '20', page: '500' });
    expect(p.read).toEqual({ isReversed: false, from: null, offset: 9980, count: 20, more: null });
    expect(p.total).toEqual({ kind: 'count' });
  });
});
