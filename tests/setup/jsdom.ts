import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy*/waitFor give up after 1 s by default; lazy chunks and i18n bundles load slower than that on a
// busy 2-core CI machine (a lazy dialog took over 5 s at load 25). A longer wait costs nothing when the
// element appears early; the test's own 30 s limit stays the outer bound.
configure({ asyncUtilTimeout: 15_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
});
