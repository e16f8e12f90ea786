// The console's words for the drivers' page, Russian and English.

export const ru = {
  drivers: {
    title: "Водители",
    search: "Позывной, фамилия, телефон или номер машины",
    states: { FREE: "Свободен", BUSY: "Занят", OFFLINE: "Не на линии" },
    allStates: "Все",
    columns: { callSign: "Позывной", name: "Водитель", state: "Состояние", car: "Машина", region: "Район", balance: "Баланс", seen: "На связи", phone: "Телефон" },
    never: "никогда",
  },
};

export const en: typeof ru = {
  drivers: {
    title: "Drivers",
    search: "Call sign, surname, phone or plate",
    states: { FREE: "Free", BUSY: "Busy", OFFLINE: "Off line" },
    allStates: "All",
    columns: { callSign: "Call sign", name: "Driver", state: "State", car: "Car", region: "Region", balance: "Balance", seen: "Last seen", phone: "Phone" },
    never: "never",
  },
};
