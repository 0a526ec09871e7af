import { describe, expect, it } from 'vitest';
import { sameness, type Lexicon } from './sameness';

const verdict = (a: string, b: string, lexicon?: Lexicon) => sameness(b, a, { lexicon }).verdict;

describe('sameness: numbers in any form (issue 20)', () => {
  it('compares a time of day in any notation', () => {
    expect(verdict('Visiting hours end at 8 pm.', 'Visiting hours end at 20:00.')).toBe('same');
    expect(verdict('The job runs at 02:00 UTC.', 'The job runs at 2 a.m. UTC.')).toBe('same');
    expect(verdict('The shop opens at 9:30 am.', 'The shop opens at 09:30.')).toBe('same');
    expect(verdict('The job runs at 2 am UTC.', 'The job runs at 2 pm UTC.')).toBe('distinct');
    expect(verdict('Pickup is at 5:30 pm.', 'Pickup is at 5:30 am.')).toBe('distinct');
  });

  it('compares a quantity in its unit’s base', () => {
    expect(
      verdict('Samples must reach the lab within two hours.', 'Samples must reach the lab within 120 minutes.'),
    ).toBe('same');
    expect(verdict('Visitor logs are kept for two years.', 'Visitor logs are kept for 24 months.')).toBe('same');
    expect(verdict('Pallets must not exceed 1,200 kg.', 'Pallets must not exceed 1.2 tonnes.')).toBe('same');
    expect(verdict('Cultures are passaged every three days.', 'Cultures are passaged every three-day span.')).not.toBe(
      'distinct',
    );
    expect(verdict('Cultures are passaged every three days.', 'Cultures are passaged every four-day span.')).toBe(
      'distinct',
    );
    // Other quantities stay other facts.
    expect(verdict('Visitor logs are kept for two years.', 'Visitor logs are kept for 2 months.')).toBe('distinct');
    expect(verdict('Samples must arrive within two hours.', 'Samples must arrive within 2 minutes.')).toBe('distinct');
  });

  it('keeps each number with its own unit: swapped figures are other facts', () => {
    expect(verdict('Every day, keep 14 backups for 30 days.', 'Every day, keep 30 backups for 14 days.')).toBe(
      'distinct',
    );
    expect(verdict('Deploy in the 2nd week of the sprint.', 'Deploy in 14 days of the sprint.')).toBe('distinct');
  });

  it('reads temperatures, signs, currencies and ordinals', () => {
    expect(verdict('The cold room is set to 4 °C.', 'The cold room is set to four degrees Celsius.')).toBe('same');
    expect(verdict('Samples are stored at minus 80 °C.', 'Samples are stored at -80 degrees C.')).toBe('same');
    expect(verdict('Samples are stored at 80 °C.', 'Samples are stored at -80 °C.')).toBe('distinct');
    expect(verdict('Claims above 500 euros need approval.', 'Claims above €500 need approval.')).toBe('same');
    expect(verdict('Claims above 500 dollars need approval.', 'Claims above €500 need approval.')).toBe('distinct');
    expect(verdict('The tablet is due on the first day of the month.', 'The tablet is due on the 1st.')).not.toBe(
      'distinct',
    );
    // A plural's "s" is not seconds.
    expect(verdict('The gateway retries upstream 503 errors.', 'The gateway retries upstream 503s.')).not.toBe(
      'distinct',
    );
  });
});

