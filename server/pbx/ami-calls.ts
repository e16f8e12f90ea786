// AMI events as call-log steps. A call is named by its Linkedid (the
// Uniqueid of the channel that began it: the same on every channel of the
// call), or the Uniqueid when the PBX sends no Linkedid (Asterisk < 12).
// - ringing: DialBegin (the caller dials an extension: Dest* names it),
//   Newstate to Ringing (the extension's phone rings: its channel names the
//   extension, ConnectedLine* the caller); Newchannel is not used (below);
// - answered: DialEnd with DialStatus ANSWER, or Newstate to Up of a channel
//   that did not begin the call (the extension picked up);
// - ended: Hangup of the channel that began the call.
// Events without the fields a step needs are ignored; numbers of 5 digits or
// fewer are internal extensions, not callers (server/pbx/calls.ts).
import type { AmiMessage } from "./ami-reader";

export type CallStep =
  | { kind: "ringing"; externalId: string; phone: string; callerName: string; extension: string }
  | { kind: "answered"; externalId: string; extension: string }
  | { kind: "ended"; externalId: string };

/** The extension in a channel's name: "PJSIP/101-0000002a" → "101", "SIP/office/101" is not one. */
export function extensionOfChannel(channel: string | undefined): string {
  const match = /^(?:PJSIP|SIP|IAX2|DAHDI|Local|SCCP)\/([0-9A-Za-z*#_]{1,20})(?:[-@;]|$)/.exec(channel ?? "");
  return match?.[1] ?? "";
}

export function callStepOf(event: AmiMessage): CallStep | null {
  const name = (event.event ?? "").toLowerCase();
  const uniqueid = event.uniqueid ?? "";
  const externalId = event.linkedid || uniqueid;
  switch (name) {
    case "dialbegin": {
      const id = event.linkedid || uniqueid;
      if (!id || !event.calleridnum) return null;
      const extension = extensionOfChannel(event.destchannel) || event.destexten || event.dialstring || "";
      return { kind: "ringing", externalId: id, phone: event.calleridnum, callerName: event.calleridname ?? "", extension };
    }
    case "newstate": {
      if (!externalId) return null;
      if (event.channelstate === "5" || (event.channelstatedesc ?? "").toLowerCase() === "ringing") {
        // The ringing phone's channel: the caller is on the other end of the line.
        if (!event.connectedlinenum) return null;
        return { kind: "ringing", externalId, phone: event.connectedlinenum, callerName: event.connectedlinename ?? "", extension: extensionOfChannel(event.channel) || event.calleridnum || "" };
      }
      if ((event.channelstate === "6" || (event.channelstatedesc ?? "").toLowerCase() === "up") && event.linkedid && uniqueid && event.linkedid !== uniqueid) {
        return { kind: "answered", externalId: event.linkedid, extension: extensionOfChannel(event.channel) || event.calleridnum || "" };
      }
      return null;
    }
    // Newchannel of the trunk's channel says a call arrived, not which phone rings: a pop-up to every
    // console, taken away once DialBegin names the extension, would flash on all of them. The pop-up
    // waits for DialBegin or Newstate, which every Asterisk sends when a phone rings.
    case "dialend": {
      if (!externalId || (event.dialstatus ?? "").toUpperCase() !== "ANSWER") return null;
      return { kind: "answered", externalId, extension: extensionOfChannel(event.destchannel) || event.destcalleridnum || "" };
    }
    case "hangup": {
      if (!uniqueid || (event.linkedid && event.linkedid !== uniqueid)) return null;
      return { kind: "ended", externalId: uniqueid };
    }
    default:
      return null;
  }
}
