// The console's words for the phone (issue 34): the incoming-call pop-up,
// missed calls, click-to-call, the call log, the extension in a user's
// profile; and the refusals of server/pbx/ by `details.reasonKey`.

type Details = Record<string, string | number | boolean | null | undefined>;
type Reasons = Record<string, (d: Details) => string>;

export const ru = {
  phone: {
    incoming: "Входящий звонок",
    hiddenNumber: "Номер скрыт",
    unknownCaller: "Новый клиент",
    callerName: "Имя",
    lastAddresses: "Последние адреса",
    noAddresses: "Заказов с этого номера не было",
    activeOrders: "Заказы в работе",
    noActiveOrders: "Нет заказов в работе",
    order: (id: number) => `Заказ №${id}`,
    newOrder: "Новый заказ",
    newOrderKey: "Enter — новый заказ, Esc — скрыть",
    close: "Скрыть",
    answered: "Разговор",
    missedTitle: "Пропущенные звонки",
    missedAt: (time: string) => `пропущен в ${time}`,
    callBack: "Перезвонить",
    dismiss: "Убрать",
    call: "Позвонить",
    callClient: (phone: string) => `Позвонить клиенту ${phone}`,
    callDriver: (phone: string) => `Позвонить водителю ${phone}`,
    calling: "Звоним: снимите трубку своего телефона",
    callFailed: "Звонок не удался",
    callLog: "Звонки по заказу",
    clientCalls: "Другие звонки клиента",
    callLogEmpty: "Звонков нет",
    incomingShort: "входящий",
    outgoingShort: "исходящий",
    missedShort: "пропущен",
    ringingShort: "звонит",
    duration: (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`,
    leadTo: (id: number) => `→ заказ №${id}`,
    extension: "Внутренний номер",
    extensionHint: "Номер телефона диспетчера на АТС: звонки на него всплывают у этого пользователя",
  },
};

export const en: typeof ru = {
  phone: {
    incoming: "Incoming call",
    hiddenNumber: "Number withheld",
    unknownCaller: "New client",
    callerName: "Name",
    lastAddresses: "Last addresses",
    noAddresses: "No orders from this number yet",
    activeOrders: "Orders in progress",
    noActiveOrders: "No orders in progress",
    order: (id: number) => `Order #${id}`,
    newOrder: "New order",
    newOrderKey: "Enter — new order, Esc — hide",
    close: "Hide",
    answered: "On the line",
    missedTitle: "Missed calls",
    missedAt: (time: string) => `missed at ${time}`,
    callBack: "Call back",
    dismiss: "Dismiss",
    call: "Call",
    callClient: (phone: string) => `Call the client ${phone}`,
    callDriver: (phone: string) => `Call the driver ${phone}`,
    calling: "Calling: pick up your phone",
    callFailed: "The call failed",
    callLog: "Calls of the order",
    clientCalls: "The client's other calls",
    callLogEmpty: "No calls",
    incomingShort: "incoming",
    outgoingShort: "outgoing",
    missedShort: "missed",
    ringingShort: "ringing",
    duration: (s: number) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`,
    leadTo: (id: number) => `→ order #${id}`,
    extension: "Extension",
    extensionHint: "The dispatcher's phone on the PBX: calls to it pop up for this user",
  },
};

export const reasonsRu: Reasons = {
  noPbx: () => "АТС не подключена: звоните по ссылке tel:",
  noExtension: () => "В вашем профиле нет внутреннего номера: его задаёт администратор",
  pbxDown: (d) => `АТС не приняла звонок: ${String(d.reason ?? "")}`,
  pbxRefused: (d) => `АТС отказала: ${String(d.reason ?? "")}`,
  extensionTaken: (d) => `Внутренний номер ${String(d.extension ?? "")} уже у другого пользователя`,
};

export const reasonsEn: Reasons = {
  noPbx: () => "No PBX is connected: use the tel: link",
  noExtension: () => "Your profile has no extension: an administrator sets it",
  pbxDown: (d) => `The PBX did not take the call: ${String(d.reason ?? "")}`,
  pbxRefused: (d) => `The PBX refused: ${String(d.reason ?? "")}`,
  extensionTaken: (d) => `Extension ${String(d.extension ?? "")} belongs to another user`,
};