describe('sameness: words', () => {
  it('calls the same words in another case or spacing the same, and keeps signs and symbols', () => {
    expect(verdict('Feature flags are managed in LaunchDarkly.', 'feature flags are  managed in launchdarkly')).toBe(
      'same',
    );
    expect(verdict('The alarm fires at -20 degrees.', 'The alarm fires at 20 degrees.')).toBe('distinct');
    expect(verdict('The plan costs $5.', 'The plan costs €5.')).toBe('distinct');
  });

  it('reads a hyphenated word by its parts once the other says them', () => {
    expect(
      verdict('The pharmacist must double-check every dose.', 'Every dose is double-checked by the pharmacist.'),
    ).toBe('same');
    expect(verdict('Mateus is color-blind.', 'Mateus is colour-blind.')).toBe('same');
    expect(verdict('Add the frequent-flyer number to bookings.', 'Add the frequent flyer number to bookings.')).toBe(
      'same',
    );
    expect(verdict('The agreement auto-renews each year.', 'The agreement renews automatically each year.')).toBe(
      'same',
    );
    expect(verdict('Deploys go to acme-prod.', 'Deploys go to acme-sandbox.')).toBe('distinct');
  });

  it('asks the lexicon for synonyms, derived forms and opposites', () => {
    const pairs: Record<string, string[]> = { physician: ['doctor'], decided: ['decision'] };
    const lexicon: Lexicon = {
      synonyms: (a, b) => !!pairs[a]?.includes(b) || !!pairs[b]?.includes(a),
      antonyms: (a, b) => (a === 'dark' && b === 'light') || (a === 'light' && b === 'dark'),
    };
    const a = 'The team physician checks the players in October.';
    const b = 'The team doctor checks the players in October.';
    // Without a lexicon a swapped word is another subject or object.
    expect(verdict(a, b)).toBe('distinct');
    expect(verdict(a, b, lexicon)).toBe('same');
    expect(verdict('We decided to use pnpm.', 'The decision was to use pnpm.', lexicon)).toBe('same');
    expect(verdict('The user prefers dark mode.', 'Light mode is what the user prefers.', lexicon)).toBe('distinct');
    expect(verdict('The user prefers dark mode.', 'Light mode is what the user prefers.')).not.toBe('same');
  });
});

describe('sameness: untrusted text of any shape', () => {
  it('compares a statement of 100,000 digits without hanging (each currency pattern re-read the run: 86 s)', () => {
    const digits = '1'.repeat(100_000);
    // Too long for the word rules (a person decides); the patterns no longer re-read a run at every digit either.
    expect(sameness(`${digits} euros`, `${digits} dollars`).verdict).toBe('near');
    expect(sameness(`${'1'.repeat(4000)} euros`, `${'1'.repeat(4000)} dollars`).verdict).toBe('distinct');
    expect(sameness(`${'-1'.repeat(30_000)} x`, `${'1 a '.repeat(15_000)} y`).verdict).not.toBe('same');
  });

  it('reads long runs of one character, and "60s" against many seconds, without hanging', () => {
    expect(sameness(`${' '.repeat(100_000)}20 degrees`, `${' '.repeat(100_000)}21 degrees`).verdict).not.toBe('same');
    expect(sameness(`${'1s '.repeat(1500)}`, `${'2 seconds '.repeat(450)}`).verdict).not.toBe('same');
    const rather = `The user would rather ${'x '.repeat(2000)}`;
    expect(sameness(rather, `${rather} y`).verdict).toBe('near');
  });

  it('names a secret redacted from one statement by its mark, which the page shows masked, not as a bare token', () => {
    const s = sameness(
      'When pg_wal fills the disk, lower wal_keep_size; the ops token is [REDACTED:api_key]',
      'When pg_wal fills the disk, lower wal_keep_size',
    );
    expect(s).toMatchObject({ verdict: 'distinct', onlyA: ['[REDACTED:api_key]'], onlyB: [] });
    expect(s.because).toBe('the identifiers differ ([REDACTED:api_key] / —)');
  });

  it('sends statements too long for the word rules to a person (the diff grew as a square: 10k words, 14 s)', () => {
    const words = Array.from({ length: 10_000 }, (_, i) => ['alpha', 'beta', 'gamma', 'delta', 'omega'][(i * 3) % 5]);
    const s = sameness(words.join(' '), [...words].reverse().join(' '));
    expect(s.verdict).toBe('near');
    expect(s.because).toContain('longer than the word rules compare');
    // The same long text is still the same.
    expect(sameness(words.join(' '), `${words.join(' ')}.`).verdict).toBe('same');
  });
});

