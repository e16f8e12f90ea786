// The console's words for drivers automatic dispatch does not offer orders
// to (server/dispatch/liveness.ts), Russian and English.

export const ru = {
  driverLiveness: {
    tab: "Без предложений",
    away: "Отошёл",
    onBreak: "На перерыве",
    stalePosition: "Старые координаты",
    silentApp: "Приложение молчит",
    hint: "Автоматическое распределение не предлагает этому водителю заказы",
  },
};

export const en: typeof ru = {
  driverLiveness: {
    tab: "Not offered",
    away: "Away",
    onBreak: "On a break",
    stalePosition: "Stale position",
    silentApp: "App silent",
    hint: "Automatic dispatch offers this driver no orders",
  },
};
