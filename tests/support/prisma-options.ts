// The test processes' own Prisma clients (seeding a suite's participants,
// reading back what a server wrote): Prisma gives an interactive transaction
// 2 s to get its connection and start, which a busy CI machine's PGlite
// exceeded ("Unable to start a transaction in the given time" in a suite's
// setup). A test waits as long as it takes; its own timeout still bounds it.
export const TEST_CLIENT_OPTIONS = { transactionOptions: { maxWait: 30_000, timeout: 120_000 } } as const;
