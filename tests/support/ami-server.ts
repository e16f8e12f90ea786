// A PBX for the tests, speaking the Asterisk Manager Interface as Asterisk's
// documentation describes it (docs.asterisk.org, "The Asterisk Manager TCP
// IP API" and the AMI action/event reference), written from that text and
// not from our client (server/pbx/):
// - on connect the server sends one banner line, "Asterisk Call Manager/<version>\r\n";
// - each message either way is a block of "Key: Value\r\n" lines ended by an
//   empty line ("\r\n");
// - an action carries "Action:" and an optional "ActionID:", echoed in its
//   "Response: Success|Error" with a "Message:";
// - Login takes Username and Secret; a refused login answers
//   "Message: Authentication failed" and the server closes the connection;
//   actions before a login are refused with "Permission denied";
// - Ping answers "Ping: Pong" and a Timestamp;
// - Originate answers "Message: Originate successfully queued";
// - events are blocks with "Event:" (Newchannel, DialBegin, Newstate, DialEnd,
//   Hangup below carry the fields the reference lists for them).
// It also sends what a real PBX should not (huge lines, control characters,
// markup, blocks with missing fields) for the hostile-stream tests.
import net from "node:net";

/** The account the suites' servers log in with (tests/support/global-setup.ts, e2e/global-setup.ts), and the cloud PBX's secret. */
export const AMI_USER = "taxi";
export const AMI_SECRET = "amisecret";
export const PBX_WEBHOOK_SECRET = "cloud-pbx-secret-0123456789";

export type Fields = Record<string, string>;

export interface AmiServerOptions {
  port?: number;
  username?: string;
  secret?: string;
  version?: string;
}

export interface Ring {
  /** The caller's number as the trunk presents it. */
  from: string;
  callerName?: string;
  /** The extension whose phone rings. */
  extension: string;
  /** The call's id (Uniqueid of the trunk's channel, the Linkedid of all of its channels). */
  uniqueid?: string;
}

let counter = 0;

export class TestAmiServer {
  readonly port: number;
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  private readonly loggedIn = new Set<net.Socket>();
  /** Every action received, in order, keys as sent. */
  readonly actions: Fields[] = [];
  logins = 0;
  refusedLogins = 0;
  /** When false, Ping gets no response (a PBX that hangs). */
  answerPings = true;
  private readonly options: Required<Omit<AmiServerOptions, "port">>;

  private constructor(port: number, options: AmiServerOptions) {
    this.port = port;
    this.options = { username: options.username ?? AMI_USER, secret: options.secret ?? AMI_SECRET, version: options.version ?? "7.0.3" };
  }

  static async start(options: AmiServerOptions = {}): Promise<TestAmiServer> {
    const ami = new TestAmiServer(options.port ?? 0, options);
    await ami.listen();
    return ami;
  }

  get actualPort(): number {
    const address = this.server?.address();
    return typeof address === "object" && address ? address.port : this.port;
  }

