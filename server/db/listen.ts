// LISTEN on a channel of the process's database, for caches that the
// database invalidates (NOTIFY from triggers, so that every writer is seen:
// this instance, another instance, a script, a test writing directly).
//
// PGlite: the instance's own listen() (one process, one session; the
// notification of a committed change is handed over as soon as the writing
// statement returns). PostgreSQL: a dedicated connection outside the pool,
// reconnected after a loss like the event relay's; after a reconnection
// `resync` is called, because notifications sent while it was down are lost.
// Either way the listener ends with the connection (connection().close()),
// and its socket never keeps a process alive on its own.
import net from "node:net";
import pg from "pg";
import { SESSION_OPTIONS, type Connection } from "../db";
import { log } from "../log";

export interface ChannelHandlers {
  /** A notification on the channel. */
  notify: (payload: string) => void;
  /** Listening again after a gap in which notifications may have been lost. */
  resync: () => void;
}

const RECONNECT_MS = 1000;

/**
 * Starts listening; resolves once LISTEN is in place. Never rejects: when the
 * first attempt fails it keeps trying in the background and calls `resync`
 * once it succeeds.
 */
export async function listenChannel(conn: Connection, channel: string, handlers: ChannelHandlers): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name: ${channel}`);
  if (conn.pglite) {
    try {
      await conn.pglite.listen(channel, (payload) => handlers.notify(payload));
    } catch (error) {
      // The instance is closing or closed: nothing left to listen to.
      log.warn("listen failed", { channel, error: error instanceof Error ? error.message : String(error) });
    }
    return;
  }
  if (!conn.url) throw new Error("listen: no PostgreSQL connection string");
  const url = conn.url;
  let stopped = false;
  let current: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: url, application_name: `taxi-listen:${channel}`, options: SESSION_OPTIONS });
    let gone = false;
    const lost = (error?: unknown) => {
      if (gone) return;
      gone = true;
      if (current === client) current = undefined;
      client.end().catch(() => undefined);
      if (stopped) return;
      log.warn("listen: connection lost", { channel, error: error instanceof Error ? error.message : String(error ?? "ended") });
      timer = setTimeout(() => {
        timer = undefined;
        if (stopped) return;
        connect().then(
          () => handlers.resync(),
          () => undefined, // lost() has planned the next attempt
        );
      }, RECONNECT_MS);
      timer.unref();
    };
    client.on("error", lost);
    client.on("end", () => lost());
    client.on("notification", (message) => {
      if (message.channel === channel) handlers.notify(message.payload ?? "");
    });
    try {
      await client.connect();
      const socket = client.connection.stream;
      if (socket instanceof net.Socket) socket.unref();
      await client.query(`LISTEN ${channel}`);
    } catch (error) {
      lost(error);
      throw error;
    }
    if (stopped) {
      gone = true;
      await client.end().catch(() => undefined);
      return;
    }
    current = client;
  };

  conn.onClose(async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await current?.end().catch(() => undefined);
    current = undefined;
  });
  await connect().catch(() => undefined);
}
