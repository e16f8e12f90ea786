// `npx tsx scripts/exchange-admin.ts <command>`: the exchange operator's
// provisioning from the shell, on the database chosen by configuration
// (DATABASE_URL, or the embedded PGlite in DATA_DIR — then with the server
// stopped). Commands:
//   list
//   add <name> <server url> <addresses> [carClass,...]   a participant with a server, a new client key and executor
//                                                        services of those classes (none given: the exchange reads
//                                                        its services from its server when it logs in)
//   key <participant id>                                 a new client key (shown once)
//   deposit <participant id> <kopecks> [reason]          a deposit (negative: a correction)
//   seed <public url> [client key]                       the demo exchange (server/seed/exchange.ts)
import { randomUUID } from "node:crypto";
import { closeDb, db, withSession } from "../server/db";
import { migrate } from "../server/db/migrate";
import { adjustBalance } from "../server/exchange/ledger";
import { provisionParticipant } from "../server/exchange/participants";
import { issueClientKey } from "../server/exchange/sessions";
import { seedExchange } from "../server/seed/exchange";

function usage(): never {
  console.error("usage: tsx scripts/exchange-admin.ts list | add <name> <url> <addresses> [classes] | key <id> | deposit <id> <kopecks> [reason] | seed <public url> [key]");
  process.exit(2);
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  await withSession((session) => migrate(session));
  switch (command) {
    case "list": {
      const rows = await db().exchangeParticipant.findMany({
        include: { servers: true, services: true },
        orderBy: { id: "asc" },
      });
      for (const p of rows) {
        console.log(`${p.id}\t${p.name}\tbalance ${(Number(p.balance) / 100).toFixed(2)}${p.disabled ? "\tDISABLED" : ""}`);
        for (const s of p.servers) console.log(`\tserver ${s.url} from ${s.address}${s.lastCheckAt ? ` (checked ${s.lastCheckAt.toISOString()}: ${s.lastCheckOk ? "ok" : "failed"})` : ""}`);
        for (const s of p.services) console.log(`\tservice ${s.externalId} ${s.name} class ${s.carClass ?? "any"}${s.executes ? " executes" : ""}`);
      }
      break;
    }
    case "add": {
      const [name, url, address, classes] = args;
      if (!name || !url || !address) usage();
      const carClasses = (classes ?? "").split(",").filter((c) => c.trim() !== "").map(Number).filter(Number.isInteger);
      const created = await provisionParticipant(db(), {
        name,
        server: { url, address },
        services: carClasses.map((carClass) => ({ externalId: carClass, name: `Класс ${carClass}`, carClass, executes: true })),
      });
      console.log(`participant ${created.id}; client key (shown once): ${created.key}`);
      break;
    }
    case "key": {
      const id = Number(args[0]);
      if (!Number.isInteger(id)) usage();
      console.log(`client key (shown once): ${(await issueClientKey(db(), id)).key}`);
      break;
    }
    case "deposit": {
      const id = Number(args[0]);
      if (!Number.isInteger(id) || !/^-?\d+$/.test(args[1] ?? "")) usage();
      const posted = await db().$transaction((tx) =>
        adjustBalance(tx, { participantId: id, amount: BigInt(args[1]!), txnId: `admin:${randomUUID()}`, kind: args[1]!.startsWith("-") ? "ADJUSTMENT" : "DEPOSIT", reason: args[2] ?? "by the operator" }),
      );
      console.log(posted ? `balance now ${(Number(posted.balanceAfter) / 100).toFixed(2)}` : "nothing posted");
      break;
    }
    case "seed": {
      if (!args[0]) usage();
      const result = await seedExchange(db(), { publicUrl: args[0], ...(args[1] ? { clientKey: args[1] } : {}) });
      console.log(result.created ? "demo exchange created" : "demo exchange already present");
      if (result.clientKey) console.log(`client key of "Наше такси" (shown once): ${result.clientKey}`);
      break;
    }
    default:
      usage();
  }
  await closeDb();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
