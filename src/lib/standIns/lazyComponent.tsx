import { lazy, Suspense } from 'react';
import type { ComponentType } from 'react';

/**
 * A component that downloads `load`'s component on its first render and renders nothing until then (the
 * stand-ins of this folder for components no page of the product renders). Props pass through.
 */
export function lazyComponent<P extends object>(name: string, load: () => Promise<ComponentType<P>>) {
  const Real = lazy(() => load().then((component) => ({ default: component })));
  function OnDemand(props: P) {
    return (
      <Suspense fallback={null}>
        <Real {...props} />
      </Suspense>
    );
  }
  OnDemand.displayName = name;
  return OnDemand;
}
