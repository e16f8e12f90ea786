// Start-up wiring: the effects of an order's move on other domains, each
// registered with the orders domain (server/orders/move-subscribers.ts), and
// the exchange's answer to who carried an order (server/orders/carried.ts).
// Imported once by every entry that may move orders: the custom server
// (server/main.ts), the console's tRPC root (Next's bundle, createCaller),
// and the scripts that seed. Importing it twice is harmless.
import { onOrderMoved } from "./orders/move-subscribers";
import { onForeignCarrier } from "./orders/carried";
import { notifyOrderMoved } from "./notifications/order-moved";
import { settleOrderBonuses } from "./bonuses/settle";
import { releaseOrderBonuses } from "./bonuses/reserve";
import { isDone } from "./orders/states";
import { chargeCompletionCommission } from "./balances/commission";
import { exchangeMoveEffects } from "./exchange/participant/move-effects";
import { carriedByExecutor } from "./exchange/participant/carrier";
import { setTrackingUrlResolver } from "./sms/tracking-link";
import { trackingUrlForOrder } from "./tracking/link";

onOrderMoved("notifications", notifyOrderMoved);
onOrderMoved("bonuses", async (tx, moved) => {
  if (moved.to === "DONE_SUCCESSFUL") await settleOrderBonuses(tx, moved.id);
  // Any other end (cancelled, rejected, removed...): the bonuses held at creation go back.
  else if (isDone(moved.to)) await releaseOrderBonuses(tx, moved.id);
});
onOrderMoved("exchange", exchangeMoveEffects);
// The service's commission on every completion of our driver's order, whoever completes it.
onOrderMoved("commission", chargeCompletionCommission);
// "Completed" needs an order a driver carried: an order of ours that the
// exchange's executor took was carried by their driver (server/orders/carried.ts).
onForeignCarrier("exchange", carriedByExecutor);

// The passenger's SMS carry the order's tracking link (%tracking_url%): the
// tracking domain gives it, the SMS domain does not import it.
setTrackingUrlResolver(trackingUrlForOrder);
