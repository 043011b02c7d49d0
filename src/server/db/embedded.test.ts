import { rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { socketDirFor, startEmbeddedPostgres, type EmbeddedDatabase } from './embedded';

const dataDir = path.resolve(`data/test-embedded-socket-${process.pid}`);
let embedded: EmbeddedDatabase | undefined;
afterAll(async () => {
  await embedded?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the embedded PostgreSQL (issue 14: statements over a Unix socket)', () => {
  it('is reached through a Unix socket in its own folder, and still answers on loopback TCP', async () => {
    rmSync(dataDir, { recursive: true, force: true });
    embedded = await startEmbeddedPostgres({ dataDir, database: 'socket_check' });
    const url = new URL(embedded.url);
    expect(url.searchParams.get('host')).toBe(path.join(dataDir, 'pg'));

    const viaSocket = new pg.Client({ connectionString: embedded.url });
    await viaSocket.connect();
    // A Unix-socket session has no server address; a TCP one has 127.0.0.1.
    const socket = await viaSocket.query('SELECT inet_server_addr() AS addr, current_database() AS db');
    await viaSocket.end();
    expect(socket.rows[0]).toEqual({ addr: null, db: 'socket_check' });

    url.searchParams.delete('host');
    const viaTcp = new pg.Client({ connectionString: url.toString() });
    await viaTcp.connect();
    const tcp = await viaTcp.query('SELECT host(inet_server_addr()) AS addr');
    await viaTcp.end();
    expect(tcp.rows[0]).toEqual({ addr: '127.0.0.1' });
  });

  it('makes new WAL files without filling them with zeros first (ADR 037)', async () => {
    // The server the test above started, or (this test run alone) one of its own.
    embedded ??= await startEmbeddedPostgres({ dataDir, database: 'socket_check' });
    const client = new pg.Client({ connectionString: embedded.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ setting: string; source: string }>(
        "SELECT setting, source FROM pg_settings WHERE name = 'wal_init_zero'",
      );
      expect(rows[0]).toEqual({ setting: 'off', source: 'command line' });
    } finally {
      await client.end();
    }
  });

  it('keeps to TCP when DATA_DIR is too deep for a socket path (about 100 bytes)', () => {
    expect(socketDirFor('/srv/giftmart/data/pg', 5433)).toBe('/srv/giftmart/data/pg');
    expect(socketDirFor(`/srv/${'x'.repeat(90)}/pg`, 5433)).toBeUndefined();
  });
});
