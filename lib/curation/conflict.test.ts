import { describe, expect, it } from 'vitest';
import { relation } from './conflict';

describe('relation: the curator paper’s κ(e, m) by word rules', () => {
  it('calls one changed value, choice, polarity or opposite in one frame conflicting, and says which', () => {
    const k = (a: string, b: string) => relation(a, b);
    expect(k('The API rate limit is 100 requests a minute.', 'The API rate limit is 200 requests a minute.')).toEqual({
      relation: 'conflicting',
      because: 'another value (100 / 200)',
    });
    expect(k('Production alerts are routed to PagerDuty.', 'Production alerts are routed to Opsgenie.')).toEqual({
      relation: 'conflicting',
      because: 'another choice (PagerDuty / Opsgenie)',
    });
    expect(k('Invoices are stored in PostgreSQL.', 'Invoices are stored in MongoDB.')).toEqual({
      relation: 'conflicting',
      because: 'another value (PostgreSQL / MongoDB)',
    });
    expect(k('Docker images are signed before release.', 'Docker images are not signed before release.')).toEqual({
      relation: 'conflicting',
      because: 'one negates the other (— / not)',
    });
    expect(k('Deploys run before the migration.', 'Deploys run after the migration.')).toMatchObject({
      relation: 'conflicting',
      because: 'opposite words (before / after)',
    });
  });

  it('calls template siblings about another subject unrelated, as a walk’s 120 shard facts were not', () => {
    // One word swapped at the start is another subject; common words swapped later, other things both can hold.
    expect(relation('The billing API retries three times.', 'The billing worker retries three times.')).toEqual({
      relation: 'unrelated',
      because: 'about another subject (API / worker)',
    });
    expect(relation('The payments team owns the checkout API.', 'The payments team owns the refunds API.')).toEqual({
      relation: 'compatible',
      because: 'about other things, which both can hold (checkout / refunds)',
    });
    const shard = (n: number) => `shard ${n} runs on port ${8000 + n} in us-east-${(n % 3) + 1} behind lb-${n % 4}`;
    for (let n = 1; n < 120; n++) expect(relation(shard(0), shard(n)).relation, shard(n)).toBe('unrelated');
    expect(
      relation(
        'The iOS app build takes about 18 minutes on CI.',
        'The Android app build takes about 11 minutes on CI.',
      ),
    ).toEqual({ relation: 'unrelated', because: 'about another subject (iOS / Android; 18 minutes / 11 minutes)' });
  });

  it('calls a statement that says more, numbers of other things, or a rewording compatible', () => {
    expect(relation('Backups run nightly.', 'Backups run nightly at 02:00 UTC.').relation).toBe('compatible');
    expect(
      relation('The Fairview account has 1,200 licensed seats.', 'The Fairview account has 3 open support tickets.'),
    ).toEqual({ relation: 'compatible', because: 'numbers of other things' });
    expect(
      relation(
        'The Berlin office closes between Christmas and New Year.',
        'The Berlin office closes between Christmas and New Year, and staff do not need to use vacation days for it.',
      ).relation,
    ).toBe('compatible');
    expect(relation('Sessions expire after two hours.', 'Sessions expire after 120 minutes.').relation).toBe(
      'compatible',
    );
  });

  it('opposes rewordings only by an opposite word or another value of one measure', () => {
    expect(relation('The cache holds entries for 5 minutes.', 'Entries stay cached 10 minutes.').relation).toBe(
      'conflicting',
    );
    expect(
      relation(
        'The chatbot hands over to a human after two unanswered questions.',
        'After 2 questions it cannot answer, the chatbot transfers the customer to a human.',
      ).relation,
    ).toBe('compatible');
  });

  it('a review’s cases: subjects told by their first words or a verb of being, units, and ceasing', () => {
    const cases: [string, string, string][] = [
      ['Patient 1042 is allergic to penicillin.', 'Patient 1074 is allergic to penicillin.', 'unrelated'],
      ['The east warehouse ships orders same day.', 'The west warehouse ships orders same day.', 'unrelated'],
      ['The minimum replica count is 2.', 'The maximum replica count is 2.', 'unrelated'],
      ['The office is in Berlin.', 'The office is in Munich.', 'conflicting'],
      ['The CEO is Dana.', 'The CEO is Lee.', 'conflicting'],
      [
        'Sam likes early meetings with the design team.',
        'Sam dislikes early meetings with the design team.',
        'conflicting',
      ],
      ['The limit is 10 GB.', 'The limit is 10 MB.', 'conflicting'],
      ['The nightly job emails the finance team.', 'The nightly job stopped emailing the finance team.', 'conflicting'],
      [
        'The password policy requires 12 characters.',
        'The password policy requires 16 characters and a symbol.',
        'conflicting',
      ],
    ];
    for (const [a, b, want] of cases) expect(relation(a, b).relation, `${a} / ${b}`).toBe(want);
  });
});
