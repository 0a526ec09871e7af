import { describe, expect, it } from 'vitest';
import { FIGURE_3 } from './paper-example';
import { CCS_FIELDS } from './contract';
import { normalizeCcs, parseToon, splitTerms, toToon } from './parse';

describe('splitTerms', () => {
  it('keeps nested predicates together and drops connectives', () => {
    expect(splitTerms('timing(502_spikes after(http2_enable)) possible(upstream_timeout 502)')).toEqual([
      'timing(502_spikes after(http2_enable))',
      'possible(upstream_timeout 502)',
    ]);
    expect(splitTerms('mitigate(502) & diagnose(upstream_instability)')).toEqual([
      'mitigate(502)',
      'diagnose(upstream_instability)',
    ]);
  });
  it('drops a run of punctuation alone: a connective, or the stray colon of a line meant as a field', () => {
    expect(splitTerms('a(1) -> b(2) | c(3)')).toEqual(['a(1)', 'b(2)', 'c(3)']);
    expect(parseToon('constraints: no_restart(db)\n: foo\n')).toEqual({ constraints: ['no_restart(db)', 'foo'] });
  });
  it('keeps free text as one term', () => {
    expect(splitTerms('Mitigate the 502 errors, then check the upstream.')).toEqual([
      'Mitigate the 502 errors, then check the upstream.',
    ]);
  });
});

describe('parseToon', () => {
  it("parses the ACC paper's Figure 3 into the nine fields", () => {
    const ccs = parseToon(`user_query:\nWe see 502s.\n\nccs_t:\n\n${FIGURE_3}`);
    expect(Object.keys(ccs)).toEqual([...CCS_FIELDS]);
    expect(ccs.constraints).toEqual([
      'no_restart(nginx)',
      'reload_allowed(nginx)',
      'safe_change(minimal)',
      'avoid(speculation)',
    ]);
    expect(ccs.episodic_trace).toContain('observed(502_spikes after(enable(http2)))');
    expect(ccs.retrieved_artifacts).toHaveLength(3);
  });
  it('joins a term the PDF hyphenated across lines', () => {
    expect(parseToon('focal_entities:\nfeature(http2) sig-\nnal(error_502)').focal_entities).toEqual([
      'feature(http2)',
      'signal(error_502)',
    ]);
  });
  it('reads terms on the field line itself', () => {
    expect(parseToon('constraints: no_restart(nginx) avoid(speculation)\ngoal_orientation: reduce(502_rate)')).toEqual({
      constraints: ['no_restart(nginx)', 'avoid(speculation)'],
      goal_orientation: ['reduce(502_rate)'],
    });
  });
  it("keeps an agent's own field with terms on its line apart, instead of folding it into the field above", () => {
    const ccs = parseToon(
      [
        'constraints: no_restart(nginx)',
        'reviewer_note: check(upstream_timeouts)',
        '  cite(runbook)', // indented: continues the field above, as any line that is not a field
        'https://runbooks.example/nginx', // a URL is not a field named https
        'goal_orientation: reduce(502_rate)',
      ].join('\n'),
    );
    expect(ccs).toEqual({
      constraints: ['no_restart(nginx)'],
      reviewer_note: ['check(upstream_timeouts)', 'cite(runbook)', 'https://runbooks.example/nginx'],
      goal_orientation: ['reduce(502_rate)'],
    });
  });
});

describe('normalizeCcs', () => {
  it('renders JSON and TOON forms of the same state alike', () => {
    const json = normalizeCcs({
      constraints: ['no_restart(nginx)', 'reload_allowed(nginx)'],
      semantic_gist: 'mitigate(502) & diagnose(x)',
      uncertainty_signal: null,
    });
    const toon = normalizeCcs(
      'constraints: no_restart(nginx) reload_allowed(nginx)\nsemantic_gist: mitigate(502) & diagnose(x)',
    );
    expect(json).toEqual(toon);
  });
  it('round-trips through the text notation', () => {
    const ccs = parseToon(FIGURE_3);
    expect(parseToon(toToon(ccs))).toEqual(ccs);
  });
});
