import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src-server/db/connection';
import { DataDirLockedError, LOCK_FILE_NAME } from '../../../src-server/db/data-dir-lock';
import { deferredDatabase } from '../../../src-server/db/deferred-database';
import { migrate } from '../../../src-server/db/migrate';
import { openConfiguredDatabase } from '../../../src-server/db/open-database';
import {
  discardEarlyPgliteThread,
  openPgliteDataDirInThread,
  PgliteThread,
  startPgliteThreadEarly,
  takePgliteThread,
} from '../../../src-server/db/pglite-thread/client';
import { sqlState, UNIQUE_VIOLATION } from '../../../src-server/db/sql';

/**
 * DATA_DIR's PGlite in its own thread (db/pglite-thread): statements, values, errors and
 * transactions behave as they do on a PGlite in the server's thread.
 */
describe("the embedded database's thread", () => {
  let dir = '';
  let db: Database;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'portal-thread-'));
    db = await openConfiguredDatabase({ databaseUrl: null, dataDir: dir, pgliteSharedBuffersMb: null });
    await db.exec(`create table item (id int primary key, name text not null unique, at timestamptz, body bytea, facts jsonb, tags text[]);
      create table counter (n int not null)`);
  });
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('carries parameters and rows of every kind the repositories use across', async () => {
    const at = new Date('2026-03-17T09:00:00.000Z');
    const rows = await db.query(
      `insert into item (id, name, at, body, facts, tags) values ($1, $2, $3, $4, $5::jsonb, $6) returning id, name, at, body, facts, tags, null::text as nothing`,
      [1, 'Zoë "MRI" <knee>', at, new Uint8Array([0, 1, 254, 255]), JSON.stringify({ contrast: true, minutes: 30 }), ['a', 'b']],
    );
    expect(rows).toEqual([
      {
        id: 1,
        name: 'Zoë "MRI" <knee>',
        at,
        body: new Uint8Array([0, 1, 254, 255]),
        facts: { contrast: true, minutes: 30 },
        tags: ['a', 'b'],
        nothing: null,
      },
    ]);
    expect(db.kind).toBe('pglite');
  });

  it("keeps a failed statement's SQLSTATE, constraint and message, and changes nothing", async () => {
    await db.query(`insert into item (id, name) values (2, 'unique name')`);
    const error = await db.query(`insert into item (id, name) values (3, 'unique name')`).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(sqlState(error)).toBe(UNIQUE_VIOLATION);
    expect(error).toMatchObject({
      constraint: 'item_name_key',
      message: expect.stringMatching(/duplicate key value violates unique constraint/),
    });
    expect(await db.query(`select count(*)::int as n from item where id = 3`)).toEqual([{ n: 0 }]);
    await expect(db.query('select * from no_such_table')).rejects.toMatchObject({ code: '42P01' });
  });

  it('commits a transaction that resolves and rolls back one that throws, with the thrown error', async () => {
    await db.transaction(async (tx) => {
      await tx.query('insert into counter (n) values ($1)', [1]);
      await tx.exec('insert into counter (n) values (2)');
    });
    const thrown = new Error('the caller changed its mind');
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into counter (n) values ($1)', [99]);
        throw thrown;
      }),
    ).rejects.toBe(thrown);
    // A statement failing inside rolls the whole transaction back.
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into counter (n) values ($1)', [98]);
        await tx.query('insert into counter (n) values (null)');
      }),
    ).rejects.toMatchObject({ code: '23502' });
    expect(await db.query('select n from counter order by n')).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('runs a statement sent during a transaction after it, never inside it', async () => {
    let outside: Promise<unknown> | null = null;
    const order: string[] = [];
    await db.transaction(async (tx) => {
      outside = db.query('select count(*)::int as n from counter').then((rows) => order.push(`outside saw ${JSON.stringify(rows)}`));
      await tx.query('insert into counter (n) values (3)');
      await new Promise((resolve) => setTimeout(resolve, 50));
      order.push('transaction done');
    });
    await outside;
    expect(order).toEqual(['transaction done', 'outside saw [{"n":3}]']);
  });

  it("answers another live server's DATA_DIR lock with the error the start prints", async () => {
    const locked = mkdtempSync(join(tmpdir(), 'portal-thread-locked-'));
    try {
      // The lock of a server that is running: this test's parent process.
      const owner = { pid: process.ppid, hostname: hostname(), startedAt: new Date().toISOString() };
      writeFileSync(join(locked, LOCK_FILE_NAME), `${JSON.stringify(owner)}\n`);
      const error = await openPgliteDataDirInThread(locked).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DataDirLockedError);
      expect(String(error)).toContain(`Another portal server (pid ${process.ppid}) is already using DATA_DIR ${locked}`);
      expect(readdirSync(locked)).toEqual([LOCK_FILE_NAME]);
    } finally {
      rmSync(locked, { recursive: true, force: true });
    }
  });

  it('fails every waiting and later statement clearly when the thread ends', async () => {
    const other = mkdtempSync(join(tmpdir(), 'portal-thread-end-'));
    try {
      const thread = new PgliteThread();
      const lost: string[] = [];
      const ending = await thread.open(other, null, (error) => lost.push(error.message));
      await ending.query('select 1');
      const waiting = ending.query('select pg_sleep(5)');
      await (thread as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
      await expect(waiting).rejects.toThrow(/the embedded database's thread ended/);
      await expect(ending.query('select 1')).rejects.toThrow(/the embedded database's thread ended/);
      // Told once, as a lost PostgreSQL connection is (main.ts prints it).
      expect(lost).toEqual([expect.stringMatching(/the embedded database's thread ended/)]);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('the thread started before the server code loads (dist/server/main.js)', () => {
  it("opens DATA_DIR at once, and the server's open takes that database", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-early-'));
    try {
      startPgliteThreadEarly().openEarly(dir, null);
      // The thread holds DATA_DIR's lock before the server asks for the database.
      await expect.poll(() => readdirSync(dir), { timeout: 30_000 }).toContain(LOCK_FILE_NAME);
      const lost: Error[] = [];
      const db = await openConfiguredDatabase({ databaseUrl: null, dataDir: dir, pgliteSharedBuffersMb: null }, (error) =>
        lost.push(error),
      );
      await db.exec('create table kept (value text)');
      await db.close();
      expect(readdirSync(dir)).not.toContain(LOCK_FILE_NAME);
      // A close is not a lost database.
      expect(lost).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('closes the early database when the server asks for another folder, and opens that one', async () => {
    const guessed = mkdtempSync(join(tmpdir(), 'portal-early-guess-'));
    const asked = mkdtempSync(join(tmpdir(), 'portal-early-asked-'));
    try {
      startPgliteThreadEarly().openEarly(guessed, null);
      const db = await openConfiguredDatabase({ databaseUrl: null, dataDir: asked, pgliteSharedBuffersMb: null });
      expect(readdirSync(guessed)).not.toContain(LOCK_FILE_NAME);
      expect(readdirSync(asked)).toContain(LOCK_FILE_NAME);
      expect(await db.query('select 1 as one')).toEqual([{ one: 1 }]);
      await db.close();
    } finally {
      rmSync(guessed, { recursive: true, force: true });
      rmSync(asked, { recursive: true, force: true });
    }
  });

  it('is ended, unused, when the server runs on PostgreSQL', async () => {
    const thread = startPgliteThreadEarly();
    const ended = new Promise((resolve) =>
      (thread as unknown as { worker: { once(event: string, fn: () => void): void } }).worker.once('exit', () => resolve(true)),
    );
    await discardEarlyPgliteThread();
    expect(await ended).toBe(true);
    // The next open starts a thread of its own.
    const next = takePgliteThread();
    expect(next).not.toBe(thread);
    await next.discard();
  });
});

describe('a database handed out before it is open', () => {
  it('holds statements until the database is open and migrated, then runs them there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-deferred-'));
    let opened: Database | null = null;
    const ready = openConfiguredDatabase({ databaseUrl: null, dataDir: dir, pgliteSharedBuffersMb: null }).then(async (db) => {
      await migrate(db);
      opened = db;
      return db;
    });
    const deferred = deferredDatabase('pglite', ready);
    try {
      // Sent before the database exists; answered from the migrated database.
      const rows = await deferred.query<{ ready: boolean }>(`select to_regclass('schema_migrations') is not null as ready`);
      expect(opened).not.toBeNull();
      expect(rows).toEqual([{ ready: true }]);
      expect(deferred.stats().queries).toBeGreaterThan(0);
    } finally {
      await deferred.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails its statements with the open error and closes without one', async () => {
    const failure = new Error('the database is unreachable');
    const ready = Promise.reject(failure);
    const deferred = deferredDatabase('postgres', ready);
    await expect(deferred.query('select 1')).rejects.toBe(failure);
    await expect(deferred.transaction(async () => 1)).rejects.toBe(failure);
    await expect(deferred.close()).resolves.toBeUndefined();
    expect(deferred.stats()).toEqual({ queries: 0, failedQueries: 0, querySeconds: 0, pool: null });
  });
});
