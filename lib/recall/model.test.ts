import { describe, expect, it } from 'vitest';
import { MODELS, modelSource } from './model';

const hub = { remoteHost: 'hub-default/', remotePathTemplate: '{model}/resolve/{revision}/' };

describe('where recall fetches its model', () => {
  it('fetches the bundled model from this app, and a hub model only as transformers.js itself would', () => {
    const bundled = MODELS.find((m) => m.bundled)!;
    expect(modelSource(bundled, 'http://127.0.0.1:3000', hub)).toEqual({
      allowLocalModels: false,
      allowRemoteModels: true,
      remoteHost: 'http://127.0.0.1:3000/',
      remotePathTemplate: 'models/{model}/',
    });
    const other = MODELS.find((m) => !m.bundled)!;
    expect(modelSource(other, 'http://127.0.0.1:3000', hub)).toMatchObject(hub);
  });
});
