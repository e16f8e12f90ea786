// Which car options an order's extras need. Extras are priced per service
// (Extra.code); cars carry the exchange's car options (Car.options, the ids
// of car_option). The codes the product seeds map to these options; an
// extra with another code needs nothing of the car.
export const OPTION_OF_EXTRA: Readonly<Record<string, number>> = {
  CHILD_SEAT: 1,
  PET: 2,
  LUGGAGE: 3,
  NON_SMOKING: 4,
  AIR_CONDITIONER: 5,
};

export function optionsNeeded(extraCodes: readonly string[]): number[] {
  const out = new Set<number>();
  for (const code of extraCodes) {
    const option = OPTION_OF_EXTRA[code];
    if (option !== undefined) out.add(option);
  }
  return [...out].sort((a, b) => a - b);
}
