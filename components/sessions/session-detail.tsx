'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { Fragment, useState } from 'react';
import { useTRPC } from '@/components/trpc/provider';
import { Sparkline } from '@/components/ui/sparkline';
import { EmptyState, ErrorBox, SkeletonRows } from '@/components/ui/states';
import { MemoryText } from '@/components/ui/memory-text';
import { fmtDateTime, fmtDuration, fmtInt, fmtRate, fmtScore, fmtTime, fmtTokens, mean } from '@/lib/format';
import { CcsView } from './ccs-view';

const refId = (r: unknown) => (typeof r === 'string' ? r : ((r as { id?: string })?.id ?? '?'));

export function SessionDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const session = useQuery(trpc.session.byId.queryOptions({ id }));
  const turns = useQuery(trpc.session.turns.queryOptions({ id }));
  const [open, setOpen] = useState<number | null>(null);

  if (session.error) return <ErrorBox error={session.error} />;
  const t = turns.data ?? [];
  const first = t[0]?.timestamp;
  const last = t.at(-1)?.timestamp;
  const judgeMeans = t.map((x) => mean(Object.values(x.judge ?? {})));

  return (
    <>
      <div className="crumbs">
        <Link href="/sessions">Sessions</Link> / <span className="mono">{id}</span>
      </div>
      <div className="page-head">
        <div>
          <h1>{session.data?.title ?? id}</h1>
          <div className="sub">
            <span className="mono">{session.data?.agentId ?? '…'}</span>
            {session.data?.domain ? <> · {session.data.domain.replace(/_/g, ' ')}</> : null}
            {first ? <> · {fmtDateTime(first)} · {fmtDuration(last && first ? Date.parse(last) - Date.parse(first) : null)}</> : null}
          </div>
        </div>
      </div>
      <div className="panel" style={{ marginBottom: 14 }}>
        <div className="panel-body stats">
          <div className="stat"><div className="label">Turns</div><div className="value">{fmtInt(t.length)}</div></div>
          <div className="stat"><div className="label">Last CCS</div><div className="value">{fmtTokens(t.at(-1)?.footprint?.ccs)}</div></div>
          <div className="stat"><div className="label">Last transcript</div><div className="value">{fmtTokens(t.at(-1)?.footprint?.transcript)}</div></div>
          <div className="stat"><div className="label">Mean judge</div><div className="value">{fmtScore(mean(judgeMeans))}</div></div>
          <div className="stat"><div className="label">Mean H_t</div><div className="value">{fmtRate(mean(t.map((x) => x.hallucination)))}</div></div>
          <div className="stat"><div className="label">Mean D_t</div><div className="value">{fmtRate(mean(t.map((x) => x.drift)))}</div></div>
          <div className="stat">
            <div className="label">
              Footprint per turn{' '}
              <span className="legend">
                <span><i style={{ background: 'var(--series-1)' }} />CCS</span>
                <span><i style={{ background: 'var(--series-2)' }} />transcript</span>
                <span><i style={{ background: 'var(--series-3)' }} />retrieval</span>
              </span>
            </div>
            <Sparkline
              width={360}
              height={40}
              label="Memory footprint per turn in tokens"
              series={[
                { key: 'ccs', values: t.map((x) => x.footprint?.ccs ?? null) },
                { key: 'transcript', values: t.map((x) => x.footprint?.transcript ?? null) },
                { key: 'retrieval', values: t.map((x) => x.footprint?.retrieval ?? null) },
              ]}
            />
          </div>
        </div>
      </div>
      {turns.error ? <ErrorBox error={turns.error} /> : null}
      <div className="panel">
        <table className="data" data-testid="turns-table">
          <thead>
            <tr>
              <th className="num">#</th>
              <th>Time</th>
              <th>Input x_t</th>
              <th>Output</th>
              <th className="num">CCS</th>
              <th className="num">Recalled → let in</th>
              <th className="num">Judge</th>
              <th className="num">H_t</th>
              <th className="num">D_t</th>
            </tr>
          </thead>
          {turns.isPending ? (
            <SkeletonRows cols={9} />
          ) : (
            <tbody>
              {t.map((x, i) => (
                <Fragment key={x.turn}>
                  <tr className="clickable" onClick={() => setOpen(open === x.turn ? null : x.turn)} aria-expanded={open === x.turn} data-turn={x.turn}>
                    <td className="num mono">{x.turn}</td>
                    <td className="nowrap mono">{fmtTime(x.timestamp)}</td>
                    <td><MemoryText className="clip" text={x.input} /></td>
                    <td><MemoryText className="clip" text={x.output} /></td>
                    <td className="num">{fmtTokens(x.footprint?.ccs)}</td>
                    <td className="num">{x.recalled.length} → {x.qualified.length}</td>
                    <td className="num">{fmtScore(judgeMeans[i])}</td>
                    <td className="num">{fmtRate(x.hallucination)}</td>
                    <td className="num">
                      {fmtRate(x.drift)}
                      {x.redactions.length ? <div><span className="badge warn" title="Secrets were redacted before storage">redacted</span></div> : null}
                    </td>
                  </tr>
                  {open === x.turn ? (
                    <tr>
                      <td />
                      <td colSpan={8}>
                        <div className="grid-2" style={{ padding: '6px 0 10px' }}>
                          <div>
                            <div className="muted" style={{ marginBottom: 4 }}>Input</div>
                            <MemoryText className="pre" text={x.input} />
                            <div className="muted" style={{ margin: '10px 0 4px' }}>Output</div>
                            <MemoryText className="pre" text={x.output} />
                            <div className="muted" style={{ margin: '10px 0 4px' }}>Recalled A_t → qualified A_t+</div>
                            {x.recalled.map((r) => {
                              const id = refId(r);
                              const kept = x.qualified.some((q) => refId(q) === id);
                              return (
                                <span key={id} className={`badge ${kept ? 'ok' : ''}`} style={{ marginRight: 4 }} title={kept ? 'let in' : 'kept out'}>
                                  {kept ? '✓' : '✗'} {id}
                                </span>
                              );
                            })}
                          </div>
                          <div>
                            <div className="muted" style={{ marginBottom: 4 }}>CCS_t</div>
                            <CcsView ccs={x.ccs} />
                          </div>
                        </div>
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              ))}
            </tbody>
          )}
        </table>
        {turns.data && !turns.data.length ? <EmptyState title="This session has no turns yet" /> : null}
      </div>
    </>
  );
}
