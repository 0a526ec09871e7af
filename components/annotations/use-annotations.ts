import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '@/components/trpc/provider';

/** The project's score definitions (they change rarely: kept a minute). */
export function useScoreDefinitions() {
  const trpc = useTRPC();
  return useQuery({ ...trpc.annotations.scores.queryOptions(), staleTime: 60_000 });
}

/** Every annotations query (lists, marks, counts, definitions' uses) is stale after a write. */
export function useInvalidateAnnotations() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: trpc.annotations.pathKey() });
}

export function useCreateAnnotation(onDone?: () => void) {
  const trpc = useTRPC();
  const invalidate = useInvalidateAnnotations();
  return useMutation(
    trpc.annotations.create.mutationOptions({
      onSuccess: () => {
        void invalidate();
        onDone?.();
      },
    }),
  );
}

export function useRemoveAnnotation() {
  const trpc = useTRPC();
  const invalidate = useInvalidateAnnotations();
  return useMutation(trpc.annotations.remove.mutationOptions({ onSuccess: () => void invalidate() }));
}
