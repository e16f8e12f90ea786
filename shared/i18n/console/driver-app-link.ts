// The console's driver key dialog: the driver's app activation link and its QR code.
export const driverAppLinkStrings = {
  ru: {
    title: "Ссылка для телефона водителя",
    hint: "Водитель открывает ссылку или сканирует QR-код камерой телефона: приложение проверит ключ и запомнит его. Ссылка показывается один раз, как и ключ.",
    qr: (callSign: string) => `QR-код ссылки подключения водителя ${callSign}`,
    copy: "Копировать ссылку",
  },
  en: {
    title: "Link for the driver's phone",
    hint: "The driver opens the link or scans the QR code with the phone's camera: the app checks the key and keeps it. The link is shown once, like the key.",
    qr: (callSign: string) => `QR code of the activation link of driver ${callSign}`,
    copy: "Copy the link",
  },
} as const;
