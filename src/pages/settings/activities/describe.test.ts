import { beforeAll, describe, expect, it } from 'vitest';
import { i18n, initI18n, loadAdminMessages } from '../../../i18n/i18n.ts';
import { catalogs } from '../../../../locales/index.ts';
import {
  KNOWN_ACTIONS,
  actionChoices,
  actionLabel,
  changeLines,
  permissionLabel,
  subjectOf,
  withheldText,
  type ActivityRow,
} from './describe.ts';

const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options);

beforeAll(async () => {
  await initI18n('en');
  await loadAdminMessages(['settings']);
});

const staffUpdate: ActivityRow = {
  id: '9',
  action: 'staff.update',
  subject_type: 'staff',
  subject_id: '2',
  subject: { label: 'Li Lei', deleted: false },
  names: { roles: { '1': 'Auditors', '3': 'Editors' }, departments: { '2': 'Sales' } },
  changes: {
    role_ids: [['1'], ['1', '3']],
    department_id: [null, '2'],
    is_admin: [0, 1],
    state: [true, false],
    gender: ['unknown', 'female'],
  },
};

describe('activity rows in words', () => {
  it("reads an account event's list of two as what was added, not as before -> after", () => {
    const register: ActivityRow = {
      id: '10',
      action: 'auth.register',
      subject_type: 'users',
      subject_id: '5',
      subject: { label: 'erin', deleted: false },
      names: { roles: { '1': 'Auditors', '3': 'Editors' } },
      changes: { method: 'oidc', role_ids: [[], ['1', '3']] },
    };
    const roles = changeLines(t, register, 'en').find((l) => l.field === 'role_ids')!;
    expect(roles.added).toEqual(['Auditors', 'Editors']);
    expect(roles.removed).toEqual([]);
  });

  it('names actions in both languages', async () => {
    expect(actionLabel(t, 'staff.create', 'en')).toBe('Created staff member');
    expect(actionLabel(t, 'roles.delete', 'en')).toBe('Deleted role');
    expect(actionLabel(t, 'auth.login', 'en')).toBe('Signed in');
    expect(actionLabel(t, 'settings.update', 'en')).toBe('Changed settings');
    expect(actionLabel(t, 'something.odd', 'en')).toBe('something.odd');
    await i18n.changeLanguage('zh-CN');
    await loadAdminMessages(['settings']);
    try {
      expect(actionLabel(t, 'staff.create', 'zh-CN')).toBe('新建员工');
      expect(actionLabel(t, 'auth.login', 'zh-CN')).toBe('登录');
      const lines = changeLines(t, staffUpdate, 'zh-CN');
      expect(lines.find((l) => l.field === 'is_admin')).toMatchObject({
        label: '管理员',
        before: '否',
        after: '是',
      });
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('offers every action by its name for the action filter, in both languages', async () => {
    for (const catalog of Object.values(catalogs)) {
      const events = Object.entries(
        (catalog.app as { activity: { actions: Record<string, object> } }).activity.actions,
      ).flatMap(([group, names]) => Object.keys(names).map((name) => `${group}.${name}`));
      expect([...events].sort()).toEqual([...KNOWN_ACTIONS].sort());
    }
    const en = actionChoices(t, 'en');
    expect(en).toContainEqual({ id: 'staff.create', name: 'Created staff member' });
    expect(en).toContainEqual({ id: 'auth.login', name: 'Signed in' });
    expect(en.map((c) => c.name)).toEqual(
      [...en.map((c) => c.name)].sort((a, b) => a.localeCompare(b, 'en')),
    );
    // Every name is words, never a raw key; the log itself is not audited.
    expect(en.filter((c) => c.name === c.id)).toEqual([]);
    expect(en.some((c) => c.id.startsWith('activities.'))).toBe(false);
    await i18n.changeLanguage('zh-CN');
    try {
      const zh = actionChoices(t, 'zh-CN');
      expect(zh).toContainEqual({ id: 'staff.create', name: '新建员工' });
      expect(zh).toContainEqual({ id: 'auth.login', name: '登录' });
      expect(zh.filter((c) => c.name === c.id)).toEqual([]);
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('links the subject by its representation, and says when it is gone', () => {
    expect(subjectOf(t, staffUpdate)).toEqual({ text: 'Li Lei', to: '/settings/staff/2', deleted: false });
    expect(subjectOf(t, { ...staffUpdate, subject: { label: null, deleted: true } })).toEqual({
      text: 'Staff member #2',
      to: null,
      deleted: true,
    });
    expect(
      subjectOf(t, { id: '1', action: 'settings.update', subject_type: 'settings', subject_id: 'site' }),
    ).toEqual({ text: 'Settings · Site', to: '/settings', deleted: false });
  });

  it('shows changes with labels, names, enum labels and Yes/No', () => {
    const lines = changeLines(t, staffUpdate, 'en');
    const by = (field: string) => lines.find((l) => l.field === field);
    expect(by('role_ids')).toMatchObject({
      label: 'Roles',
      after: 'Auditors, Editors',
      added: ['Editors'],
      removed: [],
    });
    expect(by('department_id')).toMatchObject({ label: 'Department', before: '—', after: 'Sales' });
    expect(by('is_admin')).toMatchObject({ label: 'Administrator', before: 'No', after: 'Yes' });
    expect(by('state')).toMatchObject({ label: 'Enabled', before: 'Yes', after: 'No' });
    expect(by('gender')).toMatchObject({ label: 'Gender', before: 'Unknown', after: 'Female' });
    const texts = lines.flatMap((l) => [l.before, l.after, ...(l.added ?? []), ...(l.removed ?? [])]);
    for (const text of texts) expect(text).not.toMatch(/[[{"]/);
  });

  it("leaves out the version a record's update numbers its history with", () => {
    const lines = changeLines(
      t,
      { ...staffUpdate, changes: { ...staffUpdate.changes, version: [3, 4] } },
      'en',
    );
    expect(lines.map((l) => l.field)).not.toContain('version');
    expect(lines.map((l) => l.field)).toContain('state');
  });

  it('shows an inline list by its items, added and removed, and leaves out the operation link', () => {
    const lines = changeLines(
      t,
      {
        ...staffUpdate,
        changes: {
          parts: [
            [{ id: '1', name: 'Bolt' }],
            [
              { id: '1', name: 'Bolt' },
              { id: '2', name: 'Nut' },
            ],
          ],
          operation_id: '7',
        },
      },
      'en',
    );
    expect(lines.map((l) => l.field)).toEqual(['parts']);
    expect(lines[0]).toMatchObject({ added: ['id: 2; name: Nut'], removed: [] });
  });

  it('shows permission lists as page names, added and removed', () => {
    const row: ActivityRow = {
      id: '3',
      action: 'roles.update',
      subject_type: 'roles',
      subject_id: '4',
      changes: {
        permissions: [
          { menu_ids: ['system.users', 'system.users.staff'] },
          { menu_ids: ['system.users', 'system.users.staff.create', 'system.system.logs'] },
        ],
      },
    };
    const [line] = changeLines(t, row, 'en');
    expect(line).toMatchObject({
      label: 'Permissions',
      added: ['Staff · Create', 'Logs'],
      removed: ['Staff'],
    });
    expect(line!.after).not.toContain('menu_ids');
    expect(permissionLabel(t, 'system.users')).toBe('User');
  });

  it('names the changed fields whose values were withheld, without values, in both languages', async () => {
    const row: ActivityRow = {
      id: '6',
      action: 'roles.update',
      subject_type: 'roles',
      subject_id: '4',
      changes: {},
      changes_withheld: ['name', 'permissions'],
    };
    expect(changeLines(t, row, 'en')).toEqual([]);
    expect(withheldText(t, row)).toBe('Changed, values not shown: Name, Permissions');
    expect(withheldText(t, { ...row, changes_withheld: [] })).toBeNull();
    expect(withheldText(t, { ...row, changes_withheld: undefined })).toBeNull();
    await i18n.changeLanguage('zh-CN');
    await loadAdminMessages(['settings']);
    try {
      expect(withheldText(t, row)).toBe('已更改（无权查看内容）：名称, 权限');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it("names the records an event's own fields point at, as the first administrator's entry", () => {
    const row: ActivityRow = {
      id: '1',
      action: 'system.bootstrap',
      subject_type: 'users',
      subject_id: '1',
      changes: { username: [null, 'admin'], staff_id: [null, 1] },
      names: { staff: { '1': 'admin' } },
    };
    expect(changeLines(t, row, 'en')).toContainEqual({
      field: 'staff_id',
      label: 'Staff record',
      before: '—',
      after: 'admin',
    });
    // A reader who may not read staff gets no name: the id is marked as one, never a bare figure.
    expect(changeLines(t, { ...row, names: {} }, 'en')[1]?.after).toBe('#1');
    const signUp: ActivityRow = {
      id: '2',
      action: 'auth.register',
      subject_type: 'users',
      subject_id: '2',
      changes: { role_ids: ['4'] },
      names: { roles: { '4': 'Editors' } },
    };
    expect(changeLines(t, signUp, 'en')[0]).toMatchObject({ label: 'Roles', after: 'Editors' });
  });

  it('reads account events, whose changes are plain values', () => {
    const row: ActivityRow = {
      id: '5',
      action: 'auth.login_failed',
      subject_type: 'users',
      subject_id: '7',
      changes: { reason: 'wrong_password' },
    };
    expect(changeLines(t, row, 'en')).toEqual([
      { field: 'reason', label: 'Reason', before: null, after: 'Wrong password' },
    ]);
  });
});
