// The certificate authority's service functions (for the console and the
// CLI) and the verification of presented chains (for the TLS server).
export {
  activeIntermediate,
  activeRoot,
  createIntermediateAuthority,
  createRootAuthority,
  getCertificate,
  issueParticipantCertificate,
  issueServerCertificate,
  listCertificates,
  revokeCertificate,
  statusOf,
  MIN_PASSWORD_LENGTH,
  type CertificateStatus,
  type CertificateSummary,
  type ClientInput,
  type IntermediateInput,
  type IssuedClientCertificate,
  type RootInput,
} from "./authority";
export { CertificateError } from "./errors";
export { trustAnchors, verifyClientChain, REFUSALS, type PanelCertificate, type Refusal, type Verification } from "./verify";
export { developmentTlsFiles, ensureDevelopmentTls } from "./dev-tls";