describe('sameness: dates, spans and how often, in any of their forms', () => {
  it.each([
    ['The courts are closed until 1 May.', 'Until May 1st the courts remain closed.'],
    ['Manuscripts are due on the 31st of January.', 'Manuscripts are due on January 31.'],
    ['Tickets close automatically after 7 days.', 'Tickets close automatically after a week.'],
    ['The probation period lasts 6 months.', 'The probation period lasts half a year.'],
    ['Players arrive 45 minutes before kick-off.', 'Players arrive three quarters of an hour before kick-off.'],
    [
      'The survey goes out 24 hours after a ticket is resolved.',
      'The survey goes out one day after a ticket is resolved.',
    ],
    ['Log files are rotated daily.', 'Log files are rotated every day.'],
    ['The certification is audited once a year.', 'The certification is audited annually.'],
    ['Parking permits cost $45 per year.', 'Parking permits cost 45 dollars a year.'],
    ['The herd is milked twice a day.', 'The herd is milked two times daily.'],
    ['The magazine comes out every two weeks.', 'The magazine comes out fortnightly.'],
    ['The user works 2 hours a day on the report.', 'The user works 2 hours daily on the report.'],
    ['The load balancer idle timeout is 60 seconds.', 'The load balancer idle timeout is 60s.'],
    ['The sales ingestion job runs nightly at 2 am UTC.', 'The sales ingestion job runs every night at 02:00 UTC.'],
    ['The sensors report a reading every 15 minutes.', 'The sensors report a reading every quarter of an hour.'],
    ['Contractors are billed 90 dollars an hour.', 'Contractors are billed $90 per hour.'],
    ['The API allows 1,000 requests per day.', 'The API allows 1000 requests/day.'],
    ['The fume hood is certified every six months.', 'The fume hood is certified twice a year.'],
    ['The fume hood is certified semi-annually.', 'The fume hood is certified every 6 months.'],
    ['The access review runs quarterly.', 'The access review runs every quarter.'],
    ['Staff may work from home up to two days a week.', 'Staff may work from home a maximum of 2 days a week.'],
    ['Orders over €50 ship for free in Germany.', 'In Germany, shipping is free for orders above 50 euros.'],
    ['Permit applications are processed within 8 weeks.', 'Permit applications are processed in up to 56 days.'],
    ['The access review runs every three months.', 'The access review runs four times a year.'],
    ['The access review runs every 12 months.', 'The access review runs yearly.'],
    ['Production backups are kept for 30 days.', 'We retain production backups for thirty days.'],
  ])('"%s" = "%s"', (a, b) => {
    expect(verdict(a, b)).toBe('same');
  });

  it.each([
    ['The courts are closed until 1 May.', 'The courts are closed until 2 May.'],
    ['The courts are closed until May 1st.', 'The courts are closed until June 1st.'],
    ['Backups are kept for a week.', 'Backups are kept for a month.'],
    ['Backups are kept for a week.', 'Backups are kept for 8 days.'],
    ['Backups run twice a week.', 'Backups run once a week.'],
    ['Backups run three times a week.', 'Backups run three times a month.'],
    ['Backups run three times a week.', 'Backups run for three weeks.'],
    ['The user works 2 hours a day on the report.', 'The user works 2 hours a week on the report.'],
    ['The magazine comes out every two weeks.', 'The magazine comes out weekly.'],
    ['The probation period lasts half a year.', 'The probation period lasts a year.'],
    ['The load balancer idle timeout is 60 seconds.', 'The load balancer idle timeout is 90s.'],
    // A review's counterexamples to the first version of these rules: each was called the same.
    ['Retry after a second attempt fails.', 'Retry after 1 second if the attempt fails.'],
    ['Page the on-call after a second outage.', 'Page the on-call after one second of outage.'],
    ['Release 1 ships on 2 May.', 'Release 2 ships on May 1st.'],
    ['One replica is rebuilt on May 1st.', 'One replica is rebuilt in May.'],
    ['Nightly dumps are written to backups/day.', 'Nightly dumps are written to backups/daily.'],
    ['Reports are archived under reports/year.', 'Reports are archived under reports/annually.'],
    ['Reports are archived under reports/yearly.', 'Reports are archived under reports/annually.'],
    ['The gateway returned 503s for 60 minutes.', 'The gateway returned 503 errors for 60 seconds.'],
    ['The job runs nightly.', 'The job runs hourly.'],
    ['Contractors are billed 90 dollars an hour.', 'Contractors are billed $90 a day.'],
    ['The access review runs every 3 months.', 'The access review runs twice a year.'],
    ['The access review runs every six months.', 'The access review runs once a year.'],
    ['The access review runs every 6 weeks.', 'The access review runs twice a year.'],
    ['The access review runs every 4 months.', 'The access review runs quarterly.'],
    ['See docs/quarterly.md for the access review.', 'See docs/annual.md for the access review.'],
    ['Production backups are kept for 30 days.', 'Production backups are retained for 90 days.'],
    // A review's counterexamples to the first version: a bound is never the word a rewording leaves over, and
    // "quarterly" before a noun is no schedule.
    ['Logs are kept for 30 days.', 'Logs are retained for at least 30 days.'],
    ['Logs are kept for 30 days.', 'Logs are retained for up to 30 days.'],
    ['Logs are kept for 30 days.', 'Logs are kept for up to 30 days.'],
    ['Staff may work from home 2 days a week.', 'Staff may work from home up to two days a week.'],
    ['Quarterly targets are set by the CFO.', 'Targets are set by the CFO every 3 months.'],
  ])('"%s" is not "%s"', (a, b) => {
    expect(verdict(a, b)).not.toBe('same');
  });
});

