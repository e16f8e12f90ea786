// Scarcity adapts the rules (issue 30): when a round has more free orders
// than free cars, a far car sent to an order is a long empty drive while
// nearer orders wait (Castillo, Knoepfle and Weyl's "wild goose chases"),
// and a car committed to an order near the end of its trip minutes ahead
// could have taken a newer, nearer one when free. So under scarcity the
// radius is capped and chains are not offered; with cars to spare the rules
// stay as set. The deeper the shortage, the shorter the drive worth making:
// with free orders at least four times the free cars the cap is tighter
// still. Measured in docs/dispatch.md before it was kept.
import type { DriverToDispatch, OrderRules, OrderToDispatch } from "./types";

/**
 * Free orders per free car from which the deeper cap applies. Measured
 * (docs/dispatch.md): from 2 on the wait twice over capacity is as short as
 * from 4, and from 2 or 3 more rush-hour orders are lost for no shorter wait.
 */
export const DEEP_SCARCITY_RATIO = 4;

function freeCars(drivers: readonly DriverToDispatch[]): number {
  return drivers.filter((d) => d.busyForSeconds === 0).length;
}

export function isScarce(orders: readonly OrderToDispatch[], drivers: readonly DriverToDispatch[]): boolean {
  return orders.length > freeCars(drivers);
}

/** The rules of a round under scarcity (the same object when nothing changes). */
export function scarceRules(rules: OrderRules, scarceRadiusKm: number): OrderRules {
  if (scarceRadiusKm <= 0) return rules;
  return { ...rules, radiusKm: Math.min(rules.radiusKm, scarceRadiusKm), chainSeconds: 0 };
}

/**
 * The round's orders with the rules scarcity gives them (unchanged when cars
 * are enough or the cap is off); deepRadiusKm (0: none) is the cap when the
 * free orders are at least DEEP_SCARCITY_RATIO times the free cars.
 */
export function adaptToScarcity(orders: readonly OrderToDispatch[], drivers: readonly DriverToDispatch[], scarceRadiusKm: number, deepRadiusKm = 0): OrderToDispatch[] {
  const free = freeCars(drivers);
  if (scarceRadiusKm <= 0 || orders.length <= free) return [...orders];
  const cap = deepRadiusKm > 0 && orders.length >= DEEP_SCARCITY_RATIO * free ? deepRadiusKm : scarceRadiusKm;
  const cache = new Map<OrderRules, OrderRules>();
  return orders.map((o) => {
    let rules = cache.get(o.rules);
    if (!rules) cache.set(o.rules, (rules = scarceRules(o.rules, cap)));
    return { ...o, rules };
  });
}
