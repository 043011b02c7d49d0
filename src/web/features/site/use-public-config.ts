import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';

export interface PublicConfig {
  currency: string;
  supportEmail: string;
}

/** GET /api/v1/config: the currency and the support address, shared by every screen under the 'config' key. */
export function usePublicConfig() {
  return useQuery({ queryKey: ['config'], queryFn: () => api<PublicConfig>('/api/v1/config') });
}
