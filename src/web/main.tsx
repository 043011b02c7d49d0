import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createQueryClient } from './app/query-client';
import { router } from './app/router';
import { REHYDRATE_TIMEOUT_MS } from './lib/constants';
import { whenHydrated } from './lib/store';
import './index.css';

const queryClient = createQueryClient();

await whenHydrated(REHYDRATE_TIMEOUT_MS);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
