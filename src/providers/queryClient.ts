import { QueryClient } from '@tanstack/react-query';

/**
 * The app's single react-query cache. The guard, the header and the authProvider all read the profile and the
 * site config through it, so one request serves all of them. react-admin receives the same client.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
  },
});
