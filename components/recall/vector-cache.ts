import type { VectorCache } from '@/lib/recall/engine';

/**
 * Vectors in IndexedDB keyed by `${modelId}|${contentHash}`, so a second visit embeds only what is
 * new. Any IndexedDB failure (private mode, quota) degrades to no cache, never to no search.
 */
const DB = 'mnemoscope-recall';
const STORE = 'vectors';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB open failed'));
  });
}

export async function openVectorCache(): Promise<VectorCache | null> {
  let db: IDBDatabase;
  try {
    db = await open();
  } catch {
    return null;
  }
  return {
    getMany(keys) {
      return new Promise((resolve) => {
        const out: (Float32Array | undefined)[] = new Array(keys.length);
        try {
          const tx = db.transaction(STORE, 'readonly');
          const store = tx.objectStore(STORE);
          keys.forEach((k, i) => {
            const r = store.get(k);
            r.onsuccess = () => (out[i] = r.result instanceof Float32Array ? r.result : undefined);
          });
          tx.oncomplete = () => resolve(out);
          tx.onerror = tx.onabort = () => resolve(out);
        } catch {
          resolve(out);
        }
      });
    },
    putMany(entries) {
      return new Promise((resolve) => {
        try {
          const tx = db.transaction(STORE, 'readwrite');
          const store = tx.objectStore(STORE);
          for (const [k, v] of entries) store.put(v, k);
          tx.oncomplete = tx.onerror = tx.onabort = () => resolve();
        } catch {
          resolve();
        }
      });
    },
  };
}
