import { BrowserRouter } from 'react-router-dom';
import { AppProviders } from './AppProviders.tsx';
import { queryClient } from './providers/queryClient.ts';
import { AppRoutes } from './routes/AppRoutes.tsx';

/** The whole application in the browser. */
export function App() {
  return (
    <BrowserRouter>
      <AppProviders client={queryClient}>
        <AppRoutes />
      </AppProviders>
    </BrowserRouter>
  );
}
