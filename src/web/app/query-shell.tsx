import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { queryClient } from './query-client';

/**
 * TanStack Query is loaded with the screens that fetch data, not with the landing page, which has to stay
 * within its 100 KB budget.
 */
export default function QueryShell() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