  /** Listens (again, after close) on the same port. */
  listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      const server = net.createServer((socket) => this.accept(socket));
      server.once("error", reject);
      server.listen(this.server ? this.actualPort : this.port, "127.0.0.1", () => {
        this.server = server;
        resolve();
      });
    });
  }

  /** Stops listening and drops every connection (the PBX goes away). */
  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    this.loggedIn.clear();
    const server = this.server;
    return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }

  /** The number of logged-in manager sessions now. */
  get sessions(): number {
    return this.loggedIn.size;
  }

  private accept(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on("close", () => {
      this.sockets.delete(socket);
      this.loggedIn.delete(socket);
    });
    socket.on("error", () => undefined);
    socket.write(`Asterisk Call Manager/${this.options.version}\r\n`);
    let text = "";
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      for (let end = text.indexOf("\r\n\r\n"); end !== -1; end = text.indexOf("\r\n\r\n")) {
        const block = text.slice(0, end);
        text = text.slice(end + 4);
        const fields: Fields = {};
        for (const line of block.split("\r\n")) {
          const colon = line.indexOf(":");
          if (colon > 0) fields[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
        }
        this.onAction(socket, fields);
      }
    });
  }

  private reply(socket: net.Socket, fields: Fields): void {
    socket.write(Object.entries(fields).map(([k, v]) => `${k}: ${v}\r\n`).join("") + "\r\n");
  }

  private onAction(socket: net.Socket, action: Fields): void {
    this.actions.push(action);
    const name = (action.Action ?? "").toLowerCase();
    const id: Fields = action.ActionID !== undefined ? { ActionID: action.ActionID } : {};
    if (name === "login") {
      if (action.Username === this.options.username && action.Secret === this.options.secret) {
        this.logins += 1;
        this.loggedIn.add(socket);
        this.reply(socket, { Response: "Success", ...id, Message: "Authentication accepted" });
        this.reply(socket, { Event: "FullyBooted", Privilege: "system,all", Uptime: "100", LastReload: "100", Status: "Fully Booted" });
      } else {
        this.refusedLogins += 1;
        this.reply(socket, { Response: "Error", ...id, Message: "Authentication failed" });
        socket.end();
      }
      return;
    }
    if (!this.loggedIn.has(socket)) {
      this.reply(socket, { Response: "Error", ...id, Message: "Permission denied" });
      return;
    }
    switch (name) {
      case "ping":
        if (this.answerPings) this.reply(socket, { Response: "Success", ...id, Ping: "Pong", Timestamp: `${(Date.now() / 1000).toFixed(6)}` });
        return;
      case "originate":
        this.reply(socket, { Response: "Success", ...id, Message: "Originate successfully queued" });
        return;
      case "logoff":
        this.reply(socket, { Response: "Goodbye", ...id, Message: "Thanks for all the fish." });
        socket.end();
        return;
      default:
        this.reply(socket, { Response: "Error", ...id, Message: "Invalid/unknown command" });
    }
  }

  /** Sends an event block to every logged-in session. */
  event(fields: Fields): void {
    for (const socket of this.loggedIn) this.reply(socket, fields);
  }

  /** Sends bytes as they are to every logged-in session (hostile streams). */
  raw(data: string | Buffer): void {
    for (const socket of this.loggedIn) socket.write(data);
  }

  /** The ActionID-less Originate actions received. */
  get originates(): Fields[] {
    return this.actions.filter((a) => (a.Action ?? "").toLowerCase() === "originate");
  }

  /**
   * An incoming call from a trunk ringing an extension, as Asterisk 13+
   * reports it: Newchannel of the trunk's channel (state 4, Ring), DialBegin
   * to the extension's channel, Newstate of that channel to 5 (Ringing).
   */
  ring(ring: Ring): { uniqueid: string; destUniqueid: string } {
    counter += 1;
    const uniqueid = ring.uniqueid ?? `1732600000.${counter * 2}`;
    const destUniqueid = `1732600000.${counter * 2 + 1}`;
    const trunk = `PJSIP/trunk-${counter.toString(16).padStart(8, "0")}`;
    const phone = `PJSIP/${ring.extension}-${counter.toString(16).padStart(8, "0")}`;
    const name = ring.callerName ?? "";
    const caller = { CallerIDNum: ring.from, CallerIDName: name };
    this.event({
      Event: "Newchannel", Privilege: "call,all", Channel: trunk, ChannelState: "4", ChannelStateDesc: "Ring", ...caller,
      ConnectedLineNum: "<unknown>", ConnectedLineName: "<unknown>", Language: "ru", AccountCode: "", Context: "from-trunk", Exten: "4951234567", Priority: "1", Uniqueid: uniqueid, Linkedid: uniqueid,
    });
    this.event({
      Event: "DialBegin", Privilege: "call,all", Channel: trunk, ChannelState: "4", ChannelStateDesc: "Ring", ...caller,
      ConnectedLineNum: "<unknown>", ConnectedLineName: "<unknown>", Language: "ru", AccountCode: "", Context: "from-trunk", Exten: "4951234567", Priority: "3", Uniqueid: uniqueid, Linkedid: uniqueid,
      DestChannel: phone, DestChannelState: "0", DestChannelStateDesc: "Down", DestCallerIDNum: ring.extension, DestCallerIDName: "Dispatcher",
      DestConnectedLineNum: ring.from, DestConnectedLineName: name, DestLanguage: "ru", DestAccountCode: "", DestContext: "from-internal", DestExten: ring.extension, DestPriority: "1", DestUniqueid: destUniqueid, DestLinkedid: uniqueid,
      DialString: ring.extension,
    });
    this.event({
      Event: "Newstate", Privilege: "call,all", Channel: phone, ChannelState: "5", ChannelStateDesc: "Ringing", CallerIDNum: ring.extension, CallerIDName: "Dispatcher",
      ConnectedLineNum: ring.from, ConnectedLineName: name, Language: "ru", AccountCode: "", Context: "from-internal", Exten: ring.extension, Priority: "1", Uniqueid: destUniqueid, Linkedid: uniqueid,
    });
    return { uniqueid, destUniqueid };
  }

  /** The extension picks up: DialEnd with DialStatus ANSWER. */
  answer(call: { uniqueid: string; destUniqueid: string }, extension: string, from: string): void {
    this.event({
      Event: "DialEnd", Privilege: "call,all", Channel: "PJSIP/trunk", ChannelState: "6", ChannelStateDesc: "Up", CallerIDNum: from, CallerIDName: "",
      Uniqueid: call.uniqueid, Linkedid: call.uniqueid, DestChannel: `PJSIP/${extension}-00000001`, DestCallerIDNum: extension, DestUniqueid: call.destUniqueid, DestLinkedid: call.uniqueid, DialStatus: "ANSWER",
    });
  }

  /** The caller's channel hangs up (the call ends). */
  hangup(call: { uniqueid: string }, from: string): void {
    this.event({
      Event: "Hangup", Privilege: "call,all", Channel: "PJSIP/trunk", ChannelState: "4", ChannelStateDesc: "Ring", CallerIDNum: from, CallerIDName: "",
      Uniqueid: call.uniqueid, Linkedid: call.uniqueid, Cause: "16", "Cause-txt": "Normal Clearing",
    });
  }
}
