// Provisioning of the simulated second exchange participant on this
// server's own exchange, done by the server (like the seed), never by the
// simulator: the participant's profile, its server (the simulator's
// listener, reached from the loopback), an executor service of car class 1,
// an opening deposit, and its client key, derived from APP_SECRET (so every
// start has the same one). The simulator then trades through /exchange only.
import { createHmac } from "node:crypto";
import type { Db } from "../db";
import { addServer, createParticipant, upsertService } from "../exchange/participants";
import { adjustBalance } from "../exchange/ledger";
import { hashSecret, issueClientKey } from "../exchange/sessions";

export const SIMULATED_PARTICIPANT = "Такси Юг (симулятор)";

export function simulatedParticipantKeyFor(secret: string): string {
  return `xk_sim_${createHmac("sha256", secret).update("taxi-dispatch/simulator/exchange-participant/v1").digest("base64url")}`;
}

/** Creates or updates the simulated participant; its server's URL is where the simulator listens now. */
export async function provisionSimulatedParticipant(db: Db, input: { serverUrl: string; clientKey: string }): Promise<{ participantId: number }> {
  return db.$transaction(async (tx) => {
    const existing = await tx.exchangeParticipant.findFirst({ where: { name: SIMULATED_PARTICIPANT }, select: { id: true } });
    const participant =
      existing ??
      (await createParticipant(tx, {
        name: SIMULATED_PARTICIPANT,
        details: "Второй участник биржи, которого играет симулятор",
        countryEn: "Russia",
        countryRu: "Россия",
        locationEn: "Moscow",
        locationRu: "Москва",
        lat: 55.7,
        lon: 37.62,
      }));
    // The listener's port changes from start to start: one server, the current one.
    await tx.exchangeServer.deleteMany({ where: { participantId: participant.id } });
    await addServer(tx, participant.id, { url: input.serverUrl, address: "127.0.0.1, ::1, localhost" });
    await upsertService(tx, participant.id, { externalId: 1, name: "Эконом", carClass: 1, executes: true });
    const key = await tx.exchangeClientKey.findUnique({ where: { keyHash: hashSecret(input.clientKey) }, select: { id: true } });
    if (!key) await issueClientKey(tx, participant.id, input.clientKey);
    await adjustBalance(tx, { participantId: participant.id, amount: 500_000n, txnId: "simulator:deposit:opening", reason: "opening deposit" });
    return { participantId: participant.id };
  });
}
