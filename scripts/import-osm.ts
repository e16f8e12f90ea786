// `npm run import:osm -- <file.osm.pbf|file.osm> --city "Name" [--timezone Europe/Moscow]`:
// imports a city's roads, street names, addresses and named places from an
// OpenStreetMap extract into the database chosen by configuration
// (DATABASE_URL, or the embedded PGlite in DATA_DIR: the server must not be
// running then). Importing again updates the city in place. docs/roads.md: "Your own city".
import { existsSync } from "node:fs";
import { z } from "zod";
import { closeDb, connection, db, withSession } from "../server/db";
import { migrate } from "../server/db/migrate";
import { importOsm } from "../server/osm/import-city";

const args = z
  .object({
    file: z.string().regex(/\.(osm|osm\.pbf|pbf|xml)$/i, "must be an .osm, .osm.pbf or .xml file").refine(existsSync, "no such file"),
    city: z.string().trim().min(1, "--city is required"),
    timezone: z.string().optional(),
  })
  .safeParse({
    file: process.argv.slice(2).find((a, i, all) => !a.startsWith("--") && !all[i - 1]?.startsWith("--")),
    city: process.argv[process.argv.indexOf("--city") + 1] ?? "",
    timezone: process.argv.includes("--timezone") ? process.argv[process.argv.indexOf("--timezone") + 1] : undefined,
  });

async function main(): Promise<void> {
  if (!args.success) {
    console.error(`usage: npm run import:osm -- <file.osm.pbf|file.osm> --city "Name" [--timezone Area/City]\n${args.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n")}`);
    process.exit(2);
  }
  await withSession((session) => migrate(session));
  const result = await importOsm(db(), { ...args.data, log: (m) => console.log(m) });
  console.log(
    `Import ${result.importId} into city ${result.cityId} (${connection().kind}): ${result.ways} ways read in ${result.readSeconds.toFixed(1)} s, ` +
      `written in ${result.writeSeconds.toFixed(1)} s, peak memory ${result.peakMemoryMb} MB`,
  );
  await closeDb();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
