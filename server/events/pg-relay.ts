// Live events between instances sharing one PostgreSQL: every local event is
// sent with NOTIFY on one channel, and a dedicated LISTEN connection hands
// the other instances' events to the local bus. (On the embedded database
// there is one process, and the in-process bus is all there is.)
import pg from "pg";
import { log } from "../log";
import { deliverRemote, setForwarder, type Envelope } from "./bus";

const CHANNEL = "taxi_events";
// NOTIFY payloads are limited to 8000 bytes; events are far smaller.
const MAX_PAYLOAD = 7900;

export async function startPgRelay(connectionString: string, pool: pg.Pool): Promise<() => Promise<void>> {
  let listener: pg.Client | undefined;
  let stopped = false;

  const connect = async () => {
    const client = new pg.Client({ connectionString });
    client.on("notification", (message) => {
      if (!message.payload) return;
      try {
        deliverRemote(JSON.parse(message.payload) as Envelope);
      } catch (error) {
        log.warn("event relay: bad payload", error);
      }
    });
    client.on("error", (error) => {
      log.warn("event relay: connection lost", error);
      listener = undefined;
      if (!stopped) setTimeout(() => void connect().catch(() => undefined), 1000);
    });
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    listener = client;
  };
  await connect();

  setForwarder((envelope) => {
    const payload = JSON.stringify(envelope);
    if (payload.length > MAX_PAYLOAD) return;
    pool.query("SELECT pg_notify($1, $2)", [CHANNEL, payload]).catch((error: unknown) => log.warn("event relay: notify failed", error));
  });

  return async () => {
    stopped = true;
    setForwarder(undefined);
    await listener?.end().catch(() => undefined);
  };
}
