// A client's bonus count by their stored (E.164) phone: 0 for a phone we do not know.
import type { DbOrTx } from "../db";

export async function clientBonus(db: DbOrTx, phone: string): Promise<number> {
  const client = await db.client.findUnique({ where: { phone }, select: { bonus: true } });
  return client?.bonus ?? 0;
}
