// Untrusted lengths in the .osm.pbf reader (server/osm/pbf-blocks.ts): a
// small file whose block inflates far past the format's 32 MiB is refused
// with a clear error while memory stays bounded, whether its Blob declares
// the true size or lies about it; a BlobHeader length past 64 KiB is refused
// without reading on. Before the fix the parser inflated every block
// without a bound (a 1 MiB file cost the importer 1.7 GB) and buffered the
// file up to any header length it read.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createDeflate } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { TEST_DB } from "../reliability/support/db";
import { readOsm } from "@/server/osm/read";
import { gridTown, writeOsmPbf } from "../support/osm-file";

const dir = mkdtempSync(path.join(tmpdir(), "taxi-pbf-bomb-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `size` zero bytes deflated, a chunk at a time (the test itself never holds them). */
function deflatedZeros(size: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    const deflate = createDeflate({ level: 9 });
    deflate.on("data", (d: Buffer) => out.push(d));
    deflate.on("end", () => resolve(Buffer.concat(out)));
    deflate.on("error", reject);
    const chunk = Buffer.alloc(1 << 20);
    let left = size;
    const pump = () => {
      while (left > 0) {
        left -= chunk.length;
        if (!deflate.write(chunk)) return void deflate.once("drain", pump);
      }
      deflate.end();
    };
    pump();
  });
}

function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return out;
}
const field = (n: number, wire: number) => varint(n * 8 + wire);
const bytesField = (n: number, data: Buffer) => Buffer.concat([Buffer.from([...field(n, 2), ...varint(data.length)]), data]);
const intField = (n: number, value: number) => Buffer.from([...field(n, 0), ...varint(value)]);

/** One OSMData block: a Blob with raw_size `declared` and the zlib data, behind its BlobHeader. */
function bombFile(zlibData: Buffer, declared: number): Buffer {
  const blob = Buffer.concat([intField(2, declared), bytesField(3, zlibData)]);
  const header = Buffer.concat([bytesField(1, Buffer.from("OSMData")), intField(3, blob.length)]);
  const size = Buffer.alloc(4);
  size.writeUInt32BE(header.length);
  return Buffer.concat([size, header, blob]);
}

async function drain(file: string): Promise<{ error: Error | undefined; growthMb: number }> {
  global.gc?.();
  const before = process.memoryUsage();
  let peak = before.rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  let error: Error | undefined;
  try {
    for await (const _ of readOsm(file, { nodes: true, ways: true })) {
      // read everything
    }
  } catch (e) {
    error = e as Error;
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  return { error, growthMb: (peak - before.rss) / 2 ** 20 };
}

// On PGlite only: the .osm.pbf reader never touches a database: one run proves it (issue 35).
describe.skipIf(TEST_DB !== "pglite")(".osm.pbf bombs", () => {
  it("a block that inflates to 512 MiB is refused with a clear error and bounded memory, whatever raw_size says", async () => {
    const zeros = await deflatedZeros(512 * 2 ** 20);
    expect(zeros.length).toBeLessThan(2 ** 20);
    for (const [name, declared] of [["honest", 512 * 2 ** 20], ["lying", 1000], ["at the limit", 32 * 2 ** 20]] as const) {
      const file = path.join(dir, `${name.replace(/\W/g, "-")}.osm.pbf`);
      writeFileSync(file, bombFile(zeros, declared));
      const { error, growthMb } = await drain(file);
      expect(error?.message, name).toMatch(/not a valid \.osm\.pbf file at byte \d+: .*(32 MiB|33554432|inflates past|declared)/);
      expect(growthMb, `${name}: memory grew by ${growthMb.toFixed(0)} MiB`).toBeLessThan(150);
    }
  });

  it("a block that inflates within its size but is no PrimitiveBlock is a clear error, not a crash", async () => {
    const file = path.join(dir, "zeros.osm.pbf");
    writeFileSync(file, bombFile(await deflatedZeros(2 ** 20), 2 ** 20));
    expect((await drain(file)).error?.message).toMatch(/not a valid \.osm\.pbf file at byte \d+: a block that does not parse/);
  });

  it("a header length past 64 KiB is refused at once; a truncated file is an error, not a hang", async () => {
    const file = path.join(dir, "long-header.osm.pbf");
    const size = Buffer.alloc(4);
    size.writeUInt32BE(0xfffffff0);
    writeFileSync(file, Buffer.concat([size, Buffer.alloc(100)]));
    expect((await drain(file)).error?.message).toMatch(/BlobHeader of \d+ bytes/);
    const good = path.join(dir, "town.osm.pbf");
    writeOsmPbf(good, gridTown({ rows: 3, cols: 3 }));
    const whole = await drain(good);
    expect(whole.error).toBeUndefined();
    const cut = path.join(dir, "cut.osm.pbf");
    const bytes = readFileSync(good);
    writeFileSync(cut, bytes.subarray(0, bytes.length - 10));
    expect((await drain(cut)).error?.message).toMatch(/the file ends inside/);
  });
});
