// Scarcity adapts the rules (issue 30): when a round has more free orders
// than free cars, a far car sent to an order is a long empty drive while
// nearer orders wait (Castillo, Knoepfle and Weyl's "wild goose chases"),
// and a car committed to an order near the end of its trip minutes ahead
// could have taken a newer, nearer one when free. So under scarcity the
// radius is capped and chains are not offered; with cars to spare the rules
// stay as set. Measured in docs/dispatch.md before it was kept.
import type { DriverToDispatch, OrderRules, OrderToDispatch } from "./types";

export function isScarce(orders: readonly OrderToDispatch[], drivers: readonly DriverToDispatch[]): boolean {
  return orders.length > drivers.filter((d) => d.busyForSeconds === 0).length;
}

/** The rules of a round under scarcity (the same object when nothing changes). */
export function scarceRules(rules: OrderRules, scarceRadiusKm: number): OrderRules {
  if (scarceRadiusKm <= 0) return rules;
  return { ...rules, radiusKm: Math.min(rules.radiusKm, scarceRadiusKm), chainSeconds: 0 };
}

/** The round's orders with the rules scarcity gives them (unchanged when cars are enough or the cap is off). */
export function adaptToScarcity(orders: readonly OrderToDispatch[], drivers: readonly DriverToDispatch[], scarceRadiusKm: number): OrderToDispatch[] {
  if (scarceRadiusKm <= 0 || !isScarce(orders, drivers)) return [...orders];
  const cache = new Map<OrderRules, OrderRules>();
  return orders.map((o) => {
    let rules = cache.get(o.rules);
    if (!rules) cache.set(o.rules, (rules = scarceRules(o.rules, scarceRadiusKm)));
    return { ...o, rules };
  });
}
