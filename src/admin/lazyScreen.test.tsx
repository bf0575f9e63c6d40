import { render, screen } from '@testing-library/react';
import { Suspense, type ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { lazyScreen } from './lazyScreen.ts';

/** A module load the test settles by hand, counting how often it was started. */
function manualModule() {
  const calls: { resolve: (m: { Page: () => ReactElement }) => void; reject: (e: Error) => void }[] = [];
  const load = () =>
    new Promise<{ Page: () => ReactElement }>((resolve, reject) => calls.push({ resolve, reject }));
  return { calls, load };
}

const Page = () => <p>the screen</p>;

describe('lazyScreen', () => {
  it('preload starts the one download the first render then uses', async () => {
    const { calls, load } = manualModule();
    const Screen = lazyScreen(load, (m) => m.Page);
    Screen.preload();
    Screen.preload();
    expect(calls).toHaveLength(1);
    render(
      <Suspense fallback={<p>loading</p>}>
        <Screen />
      </Suspense>,
    );
    expect(screen.getByText('loading')).toBeTruthy();
    calls[0]!.resolve({ Page });
    expect(await screen.findByText('the screen')).toBeTruthy();
    expect(calls).toHaveLength(1);
  });

  it('a failed preload is not kept: rendering downloads the screen again', async () => {
    const { calls, load } = manualModule();
    const Screen = lazyScreen(load, (m) => m.Page);
    Screen.preload();
    calls[0]!.reject(new Error('offline'));
    // Let the rejection settle before the screen renders.
    await new Promise((resolve) => setTimeout(resolve, 0));
    render(
      <Suspense fallback={<p>loading</p>}>
        <Screen />
      </Suspense>,
    );
    expect(calls).toHaveLength(2);
    calls[1]!.resolve({ Page });
    expect(await screen.findByText('the screen')).toBeTruthy();
  });
});
