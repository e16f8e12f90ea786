// The console's words for passengers' ratings of drivers (the driver card), Russian and English.
export const ru = {
  ratings: {
    title: "Оценка пассажиров",
    none: "пока нет оценок",
    average: (avg: number, count: number) => `${avg.toFixed(1).replace(".", ",")} из 5 · оценок: ${count}`,
    stars: (n: number) => `${n} из 5`,
  },
};

export const en: typeof ru = {
  ratings: {
    title: "Passengers' rating",
    none: "no ratings yet",
    average: (avg: number, count: number) => `${avg.toFixed(1)} of 5 · ${count} rating${count === 1 ? "" : "s"}`,
    stars: (n: number) => `${n} of 5`,
  },
};
