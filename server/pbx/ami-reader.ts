// The Asterisk Manager Interface's wire format, read defensively.
//
// AMI is a line protocol over TCP: the server greets with one banner line
// ("Asterisk Call Manager/7.0.3"), then sends messages as blocks of
// "Key: Value" lines ended by CRLF, each block ended by an empty line.
//
// Why our own reader and not an npm library: the AMI clients on npm
// (asterisk-manager, asterisk-ami-client / -connector, @ipcom/asterisk-ami,
// yana) are untyped or barely maintained, and none bounds its input: they keep
// an unterminated line in a growing string (one grows to 1 MiB, the others
// without limit), decode each TCP chunk on its own (a UTF-8 character split
// across chunks is garbled), and turn values into numbers or null (a caller's
// number "0079…" loses its zeros), or store keys on a plain object (a key
// "__proto__"). The PBX is a network peer like any other, so this reader:
// - bounds a line (MAX_LINE_BYTES) and a block (MAX_FIELDS): an over-long line
//   is dropped with the rest of its block, memory stays bounded;
// - decodes whole lines (UTF-8 split across chunks is fine), accepts CRLF or LF;
// - drops control characters (C0 but tab, DEL, C1, line/paragraph separators,
//   bidirectional overrides) from keys and values;
// - keeps keys lower-cased in a prototype-less record, values as text.
// Nothing here interprets values as markup: the console renders them as text.

/** A message from the PBX: keys lower-cased, values as sent (control characters removed). */
export type AmiMessage = Readonly<Record<string, string>>;

/** What the reader met that it dropped; the client logs each kind once per incident. */
export type AmiProblem = "line-too-long" | "too-many-fields" | "malformed-line" | "bad-banner";

export const MAX_LINE_BYTES = 4096;
export const MAX_FIELDS = 128;

const LF = 0x0a;
// eslint-disable-next-line no-control-regex -- the point: control characters are removed
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const KEY = /^[A-Za-z0-9_-]{1,64}$/;

/** Removes control characters (a PBX may send them in any field). */
export function stripControls(text: string): string {
  return text.replace(CONTROL, "");
}

export class AmiReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Inside an over-long line: bytes are dropped until its end. */
  private skippingLine = false;
  /** The current block met a problem: its lines are dropped until the empty line that ends it. */
  private poisoned = false;
  private fields: Record<string, string> = Object.create(null) as Record<string, string>;
  private fieldCount = 0;
  private bannerSeen = false;
  private readonly decoder = new TextDecoder("utf-8", { fatal: false });

  constructor(
    private readonly onMessage: (message: AmiMessage) => void,
    private readonly onProblem: (problem: AmiProblem) => void,
    private readonly onBanner: (banner: string) => void = () => undefined,
  ) {}

  /** Feeds bytes as they came from the socket. */
  feed(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const lf = chunk.indexOf(LF, start);
      const end = lf === -1 ? chunk.length : lf;
      if (!this.skippingLine) {
        const piece = chunk.subarray(start, end);
        if (this.pendingBytes + piece.length > MAX_LINE_BYTES) {
          this.pending = [];
          this.pendingBytes = 0;
          this.skippingLine = true;
          this.poisoned = true;
          this.onProblem("line-too-long");
        } else if (piece.length) {
          this.pending.push(piece);
          this.pendingBytes += piece.length;
        }
      }
      if (lf === -1) break;
      if (this.skippingLine) this.skippingLine = false;
      else this.line();
      start = lf + 1;
    }
  }

  private line(): void {
    const bytes = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    let text = this.decoder.decode(bytes);
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (!this.bannerSeen) {
      this.bannerSeen = true;
      const banner = stripControls(text);
      if (!/^Asterisk Call Manager\//.test(banner)) this.onProblem("bad-banner");
      this.onBanner(banner);
      return;
    }
    if (text === "") return this.endBlock();
    if (this.poisoned) return;
    const colon = text.indexOf(":");
    const key = colon > 0 ? text.slice(0, colon).trim() : "";
    if (!KEY.test(key)) {
      this.onProblem("malformed-line");
      return;
    }
    if (this.fieldCount >= MAX_FIELDS) {
      this.poisoned = true;
      this.onProblem("too-many-fields");
      return;
    }
    this.fields[key.toLowerCase()] = stripControls(text.slice(colon + 1)).trim();
    this.fieldCount += 1;
  }

  private endBlock(): void {
    const fields = this.fields;
    const complete = !this.poisoned && this.fieldCount > 0;
    this.fields = Object.create(null) as Record<string, string>;
    this.fieldCount = 0;
    this.poisoned = false;
    if (complete) this.onMessage(fields);
  }
}

/** One action as AMI's wire text; refuses values that would break out of their line (CR, LF, other controls). */
export function encodeAction(fields: ReadonlyArray<readonly [string, string]>): string {
  let text = "";
  for (const [key, value] of fields) {
    if (!KEY.test(key)) throw new Error(`AMI: bad key ${JSON.stringify(key)}`);
    if (value !== stripControls(value) || value.length > 1024) throw new Error(`AMI: bad value for ${key}`);
    text += `${key}: ${value}\r\n`;
  }
  return text + "\r\n";
}
