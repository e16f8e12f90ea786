// Small line icons for the navigation and buttons (inline SVG, no fonts).
import type { ReactElement } from "react";

const paths = {
  orders: <path d="M4 5h16M4 12h16M4 19h10" />,
  plus: <path d="M12 5v14M5 12h14" />,
  map: <path d="M9 4 3 6v14l6-2 6 2 6-2V4l-6 2-6-2zm0 0v14m6-12v14" />,
  drivers: <path d="M5 16h14l-1.5-5.5A2 2 0 0 0 15.6 9H8.4a2 2 0 0 0-1.9 1.5L5 16zm0 0v3m14-3v3M8 13h.01M16 13h.01" />,
  balances: <path d="M4 7h16v12H4zM4 7l2-3h12l2 3m-5 6h3" />,
  reports: <path d="M4 20V4m0 16h16M8 16v-5m4 5V8m4 8v-3" />,
  exchange: <path d="M7 7h13l-4-4M17 17H4l4 4" />,
  reference: <path d="M5 4h11l3 3v13H5zM9 9h6M9 13h6M9 17h4" />,
  settings: <path d="M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6zm7 3 2-1-1-3-2 .3-1.4-1.4L17 5l-3-1-1 2h-2L10 4 7 5l.3 2L6 8.4 4 8l-1 3 2 1v0l-2 1 1 3 2-.3L7.4 17 7 19l3 1 1-2h2l1 2 3-1-.3-2 1.4-1.4 2 .3 1-3-2-1z" />,
  users: <path d="M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-7 10c0-4 3-6 7-6s7 2 7 6m1-10a3 3 0 1 0 0-6m2 16c0-3-1-5-3-6" />,
  key: <path d="M15 7a4 4 0 1 1-3.9 5H4v3h3v3h3v-3h1.1A4 4 0 0 1 15 7zm1 4h.01" />,
  audit: <path d="M12 8v4l3 2M3 12a9 9 0 1 0 3-6.7L3 8m0-5v5h5" />,
  signOut: <path d="M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10" />,
  search: <path d="m20 20-4.5-4.5M10.5 17a6.5 6.5 0 1 1 0-13 6.5 6.5 0 0 1 0 13z" />,
  close: <path d="M6 6l12 12M18 6 6 18" />,
  check: <path d="m5 12 5 5 9-10" />,
  bell: <path d="M6 16V11a6 6 0 1 1 12 0v5l2 2H4l2-2zm4 4a2 2 0 0 0 4 0" />,
  bellOff: <path d="M6 16V11a6 6 0 0 1 9.5-4.9M18 11v5l2 2H8m2 2a2 2 0 0 0 4 0M4 4l16 16" />,
  phone: <path d="M5 4h4l2 5-2.5 1.5a11 11 0 0 0 5 5L15 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2z" />,
  car: <path d="M5 16h14l-1.5-5.5A2 2 0 0 0 15.6 9H8.4a2 2 0 0 0-1.9 1.5L5 16zm0 0v3m14-3v3" />,
  clock: <path d="M12 7v5l3 2m6-2a9 9 0 1 1-18 0 9 9 0 0 1 18 0z" />,
  pin: <path d="M12 21s-7-6.2-7-11a7 7 0 0 1 14 0c0 4.8-7 11-7 11zm0-8a3 3 0 1 0 0-6 3 3 0 0 0 0 6z" />,
  flag: <path d="M5 21V4h11l-1.5 4L16 12H5" />,
} satisfies Record<string, ReactElement>;

export type IconName = keyof typeof paths;

export function Icon({ name, size = 18 }: { name: IconName; size?: number }) {
  return (
    <svg
      className="icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      {paths[name]}
    </svg>
  );
}
