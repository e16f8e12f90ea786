// The positive marker of the exchange suites' negative checks: a change's
// notifications are written to the outbox in the change's own transaction,
// so once its reply came they are all there; once none of them is pending,
// each one sent has reached its receiver (the receiver records a request
// before it answers; the worker marks the message delivered after the
// answer). Only then does "X was not notified" mean something.
// Read through the console's exchange desk (tRPC over HTTP, as an exchange
// operator), which works on both databases while the server runs.
import { signIn, trpcQuery } from "../../reliability/support/console";
import { until } from "../wait";

export interface OutboxItem {
  id: number;
  channel: string;
  topic: string;
  target: string;
  status: "PENDING" | "DELIVERED" | "FAILED";
  attempts: number;
  lastError: string | null;
}

export interface OutboxWatch {
  /** Messages of the exchange channels, newest first (up to 200). */
  messages(filter?: { status?: OutboxItem["status"]; channel?: "exchange" | "exchange-call" }): Promise<OutboxItem[]>;
  /** Waits until no message is pending, except those to targets starting with one of `except` (receivers that are down). */
  settled(options?: { except?: string[]; timeoutMs?: number }): Promise<void>;
}

/** `unreachable`: targets (prefixes) no delivery ever reaches, such as the seeded demo participants' servers. */
export async function watchOutbox(url: string, email: string, password: string, options: { unreachable?: string[] } = {}): Promise<OutboxWatch> {
  const session = await signIn(url, email, password);
  if (!/session-token=/.test(session.cookie)) throw new Error(`signing in as ${email} failed: ${session.reply.status} ${session.reply.text.slice(0, 300)}`);
  const messages: OutboxWatch["messages"] = async (filter = {}) => {
    const r = await trpcQuery(url, "exchangeDesk.outbox", { ...filter, limit: 200 }, session.cookie);
    if (r.error || !r.data) throw new Error(`exchangeDesk.outbox: ${JSON.stringify(r.body).slice(0, 500)}`);
    return (r.data as { items: OutboxItem[] }).items;
  };
  return {
    messages,
    settled: async ({ except = [], timeoutMs = 30_000 } = {}) => {
      await until(
        "the outbox to settle",
        async () => {
          const skip = [...except, ...(options.unreachable ?? [])];
          const pending = (await messages({ status: "PENDING" })).filter((m) => !skip.some((prefix) => m.target.startsWith(prefix)));
          // Named in the time-out's message.
          if (pending.length) throw new Error(`pending: ${pending.map((m) => `${m.topic} to ${m.target} (${m.attempts} attempts, ${m.lastError ?? "not tried"})`).join("; ")}`);
          return true;
        },
        timeoutMs,
        50,
      );
    },
  };
}
