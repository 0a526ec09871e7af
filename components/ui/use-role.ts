'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc/provider';

/**
 * What the person looking may do here, from their role in this project (the server checks every call; this only
 * keeps a viewer from being offered actions that would be refused). Unknown while loading: nothing is hidden yet.
 */
export function useRole() {
  const trpc = useTRPC();
  const info = useQuery(trpc.system.info.queryOptions());
  const role = info.data?.auth.role ?? null;
  return {
    role,
    /** Known, and not allowed: a viewer (or a reviewer, for admin work). */
    viewer: role === 'viewer',
    /** Known, and may decide, label and propose (a reviewer or an admin). */
    reviewer: role === 'reviewer' || role === 'admin',
    notAdmin: role !== null && role !== 'admin',
  };
}
