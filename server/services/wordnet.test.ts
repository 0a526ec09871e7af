import { afterAll, describe, expect, it } from 'vitest';
import { closeWordnet, synsetsOf, wordnet } from './wordnet';

afterAll(closeWordnet);

describe('WordNet as the curator’s lexicon', () => {
  it('finds synonyms by their most frequent sense, over inflected forms', () => {
    for (const [a, b] of [
      ['begins', 'starts'],
      ['automobile', 'car'],
      ['physician', 'doctor'],
      ['large', 'big'],
      ['quickly', 'rapidly'],
      ['finished', 'completed'],
      ['fiscal', 'financial'],
    ])
      expect(wordnet.synonyms(a!, b!), `${a} / ${b}`).toBe(true);
  });

  it('relates derived forms', () => {
    expect(wordnet.synonyms('decided', 'decision')).toBe(true);
    expect(wordnet.synonyms('requires', 'requirement')).toBe(true);
  });

  it('does not pair words of different things, nor words sharing only a rarer sense', () => {
    for (const [a, b] of [
      // Each shares a sense that is not the first of both, or only in a rarer part of speech ("the open").
      ['teaches', 'learns'],
      ['checks', 'stops'],
      ['fork', 'branch'],
      ['released', 'freed'],
      ['open', 'clear'],
      ['hold', 'deem'],
      ['lock', 'curl'],
      ['fix', 'specify'],
      ['user', 'exploiter'],
      ['expire', 'die'],
      ['read', 'say'],
      ['billing', 'search'],
      ['staging', 'production'],
      ['read', 'write'],
      ['tea', 'coffee'],
      ['dark', 'light'],
      ['minimum', 'maximum'],
    ])
      expect(wordnet.synonyms(a!, b!), `${a} / ${b}`).toBe(false);
  });

  it('finds opposites, also through a satellite adjective’s head', () => {
    expect(wordnet.antonyms('dark', 'light')).toBe(true);
    expect(wordnet.antonyms('increase', 'decrease')).toBe(true);
    expect(wordnet.antonyms('minimum', 'maximum')).toBe(true);
    expect(wordnet.antonyms('pale', 'dark')).toBe(true);
    expect(wordnet.antonyms('annually', 'yearly')).toBe(false);
  });

  it('looks up the first and last words of each file and refuses what is not a word', () => {
    // First and last lines of index.noun, index.verb, index.adj, index.adv (after the license lines).
    for (const w of ["'hood", 'zyrian', 'aah', 'zymotic', "'tween", 'zigzag'])
      expect(synsetsOf(w).size, w).toBeGreaterThan(0);
    expect(wordnet.synonyms('zymurgy', 'zymology')).toBe(true);
    expect(wordnet.synonyms('zigzag', 'zymology')).toBe(false);
    expect(wordnet.synonyms('constructor', '__proto__')).toBe(false);
    expect(synsetsOf('qwzx').size).toBe(0);
    expect(wordnet.antonyms('qwzx', 'zzzz')).toBe(false);
  });
});
