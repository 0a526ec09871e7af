'use client';

import Link from 'next/link';
import { modelChoice } from '@/lib/recall/model';
import { fmtInt } from '@/lib/format';
import { useRecallStatus } from './client';

/** Model and index status, always shown where recall is used; says plainly when search is keyword-only. */
export function RecallStatusBar({ compact = false }: { compact?: boolean }) {
  const s = useRecallStatus();
  const model = modelChoice(s.modelId);
  const building = s.toEmbed > 0 && s.embedded < s.toEmbed;
  const pct = s.model === 'loading' ? s.modelProgress : building ? s.embedded / s.toEmbed : 1;
  return (
    <div
      className={`recall-status${compact ? ' compact' : ''}`}
      data-testid="recall-status"
      data-model={s.model}
      data-corpus={s.corpus}
      data-building={building ? '1' : '0'}
    >
      <span className={`dot ${s.model === 'ready' ? 'ok' : s.model === 'failed' ? 'danger' : 'warn'}`} aria-hidden />
      <span>
        <b>{model.label.split(' (')[0]}</b>{' '}
        {s.model === 'ready' ? (
          <span className="muted">
            on {s.device === 'webgpu' ? 'WebGPU' : 'WASM'} · {model.dims}-d · in this browser
          </span>
        ) : s.model === 'loading' ? (
          <span className="muted">loading {Math.round(s.modelProgress * 100)}%</span>
        ) : s.model === 'failed' ? null : (
          <span className="muted">not started</span>
        )}
      </span>
      {s.model === 'failed' ? (
        <span className="recall-fallback" role="status" data-testid="recall-fallback">
          Semantic search is unavailable (
          {model.bundled ? s.modelError : `it could not be downloaded from the Hugging Face hub: ${s.modelError}`});
          results are keyword matches only.
          {model.bundled ? null : (
            <>
              {' '}
              <Link href="/settings#recall-model">Settings → Recall model</Link> can go back to the bundled one, which
              needs no network.
            </>
          )}
        </span>
      ) : null}
      <span className="muted">
        {s.corpus === 'failed' ? (
          <span className="danger-text">memory could not be loaded: {s.corpusError}</span>
        ) : s.corpus === 'loading' && !s.items ? (
          'loading memory…'
        ) : (
          <>
            {fmtInt(s.items)} items
            {s.model === 'ready'
              ? building
                ? ` · embedding ${fmtInt(s.embedded)} / ${fmtInt(s.toEmbed)}`
                : ` · all embedded${s.fromCache ? ` (${fmtInt(s.fromCache)} from cache)` : ''}`
              : ''}
          </>
        )}
      </span>
      {(s.model === 'loading' || building) && !compact ? (
        <div
          className="progress"
          style={{ width: 140 }}
          role="progressbar"
          aria-label={s.model === 'loading' ? 'Model download' : 'Index build'}
          aria-valuenow={Math.round(pct * 100)}
          aria-valuemin={0}
          aria-valuemax={100}
        >
          <div style={{ width: `${pct * 100}%` }} />
        </div>
      ) : null}
    </div>
  );
}
