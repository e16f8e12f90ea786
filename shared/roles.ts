// The console's roles, for the browser. Prisma's enum (server/generated) is
// the database's source; server/console/session.ts fails to compile if the
// two ever differ.
export const UserRole = {
  ADMIN: "ADMIN",
  DISPATCHER: "DISPATCHER",
  ACCOUNTANT: "ACCOUNTANT",
  EXCHANGE_OPERATOR: "EXCHANGE_OPERATOR",
  /** Reads the reports and the board; changes nothing. */
  MANAGER: "MANAGER",
} as const;

export type UserRole = (typeof UserRole)[keyof typeof UserRole];
