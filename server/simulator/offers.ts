// Today's pull model as the simulated drivers play it: free drivers look at
// the free orders near them (GET /driver-app/v1/offers) and each takes the
// nearest one no other simulated driver is taking in this tick. Split out of
// engine.ts.
import type { Rng } from "../seed/demo/random";
import type { Engine } from "./engine";

/**
 * Free drivers look at the offers near them; each takes the nearest one no
 * other simulated driver is taking in this tick (the engine's seeded order
 * decides who looks first). The server still decides every race.
 */
export async function handOutOffers(engine: Engine, rng: Rng): Promise<void> {
  const now = engine.now;
  const looking = engine.drivers.filter((d) => d.wantsOffers(now));
  if (looking.length === 0) return;
  const lists = await Promise.all(looking.map((d) => d.fetchOffers(now, engine.options.offerRadiusKm)));
  const claimed = new Set<string>();
  const takes: Array<Promise<boolean>> = [];
  for (const i of rng.shuffle(looking.map((_, k) => k))) {
    const driver = looking[i]!;
    for (const offer of lists[i]!) {
      if (claimed.has(offer.uuid) || engine.unwanted.has(offer.uuid)) continue;
      if (offer.state === "PREORDER_FREE") {
        const at = engine.orders.get(offer.uuid)?.advanceAt ?? (offer.pre_order_time ? engine.simOfWall(offer.pre_order_time) : now);
        if (at - now > 90 * 60 || !rng.chance(0.5)) continue;
      }
      claimed.add(offer.uuid);
      takes.push(driver.take(offer, now));
      break;
    }
  }
  await Promise.all(takes);
}
