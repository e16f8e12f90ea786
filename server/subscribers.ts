// Start-up wiring: the effects of an order's move on other domains, each
// registered with the orders domain (server/orders/move-subscribers.ts).
// Imported once by every entry that may move orders: the custom server
// (server/main.ts), the console's tRPC root (Next's bundle, createCaller),
// and the scripts that seed. Importing it twice is harmless.
import { onOrderMoved } from "./orders/move-subscribers";
import { notifyOrderMoved } from "./notifications/order-moved";
import { settleOrderBonuses } from "./bonuses/settle";
import { exchangeMoveEffects } from "./exchange/participant/move-effects";

onOrderMoved("notifications", notifyOrderMoved);
onOrderMoved("bonuses", async (tx, moved) => {
  if (moved.to === "DONE_SUCCESSFUL") await settleOrderBonuses(tx, moved.id);
});
onOrderMoved("exchange", exchangeMoveEffects);
