// The blocks of an .osm.pbf file, read within the format's own limits
// (https://wiki.openstreetmap.org/wiki/PBF_Format): a BlobHeader under
// 64 KiB, a Blob and its uncompressed block at most 32 MiB each. The file
// says how long each part is, and a lie must cost no more than those limits:
// zlib stops at the size the Blob declares (maxOutputLength), so a 1 MiB
// file that would inflate to 1 GiB is refused with a clear error instead of
// taking the importer's memory.
//
// Why not osm-pbf-parser-node's own stream: it trusts every length (a 4 GiB
// header length is awaited by buffering the file; each block is inflated
// without a bound). Its `parse` of an inflated block is used as it is; the
// framing is read here. The two framing messages have three fields each, so
// they are decoded by hand rather than with a protobuf library.
import { open } from "node:fs/promises";
import { inflateSync } from "node:zlib";

export const MAX_BLOB_HEADER_BYTES = 64 * 1024;
export const MAX_BLOB_BYTES = 32 * 1024 * 1024;

export class OsmFileError extends Error {
  constructor(file: string, offset: number, problem: string) {
    super(`${file}: not a valid .osm.pbf file at byte ${offset}: ${problem}`);
    this.name = "OsmFileError";
  }
}

/** A protobuf message's fields that matter here: varints and length-delimited bytes, by field number. */
function fields(buf: Buffer): Map<number, number | Buffer> {
  const out = new Map<number, number | Buffer>();
  let at = 0;
  const varint = (): number => {
    let value = 0;
    for (let shift = 0; shift < 50; shift += 7) {
      if (at >= buf.length) throw new Error("truncated varint");
      const b = buf[at++]!;
      value += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return value;
    }
    throw new Error("varint too long");
  };
  while (at < buf.length) {
    const key = varint();
    const field = Math.floor(key / 8);
    switch (key % 8) {
      case 0:
        out.set(field, varint());
        break;
      case 2: {
        const length = varint();
        if (at + length > buf.length) throw new Error("a field runs past its message");
        out.set(field, buf.subarray(at, at + length));
        at += length;
        break;
      }
      case 1:
        at += 8;
        break;
      case 5:
        at += 4;
        break;
      default:
        throw new Error(`unsupported wire type ${key % 8}`);
    }
  }
  return out;
}

export interface PbfBlock {
  type: "OSMHeader" | "OSMData";
  /** The uncompressed block (a HeaderBlock or a PrimitiveBlock). */
  data: Buffer;
  /** Where its Blob starts in the file (for errors). */
  offset: number;
}

/** The file's blocks one by one; memory holds one block at a time, at most the format's limits. */
export async function* readPbfBlocks(file: string): AsyncGenerator<PbfBlock> {
  const handle = await open(file, "r");
  try {
    let offset = 0;
    const read = async (length: number, what: string): Promise<Buffer> => {
      const buf = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buf, 0, length, offset);
      if (bytesRead !== length) throw new OsmFileError(file, offset, `the file ends inside ${what}`);
      offset += length;
      return buf;
    };
    for (;;) {
      const size = Buffer.alloc(4);
      const { bytesRead } = await handle.read(size, 0, 4, offset);
      if (bytesRead === 0) return;
      if (bytesRead !== 4) throw new OsmFileError(file, offset, "the file ends inside a header length");
      const headerLength = size.readUInt32BE(0);
      if (headerLength > MAX_BLOB_HEADER_BYTES) throw new OsmFileError(file, offset, `a BlobHeader of ${headerLength} bytes (the format allows ${MAX_BLOB_HEADER_BYTES})`);
      offset += 4;
      const at = offset;
      let header: Map<number, number | Buffer>;
      try {
        header = fields(await read(headerLength, "a BlobHeader"));
      } catch (error) {
        throw error instanceof OsmFileError ? error : new OsmFileError(file, at, `a BlobHeader that does not decode (${(error as Error).message})`);
      }
      const type = header.get(1);
      const dataSize = header.get(3);
      const typeName = Buffer.isBuffer(type) ? type.toString("utf8") : "";
      if (typeof dataSize !== "number") throw new OsmFileError(file, at, "a BlobHeader without datasize");
      if (dataSize > MAX_BLOB_BYTES) throw new OsmFileError(file, at, `a Blob of ${dataSize} bytes (the format allows ${MAX_BLOB_BYTES})`);
      const blobAt = offset;
      const blob = await read(dataSize, "a Blob");
      if (typeName !== "OSMHeader" && typeName !== "OSMData") continue; // unknown blob types are skipped, as the format says
      yield { type: typeName, data: inflateBlob(file, blobAt, blob), offset: blobAt };
    }
  } finally {
    await handle.close();
  }
}

function inflateBlob(file: string, at: number, blob: Buffer): Buffer {
  let f: Map<number, number | Buffer>;
  try {
    f = fields(blob);
  } catch (error) {
    throw new OsmFileError(file, at, `a Blob that does not decode (${(error as Error).message})`);
  }
  const raw = f.get(1);
  if (Buffer.isBuffer(raw)) {
    if (raw.length > MAX_BLOB_BYTES) throw new OsmFileError(file, at, "an uncompressed block over 32 MiB");
    return raw;
  }
  const zlib = f.get(3);
  if (!Buffer.isBuffer(zlib)) throw new OsmFileError(file, at, "a block compressed otherwise than with zlib (only raw and zlib blocks are read)");
  const rawSize = f.get(2);
  if (typeof rawSize !== "number" || rawSize <= 0) throw new OsmFileError(file, at, "a zlib block without raw_size");
  if (rawSize > MAX_BLOB_BYTES) throw new OsmFileError(file, at, `a block of ${rawSize} bytes uncompressed (the format allows ${MAX_BLOB_BYTES})`);
  let data: Buffer;
  try {
    data = inflateSync(zlib, { maxOutputLength: rawSize });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new OsmFileError(file, at, code === "ERR_BUFFER_TOO_LARGE" ? `a block that inflates past its declared ${rawSize} bytes` : `a zlib block that does not inflate (${(error as Error).message})`);
  }
  if (data.length !== rawSize) throw new OsmFileError(file, at, `a block of ${data.length} bytes where ${rawSize} were declared`);
  return data;
}
