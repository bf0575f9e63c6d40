/**
 * Unsaved form values per resource and record, kept in sessionStorage so that leaving an edit page and
 * coming back (same tab) finds the changes again (spec 2: edit pages are kept alive). Cleared on save.
 */
export const draftStore = {
  key: (resource: string, id: string | number | undefined) => `engine.draft.${resource}.${id ?? 'create'}`,
  read(key: string): Record<string, unknown> | null {
    try {
      const text = sessionStorage.getItem(key);
      return text ? (JSON.parse(text) as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  },
  write(key: string, values: Record<string, unknown>): void {
    try {
      sessionStorage.setItem(key, JSON.stringify(values));
    } catch {
      // Quota or private mode: the draft then lives as long as the page.
    }
  },
  clear(key: string): void {
    try {
      sessionStorage.removeItem(key);
    } catch {
      // nothing to clear
    }
  },
};
