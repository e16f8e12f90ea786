// Global setup of the projects whose tests open the process's own database
// (tests/support/local-db.ts): the migrated and seeded PGlite directory is
// made once per run and copied by each test file, instead of seeding the
// demo city in every file.
import type { TestProject } from "vitest/node";
import { acquireLocalTemplate, releaseLocalTemplate } from "./local-db-template";

let acquired = false;

export async function setup(project: TestProject): Promise<void> {
  project.provide("localDbTemplate", await acquireLocalTemplate());
  acquired = true;
}

export async function teardown(): Promise<void> {
  if (acquired) await releaseLocalTemplate();
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The seeded PGlite data directory (holding pglite/) that openLocalDb copies. */
    localDbTemplate: string;
  }
}
