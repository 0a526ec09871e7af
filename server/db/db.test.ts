import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emptyPgDatabase } from '@/server/test/db';
import { rateBuckets } from './schema/limits';
import { DataDirInUseError, lockDataDir } from './dir-lock';
import { sql } from 'drizzle-orm';
import { openDb, migrateDb, rowsOf, withoutPassword, type DbHandle } from './index';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('PostgreSQL with several instances', () => {
  const handles: DbHandle[] = [];
  let drop = async () => {};
  afterAll(async () => {
    await Promise.all(handles.map((h) => h.close()));
    await drop();
  });

  it('migrates a fresh database from four instances started at once, each then serving', async () => {
    const database = await emptyPgDatabase();
    drop = database.drop;
    for (let i = 0; i < 4; i++) handles.push(await openDb({ url: database.url }));
    await Promise.all(handles.map((h) => migrateDb(h)));
    for (const h of handles) expect(await h.db.select().from(rateBuckets)).toEqual([]);
  });

  it('masks the whole password of the URL it shows, even one holding @ and :', () => {
    expect(withoutPassword('postgres://app:p@ss:w@rd@db.example:5432/mnemoscope')).toBe(
      'postgres://app:***@db.example:5432/mnemoscope',
    );
  });
});

describe('the embedded data directory', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mnemoscope-lock-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Another process that takes the lock and keeps it until killed. */
  const holder = async () => {
    const script = path.join(dir, 'hold.mts');
    writeFileSync(
      script,
      `import { lockDataDir } from ${JSON.stringify(path.join(ROOT, 'server/db/dir-lock.ts'))};\n` +
        `await lockDataDir(${JSON.stringify(dir)});\nconsole.log('locked');\nsetInterval(() => {}, 1000);\n`,
    );
    const proc = spawn(process.execPath, ['--import', 'tsx', script], { cwd: ROOT });
    await new Promise<void>((resolve, reject) => {
      proc.stdout.on('data', (d) => String(d).includes('locked') && resolve());
      let err = '';
      proc.stderr.on('data', (d) => (err += d));
      proc.on('exit', (code) => reject(new Error(`holder exited ${code}: ${err}`)));
    });
    return proc;
  };

  it('refuses a second process, naming the directory and the holder; a crashed holder does not block', async () => {
    const proc = await holder();
    const err = await lockDataDir(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataDirInUseError);
    expect((err as Error).message).toContain(`the data directory ${dir} is in use by process ${proc.pid}`);
    await expect(openDb({ dataDir: dir })).rejects.toThrow(/in use by process/);
    proc.kill('SIGKILL');
    await new Promise((r) => proc.on('exit', r));
    const h = await openDb({ dataDir: dir });
    await migrateDb(h);
    const second = await holder().catch((e: Error) => e);
    expect(String(second)).toMatch(new RegExp(`in use by process ${process.pid}`)); // ours now
    await h.close();
    const third = await holder(); // released on close
    third.kill('SIGKILL');
  });
});

describe('the embedded database', () => {
  it('runs with a small buffer pool (its WASM memory never shrinks), in a data directory and in memory', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mnemoscope-buffers-'));
    for (const dataDir of [dir, 'memory']) {
      const h = await openDb({ dataDir });
      try {
        const [row] = rowsOf<{ shared_buffers: string }>(await h.db.execute(sql`show shared_buffers`));
        expect(row?.shared_buffers).toBe('32MB');
      } finally {
        await h.close();
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });
});
