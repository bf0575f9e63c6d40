import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy*/waitFor give up after 1 s by default; lazy chunks and i18n bundles load slower than that on a
// busy 2-core CI machine. A longer wait costs nothing when the element appears early.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
});
