'use client';

import { useState } from 'react';
import { MODELS } from '@/lib/recall/model';
import { chooseModel, chosenModel } from '@/components/recall/client';
import { Panel } from '@/components/ui/panel';
import { RecallStatusBar } from '@/components/recall/status-bar';
import { useRecallStarted } from '@/components/recall/use-recall';

/** Which embedding model recall uses in this browser: the bundled one (offline), or a larger hub model. */
export function RecallModel() {
  useRecallStarted();
  const [model, setModel] = useState(() => (typeof window === 'undefined' ? MODELS[0]!.id : chosenModel()));
  return (
    <Panel heading title="Recall model" id="recall-model" bodyProps={{ style: { display: 'grid', gap: 10 } }}>
      {MODELS.map((m) => (
        <label key={m.id} style={{ display: 'flex', gap: 8, alignItems: 'baseline' }}>
          <input
            type="radio"
            name="recall-model"
            checked={model === m.id}
            onChange={() => {
              setModel(m.id);
              chooseModel(m.id);
            }}
          />
          <span>
            <b>{m.label}</b>{' '}
            <span className="muted">
              · {m.dims}-d · ~{m.sizeMb} MB
              {m.bundled
                ? ' · served by this app'
                : ' · downloaded once from huggingface.co, then cached by the browser'}
            </span>
          </span>
        </label>
      ))}
      <div className="muted" style={{ fontSize: 12 }}>
        Either way the model runs in this browser and memory text is never sent anywhere. Switching re-embeds every item
        once; vectors are cached per model.
      </div>
      <RecallStatusBar />
    </Panel>
  );
}
