'use client';

import * as Tabs from '@radix-ui/react-tabs';
import type { ReactNode } from 'react';
import { CodeBlock } from '@/components/ui/code-block';

export interface ExampleTab {
  id: string;
  label: string;
  intro: ReactNode;
  blocks: { label: string; code: string }[];
}

/** One way in per tab (arrow keys move between them), each with the files it runs, as shipped. */
export function ExampleTabs({ tabs, label }: { tabs: ExampleTab[]; label: string }) {
  return (
    <Tabs.Root defaultValue={tabs[0]?.id} className="example-tabs">
      <Tabs.List className="tabs" aria-label={label}>
        {tabs.map((t) => (
          <Tabs.Trigger key={t.id} value={t.id} className="tab">
            {t.label}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {tabs.map((t) => (
        <Tabs.Content key={t.id} value={t.id} className="example-tab" data-testid={`connect-${t.id}`}>
          <p className="muted" style={{ margin: '8px 0 0' }}>
            {t.intro}
          </p>
          {t.blocks.map((b) => (
            <CodeBlock key={b.label} label={b.label} code={b.code} />
          ))}
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
