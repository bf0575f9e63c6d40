import type { ReactNode } from 'react';
import { useCan } from '../providers/useCan.ts';

/** Spec 6's permission directive: renders its children only when `name` is held, otherwise nothing. */
export function Can({ name, children }: { name: string; children: ReactNode }) {
  return useCan(name) ? <>{children}</> : null;
}
