import * as z from 'zod';
import { AppError } from '../../core/errors.ts';
import { wireTime } from '../../../schemas/wire.ts';
import { departments } from '../../../resources/departments.ts';
import { staff } from '../../../resources/staff.ts';
import { asSystem } from '../../engine/system-access.ts';
import { subtreeFilter, type ResourceHooks, type WriteEvent } from '../../engine/hooks.ts';
import {
  assertCanManageStaff,
  assertHoldsAll,
  assertNotLastAdmin,
  forbidden,
  isAdmin,
  namesOfRoles,
  principalOf,
} from './guards.ts';
import { issueInvitation } from './invitations.ts';

const sameIds = (a: unknown, b: unknown) =>
  JSON.stringify([...((a as string[]) ?? [])].map(String).sort()) ===
  JSON.stringify([...((b as string[]) ?? [])].map(String).sort());

/**
 * Staff rules: only administrators set is_admin or touch an administrator; roles given must grant only
 * names the caller holds; nobody changes their own roles, disables or deletes themselves; the last
 * administrator stays. A new record gets an invitation link; reads add `registered`.
 */
export const staffHooks: ResourceHooks = {
  async beforeWrite(event) {
    const principal = principalOf(event.actor);
    const { tx, data, before } = event;
    const isSelf = before !== null && before.id === principal.staff.id;
    if (before) await assertCanManageStaff(tx, principal, before.id);

    if (event.action === 'delete') {
      if (isSelf) throw forbidden('self');
      if (isEnabledAdmin(before)) await assertNotLastAdmin(tx, before!.id);
      return;
    }
    const wantsAdmin = 'is_admin' in data && Number(data.is_admin) !== Number(before?.is_admin ?? 0);
    if (wantsAdmin && !isAdmin(principal)) throw forbidden('set_admin');
    if ('role_ids' in data && !sameIds(data.role_ids, before?.role_ids ?? [])) {
      if (isSelf) throw forbidden('own_roles');
      const added = (data.role_ids as string[]).filter((id) => !(before?.role_ids as string[])?.includes(id));
      if (!isAdmin(principal)) assertHoldsAll(principal, await namesOfRoles(tx, added));
    }
    if (isSelf && data.state === false) throw forbidden('self');
    const demotes = (wantsAdmin && Number(data.is_admin) === 0) || data.state === false;
    if (demotes && isEnabledAdmin(before)) await assertNotLastAdmin(tx, before!.id);
  },

  async afterWrite(event: WriteEvent & { id: string }) {
    if (event.action !== 'create') return;
    return issueInvitation(event.tx, { staffId: event.id, origin: event.actor.origin ?? '' });
  },

  answers: {
    read: {
      registered: z.boolean().describe('whether a user account has joined this staff record'),
      invitation_url: z.string().nullable().describe('the invitation link, answered only by the create'),
      invitation_expires_at: wireTime
        .nullable()
        .describe('when the current invitation link expires (null once joined or never issued)'),
    },
    create: {
      invitation_url: z.string().describe('the link the new member registers with (shown once)'),
      invitation_expires_at: wireTime,
    },
  },

  async afterRead({ db, records }) {
    const waiting = records.filter((r) => r.user_id === null || r.user_id === undefined).map((r) => r.id);
    // The staff page shows when the link expires (issue 34, item 8); only the unregistered have one.
    const expiries = new Map<string, unknown>();
    if (waiting.length > 0) {
      const rows = await asSystem(db).list<{ id: unknown; invitation_expires_at: unknown }>(staff, {
        where: { id: { in: waiting } },
        columns: ['id', 'invitation_expires_at'],
      });
      for (const row of rows) expiries.set(String(row.id), row.invitation_expires_at);
    }
    for (const record of records) {
      record.registered = record.user_id !== null && record.user_id !== undefined;
      record.invitation_url = null;
      const expires = expiries.get(String(record.id));
      record.invitation_expires_at =
        expires instanceof Date ? expires.toISOString() : ((expires as string) ?? null);
    }
  },

  filters: {
    // A department includes its sub-departments.
    department_id: subtreeFilter(departments),
  },
};

function isEnabledAdmin(record: Record<string, unknown> | null): boolean {
  return record !== null && Number(record.is_admin) === 1 && record.state === true;
}

/** 409 when a staff record already belongs to a user (no new invitation for it). */
export function alreadyRegistered(): AppError {
  return new AppError(409, 'settings.people.errors.already_registered');
}
