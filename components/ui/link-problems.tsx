import { MemoryText } from './memory-text';

/** What a page's address names that the page cannot use, said above it (the defaults stand in for each). */
export function LinkProblems({ problems, testId }: { problems: readonly string[]; testId: string }) {
  if (!problems.length) return null;
  return (
    <div className="banner warn" role="status" data-testid={testId}>
      Not used from the link: <MemoryText text={problems.join('; ')} />.
    </div>
  );
}
