// Prisma's contains/startsWith/endsWith become SQL LIKE with the operand as
// given: a "%" or "_" typed by a user (or sent by a participant) would be a
// wildcard ("_" matches any character, "%" anything). PostgreSQL's LIKE
// escapes with a backslash by default, so the operand is escaped here; every
// such filter goes through this (lint: eslint.config.js).
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
