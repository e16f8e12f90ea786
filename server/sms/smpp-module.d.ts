// The part of the `smpp` package (farhadi/node-smpp, plain JavaScript with no
// declarations of its own) that the SMPP provider and its test use.
declare module "smpp" {
  import type { EventEmitter } from "node:events";
  import type { Server as NetServer } from "node:net";

  export interface Pdu {
    command: string;
    command_status: number;
    sequence_number: number;
    [field: string]: unknown;
    response(options?: Record<string, unknown>): Pdu;
    isResponse(): boolean;
  }

  export class PDU implements Pdu {
    constructor(command: string, options?: Record<string, unknown>);
    command: string;
    command_status: number;
    sequence_number: number;
    [field: string]: unknown;
    response(options?: Record<string, unknown>): Pdu;
    isResponse(): boolean;
  }

  export interface Session extends EventEmitter {
    /** False when the socket is not writable. */
    send(pdu: Pdu, responseCallback?: (pdu: Pdu) => void, sendCallback?: () => void): boolean;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
    connect(): void;
    pause(): void;
    resume(): void;
    bind_transceiver(options: Record<string, unknown>, callback?: (pdu: Pdu) => void): boolean;
    submit_sm(options: Record<string, unknown>, callback?: (pdu: Pdu) => void, sendCallback?: () => void): boolean;
    deliver_sm(options: Record<string, unknown>, callback?: (pdu: Pdu) => void): boolean;
    unbind(options?: Record<string, unknown>, callback?: (pdu: Pdu) => void): boolean;
    closed?: boolean;
    socket: import("node:net").Socket;
  }

  export interface ConnectOptions {
    url?: string;
    auto_enquire_link_period?: number;
    debug?: boolean;
  }

  export function connect(options: ConnectOptions | string, listener?: () => void): Session;
  export function createServer(options: Record<string, unknown>, listener?: (session: Session) => void): NetServer;
  export function createServer(listener?: (session: Session) => void): NetServer;

  export const ESME_ROK: number;
  export const ESME_RTHROTTLED: number;
  export const ESME_RINVDSTADR: number;
  export const ESME_RSYSERR: number;
  export const ESME_RBINDFAIL: number;
}
