// Our dispatch server as an exchange participant: what a local move of an
// order tells the exchange (an order we bought reports its status; an order
// we sold and then cancelled locally is cancelled on the exchange).
// Filled in by the exchange work (issue 4); a no-op until then.
import type { Tx } from "../../db";
import type { MovedOrder } from "../../orders/move-order";

export async function exchangeMoveEffects(_tx: Tx, _moved: MovedOrder): Promise<void> {
  // nothing yet
}