describe('sameness: what must stay apart (a false duplicate drops a fact)', () => {
  it('takes a negated word for its opposite only for either/or pairs, negated right there', () => {
    expect(verdict('The clinic is closed on holidays.', 'The clinic is not open on holidays.')).toBe('same');
    expect(verdict('Deploys are forbidden on Fridays.', 'Deploys are not allowed on Fridays.')).toBe('same');
    for (const [a, b] of [
      ['We did not add the index.', 'We removed the index.'],
      ['Latency did not increase after the upgrade.', 'Latency decreased after the upgrade.'],
      ['Mara does not love Python.', 'Mara hates Python.'],
      ['The train was not early.', 'The train was late.'],
      ['Ten is not the minimum.', 'Ten is the maximum.'],
      ['Pipeline failures always page the on-call engineer.', 'Pipeline failures never page the on-call engineer.'],
      ['Mara loves Python but does not use Go at work.', 'At work Mara uses Go and hates Python.'],
    ])
      expect(verdict(a!, b!), `${a} / ${b}`).not.toBe('same');
  });

  it('keeps a rule apart from advice or a possibility: the force of a statement is part of it', () => {
    for (const [a, b] of [
      ['Canary deploys must pause while the reconciliation runs.', 'Canary deploys should pause while it runs.'],
      ['Reviewers must sign the release notes.', 'Reviewers may sign the release notes.'],
      ['The job should retry twice.', 'The job can retry twice.'],
    ])
      expect(sameness(b!, a!), `${a} / ${b}`).toMatchObject({ verdict: 'near', because: /^the force differs/ });
    // The same force in other words is the same statement; a rule stated as practice says no force of its own.
    expect(verdict('Deploys must pause during the nightly load.', 'During the nightly load, deploys must pause.')).toBe(
      'same',
    );
  });

  it('reads every part of a hyphenated word, small words too', () => {
    for (const [a, b] of [
      ['The docs are up-to-date.', 'The docs are out-of-date.'],
      ['The endpoint is opt-in.', 'The endpoint is opt-out.'],
      ['Guests check-in at noon.', 'Guests check-out at noon.'],
      ['Call the get-day-summary endpoint nightly.', 'Call the day-summary endpoint nightly.'],
      ['Ship the one-box build.', 'Ship the box build.'],
    ])
      expect(verdict(a!, b!), `${a} / ${b}`).toBe('distinct');
  });

  it('keys ordinals apart from counts', () => {
    expect(verdict('Use the first replica for reads.', 'Use one replica for reads.')).toBe('distinct');
    expect(verdict('Run the migrations first.', 'Run the migrations once.')).toBe('distinct');
    expect(verdict('The third floor has the lab.', 'The 3rd floor has the lab.')).toBe('same');
  });

  it('reads untrusted words as words: no lookup finds Object’s own properties', () => {
    expect(verdict('The class has 5 constructors.', 'The class has 7 constructors.')).toBe('distinct');
    expect(() =>
      sameness('The Builder class calls its constructor.', 'The Factory class calls its constructor.'),
    ).not.toThrow();
    expect(() => sameness('__proto__ toString hasOwnProperty valueOf', '__proto__ toString valueOf')).not.toThrow();
  });

  it('does not fold superscripts or other compatibility forms into digits', () => {
    expect(verdict('The cluster holds 10² shards.', 'The cluster holds 102 shards.')).not.toBe('same');
  });
});
